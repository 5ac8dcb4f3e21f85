/**
 * The wait's section of the job summary: what the origin showed and after how long, how long it
 * waited before a cancel, or why no purge call was sent and which URLs were not ready.
 */
import { describe, expect, it } from '@jest/globals'
import type { WaitSettings } from '../../../src/config/settings.js'
import type { WaitOutcome } from '../../../src/capabilities/wait/record.js'
import { waitSection } from '../../../src/capabilities/wait/summary.js'
import { Budget, SECTION_BYTES, SUMMARY_MAX_BYTES } from '../../../src/report-kit/budget.js'
import { NO_SECRETS } from '../../support/guard.js'
import { textOf } from '../../support/rendered-markdown.js'
import { listsOf, paragraphsOf, withoutOwnMarkup } from '../../support/summary-html.js'

const VERSION = 'https://origin.example/version'

const SETTINGS: WaitSettings = { urls: [VERSION], text: 'abc1234', passes: 1, timeoutMs: 600_000 }

const outcome = (overrides: Partial<WaitOutcome> = {}): WaitOutcome => ({
  done: true,
  cancelled: false,
  blocked: false,
  elapsedMs: 42_000,
  urls: [{ url: VERSION, checks: 21, passedInARow: 1, last: 'HTTP 200, showed "abc1234"' }],
  failure: undefined,
  ...overrides
})

const section = (
  settings: WaitSettings,
  wait: WaitOutcome,
  bytes: number = SUMMARY_MAX_BYTES
): string => waitSection(settings, wait, new Budget(bytes), NO_SECRETS).join('\n')

describe('the wait in the summary', () => {
  it('says what the origin showed, after how long, and how many checks of each URL it took', () => {
    const html = section(SETTINGS, outcome())
    expect(paragraphsOf(html)).toEqual(['The origin showed abc1234 after 42 s:'])
    expect(listsOf(html)).toEqual([{ items: [`21 checks of ${VERSION}`], more: 0 }])
    // Without wait-for-text, a 2xx answer was all it waited for.
    const plain = section({ ...SETTINGS, text: undefined }, outcome())
    expect(paragraphsOf(plain)).toEqual(['The origin answered 2xx after 42 s:'])
  })

  it('says how long it waited when a cancel cut it short, and each URL’s checks', () => {
    const urls = ['a', 'b'].map((path, index) => ({
      url: `https://origin.example/${path}`,
      checks: index + 1,
      passedInARow: 0,
      last: 'HTTP 503'
    }))
    const html = section(
      SETTINGS,
      outcome({ done: false, cancelled: true, elapsedMs: 3_400, urls })
    )
    expect(paragraphsOf(html)).toEqual(['Waited 3 s for the origin before the cancel:'])
    const [list] = listsOf(html)
    expect(list?.items).toHaveLength(2)
    urls.forEach(({ url, checks }, index) => {
      expect(list?.items[index]?.startsWith(`${checks} check`)).toBe(true)
      expect(list?.items[index]?.endsWith(url)).toBe(true)
    })
  })

  it('says no purge call was sent and why, then names each URL not ready', () => {
    const failure = {
      what: 'the origin was not ready within 600 s',
      detail: '2 of 3 wait-for-urls did not show "abc1234" 2 times in a row'
    }
    const urls = [3, 1, 0].map((passedInARow, index) => ({
      url: `https://origin.example/v${index + 1}`,
      checks: 30,
      passedInARow,
      last: 'HTTP 200, did not show "abc1234"'
    }))
    const settings = { ...SETTINGS, urls: urls.map(({ url }) => url), passes: 2 }
    const html = section(settings, outcome({ done: false, elapsedMs: 600_000, failure, urls }))
    expect(paragraphsOf(html)).toEqual([
      `No purge call was sent: ${failure.what}: ${failure.detail}.`
    ])
    // v1 passed often enough; v2 and v3 did not.
    const [list] = listsOf(html)
    expect(list?.items).toHaveLength(2)
    expect(list?.items[0]?.startsWith(`${urls[1]?.url} `)).toBe(true)
    expect(list?.items[1]?.startsWith(`${urls[2]?.url} `)).toBe(true)
  })

  it('lists the URLs its bound allows, then counts the rest', () => {
    const urls = Array.from({ length: 810 }, (_, index) => ({
      url: `https://origin.example/${index}/${'"<'.repeat(400)}`,
      checks: 30,
      passedInARow: 0,
      last: '"'.repeat(1000)
    }))
    const failure = { what: 'the origin was not ready within 60 s' }
    const settings = { ...SETTINGS, urls: urls.map(({ url }) => url), text: '"'.repeat(1000) }
    const html = section(settings, outcome({ done: false, failure, urls }))
    expect(Buffer.byteLength(html)).toBeLessThanOrEqual(SECTION_BYTES.wait + 1024)
    const [list] = listsOf(html)
    expect(list?.items.length).toBeGreaterThan(0)
    expect((list?.items.length ?? 0) + (list?.more ?? 0)).toBe(810)
    // Asserted nowhere else: where the wait's list says the rest are.
    expect(textOf(html)).toMatch(/… and \d+ more: the step log has each/)
    // With the budget spent, it still says how many there were.
    expect(listsOf(section(settings, outcome({ done: false, failure, urls }), 0))).toEqual([
      { items: [], more: 810 }
    ])
  })

  it('shows the text and the URLs as text: no element made of them', () => {
    const hostile = '<img src=x onerror=alert(1)>'
    const url = `https://origin.example/${hostile}`
    const html = section(
      { ...SETTINGS, urls: [url], text: hostile },
      outcome({ urls: [{ url, checks: 1, passedInARow: 1, last: '' }] })
    )
    expect(withoutOwnMarkup(html)).not.toMatch(/[<>]/)
    expect(paragraphsOf(html)[0]).toContain(hostile)
    expect(listsOf(html)[0]?.items[0]).toContain(url)
  })
})
