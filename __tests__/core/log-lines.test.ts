/** Unit tests of the step log's lines: what they say, and that no text from outside speaks to the runner. */
import { describe, expect, it } from '@jest/globals'
import { parseSettings } from '../../src/config/parse-settings.js'
import { showDerivation } from '../../src/capabilities/changed-files/summary.js'
import { describeEnd } from '../../src/core/log-lines.js'
import { recordedLog } from '../support/recorded-log.js'
import { planPurges, describePlan } from '../../src/core/plan.js'
import { DEFAULT_INPUTS, TEST_BASE } from '../../tools/defaults.js'
import { derivationOf } from '../support/derivation.js'
import { type DerivedTarget, type Derivation } from '../../src/capabilities/changed-files/record.js'
import { NO_SECRETS } from '../support/guard.js'

/** What the runner would obey in a line the action prints. */
const COMMAND = /^\s*::|##\[/

const INJECTING_FILE = 'public/a\n::set-output name=x::1\n::add-mask::a\nb.html'

/** Beside the targets' files, the push changed a README that maps to nothing. */
const derivation = (targets: DerivedTarget[], description?: string): Derivation =>
  derivationOf(targets, { description, unmatched: ['README.md'] })

/** Every line as the runner reads it: split on line breaks, as it reads stdout. */
const linesOf = (...texts: string[]): string[] => texts.flatMap((text) => text.split(/\r\n|\r|\n/))

describe('showDerivation', () => {
  async function shown(given: Derivation, calls = 1): Promise<string[]> {
    const log = recordedLog()
    await showDerivation(given, calls === 0, { log, guard: NO_SECRETS })
    return log.lines
  }

  it('titles the group with the range and lists each file with its target', async () => {
    const lines = await shown(
      derivation([
        { file: 'public/docs/index.html', type: 'url', target: 'https://www.example.com/docs/' },
        { file: 'content/blog/second.md', type: 'key', target: 'blog' }
      ])
    )
    expect(lines).toEqual([
      '[Targets from 3 changed files (push abc1234...def5678)]',
      'public/docs/index.html → url https://www.example.com/docs/',
      'content/blog/second.md → key blog',
      '[end]'
    ])
  })

  it('says that nothing matched when no file gave a target and nothing is planned', async () => {
    expect(await shown(derivation([]), 0)).toContain(
      'notice: Nothing to purge: 1 file changed in push abc1234...def5678, none matched url-map or key-map'
    )
  })

  it('says that no file changed, not that none matched, when the range holds none', async () => {
    expect(await shown(derivationOf([]), 0)).toContain(
      'notice: Nothing to purge: no files changed between abc1234 and def5678'
    )
  })

  it('keeps a file name with line breaks and commands on one inert line (issue 9)', async () => {
    const lines = await shown(
      derivation(
        [{ file: INJECTING_FILE, type: 'url', target: `https://x.example/${INJECTING_FILE}` }],
        'release ##[add-mask]v1\n::stop-commands::t'
      )
    )
    expect(lines).toHaveLength(3)
    for (const line of linesOf(...lines)) expect(line).not.toMatch(COMMAND)
    expect(lines[1]).toContain('public/a\\n::set-output name=x::1\\n::add-mask::a\\nb.html →')
  })
})

describe('call lines', () => {
  const settings = parseSettings(
    {
      ...DEFAULT_INPUTS,
      'api-token': 'tok',
      'base-url': TEST_BASE,
      'service-id': '##[add-mask]svc',
      keys: 'a b'
    },
    {
      readFile: () => {
        throw new Error('no files in these tests')
      },
      guard: NO_SECRETS,
      parts: []
    }
  )
  const [call] = planPurges(settings)
  if (call === undefined) throw new Error('expected a call')

  it('names the services in the plan without letting one speak to the runner', () => {
    const line = describePlan([call], settings, NO_SECRETS)
    expect(line).toContain('add-mask]svc')
    expect(line).not.toMatch(COMMAND)
  })

  it('shows a server error on the same line, without its line breaks', () => {
    const end = {
      attempts: 2,
      httpStatus: 400,
      ids: undefined,
      failure: {
        what: 'HTTP 400',
        detail: 'bad\n::error title=Forged::all good\r\n##[set-output name=x]1'
      }
    }
    const line = describeEnd(call, end, 120, NO_SECRETS)
    expect(linesOf(line)).toHaveLength(1)
    expect(line).not.toMatch(COMMAND)
    expect(line).toContain('HTTP 400: bad\\n::error title=Forged::all good')
  })

  it('marks ✓ a call whose every target has its id, ⚠ one that left a target without one', () => {
    const whole = {
      attempts: 1,
      httpStatus: 200,
      ids: new Map([
        ['a', 'x'],
        ['b', 'y']
      ]),
      failure: undefined
    }
    expect(describeEnd(call, whole, 5, NO_SECRETS)).toMatch(/^✓ /)
    const lost = { ...whole, ids: new Map([['a', 'x']]) }
    expect(describeEnd(call, lost, 5, NO_SECRETS)).toMatch(/^⚠ .*; 1 key without a purge id$/)
  })

  it('says a purge-all purges everything in the service, in the plan and when it ends', () => {
    const all = parseSettings(
      {
        ...DEFAULT_INPUTS,
        'api-token': 'tok',
        'base-url': TEST_BASE,
        'service-id': 'svc123',
        mode: 'all'
      },
      { readFile: () => '', guard: NO_SECRETS, parts: [] }
    )
    const calls = planPurges(all)
    expect(describePlan(calls, all, NO_SECRETS)).toBe(
      'Planned 1 purge-all call: everything in service svc123'
    )
    const [purgeAll] = calls
    if (purgeAll === undefined) throw new Error('expected a call')
    const end = { attempts: 1, httpStatus: 200, ids: new Map(), failure: undefined }
    expect(describeEnd(purgeAll, end, 30, NO_SECRETS)).toBe(
      `✓ POST ${TEST_BASE}/service/svc123/purge_all: everything in svc123 purged, HTTP 200 (1 attempt, 30 ms)`
    )
  })
})
