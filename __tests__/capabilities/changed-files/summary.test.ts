/**
 * What the job summary says of the changed files: which produced which targets, why there is
 * nothing to purge when none did, and what each service's purge mark will say.
 */
import { describe, expect, it } from '@jest/globals'
import type { DerivedTarget, PurgeMark } from '../../../src/capabilities/changed-files/record.js'
import {
  derivationSection,
  markLines,
  nothingToPurge
} from '../../../src/capabilities/changed-files/summary.js'
import { Budget, SECTION_BYTES, SUMMARY_MAX_BYTES } from '../../../src/report-kit/budget.js'
import { settingsWith } from '../../../tools/defaults.js'
import { derivationOf } from '../../support/derivation.js'
import { NO_SECRETS } from '../../support/guard.js'
import { textOf } from '../../support/rendered-markdown.js'
import {
  headlineOf,
  notesOf,
  paragraphsOf,
  summaryOf,
  tablesOf,
  withoutOwnMarkup
} from '../../support/summary-html.js'

const section = (
  targets: DerivedTarget[],
  options: Parameters<typeof derivationOf>[1] = {},
  bytes: number = SUMMARY_MAX_BYTES
): string =>
  derivationSection(derivationOf(targets, options), new Budget(bytes), NO_SECRETS).join('\n')

describe('the targets from changed files', () => {
  it('says how many files changed and how many produced targets, then each file with its targets', () => {
    const html = section(
      [
        { file: 'public/docs/index.html', type: 'url', target: 'https://www.example.com/docs/' },
        { file: 'public/docs/index.html', type: 'key', target: 'docs' },
        { file: 'content/blog/second.md', type: 'key', target: 'blog' }
      ],
      { unmatched: ['README.md'] }
    )
    expect(paragraphsOf(html)).toEqual([
      '3 files changed in push abc1234...def5678; 2 of them produced 3 targets.'
    ])
    expect(tablesOf(html)).toEqual([
      {
        head: ['Changed file', 'Targets'],
        rows: [
          ['public/docs/index.html', 'url https://www.example.com/docs/\nkey docs'],
          ['content/blog/second.md', 'key blog']
        ]
      }
    ])
  })

  it('shows 10 targets of a file and counts the rest', () => {
    const many = Array.from({ length: 40 }, (_, index): DerivedTarget => ({
      file: 'content/shared.md',
      type: 'key',
      target: `key-${index}`
    }))
    const [[, targets = ''] = []] = tablesOf(section(many))[0]?.rows ?? []
    const lines = targets.split('\n')
    expect(lines).toEqual([
      ...many.slice(0, 10).map(({ target }) => `key ${target}`),
      '…and 30 more'
    ])
  })

  it('with no target, says why in place of a table', () => {
    const derivation = derivationOf([], { unmatched: ['README.md'] })
    const html = section([], { unmatched: ['README.md'] })
    expect(tablesOf(html)).toEqual([])
    expect(paragraphsOf(html)).toEqual([`None: ${nothingToPurge(derivation.report, NO_SECRETS)}.`])
  })

  it('shows the rows its bound allows and counts the files', () => {
    const wide = (length: number): string => '"'.repeat(length)
    const targets = Array.from({ length: 5000 }, (_, index): DerivedTarget => ({
      file: `${index}${wide(4096)}`,
      type: 'url',
      target: wide(8000)
    })).flatMap((target) => Array.from({ length: 20 }, () => target))
    const html = section(targets, { description: wide(100_000) })
    expect(Buffer.byteLength(html)).toBeLessThanOrEqual(SECTION_BYTES.derivation + 2048)
    const [note] = notesOf(html)
    expect(note).toEqual({ shown: tablesOf(html)[0]?.rows.length, total: 5000, what: 'files' })
    expect(note?.shown).toBeGreaterThan(0)
  })
})

describe('nothing to purge', () => {
  const settings = settingsWith({})

  it('says in the first line that no file changed, or that none matched a map, with no table', () => {
    const none = summaryOf({ settings, derivation: derivationOf([]) })
    expect(headlineOf(none)).toBe(
      'Edge purge of svc123: nothing to purge: no files changed between abc1234 and def5678'
    )
    const unmatched = summaryOf({
      settings,
      derivation: derivationOf([], { unmatched: ['README.md', 'docs/a.md'] })
    })
    expect(headlineOf(unmatched)).toBe(
      'Edge purge of svc123: nothing to purge: 2 files changed in push abc1234...def5678, none matched url-map or key-map'
    )
    for (const html of [none, unmatched]) expect(tablesOf(html)).toEqual([])
  })
})

describe('the purge marks', () => {
  const sha = 'def5678'.padEnd(40, '0')
  const mark = (service: string, state: PurgeMark['state'], why = ''): PurgeMark => ({
    service,
    sha,
    deploymentId: state === 'not written' ? undefined : 1,
    state,
    why
  })

  it('says what each service’s mark will say, and what the next run compares from', () => {
    const lines = markLines(
      [
        mark('one', 'success'),
        mark('svc123', 'failure', '1 target not purged'),
        mark('three', 'not written', '403: Resource not accessible by integration')
      ],
      NO_SECRETS
    )
    expect(lines.map(textOf)).toEqual([
      'To be recorded as the last complete purge of one, at def5678: the next run with changed-since: last-purge compares from it.',
      'To be recorded as an incomplete purge of svc123 (1 target not purged): the next run compares from the last complete purge again.',
      'Not recorded for three: GitHub did not take it (403: Resource not accessible by integration); the next run compares from the older record, which purges more, never less.'
    ])
  })

  it('shows the service and GitHub’s words as text: no element made of them', () => {
    const hostile = '<img src=x onerror=alert(1)>'
    const lines = markLines(
      [mark(`svc${hostile}`, 'failure', 'x'), mark('three', 'not written', `403: ${hostile}`)],
      NO_SECRETS
    )
    expect(withoutOwnMarkup(lines.join('\n'))).not.toMatch(/[<>]/)
    expect(lines.map((line) => textOf(line).split(hostile).length)).toEqual([2, 2])
  })
})
