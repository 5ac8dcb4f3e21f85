/** Unit tests of how the step ends: grouped annotations, then failed or warned. */
import { beforeEach, describe, expect, it, jest } from '@jest/globals'
import type { StepLog } from '../src/log.js'
import type { PurgeResult } from '../src/record/index.js'
import type { EdgeCheckEntry } from '../src/capabilities/edge-check/record.js'
import { conclude } from '../src/report/conclusion.js'
import { guardAgainst, type Guard } from '../src/text/guard.js'
import { settingsWith } from '../tools/defaults.js'
import { runRecord } from './support/run-record.js'
import { NOT_SENT_CANCELLED, reasonOf, type Failure } from '../src/record/failure.js'
import { NO_SECRETS } from './support/guard.js'

const error = jest.fn<(message: string) => void>()
const warning = jest.fn<(message: string) => void>()
const setFailed = jest.fn<(message: string) => void>()
const log: StepLog = {
  info: () => undefined,
  group: (_title, fn) => fn(),
  notice: () => undefined,
  warning,
  error
}

interface Ending {
  failOnError: boolean
  edgeCheck: EdgeCheckEntry[]
}

const ending = (failOnError: boolean, edgeCheck: EdgeCheckEntry[] = []): Ending => ({
  failOnError,
  edgeCheck
})

/** Concludes a run with these results and edge check entries. */
function concludeRun(
  results: PurgeResult[],
  { failOnError, edgeCheck }: Ending,
  guard: Guard = NO_SECRETS
): void {
  const record = runRecord({
    results,
    settings: settingsWith({ failOnError }),
    edgeCheck:
      edgeCheck.length === 0
        ? undefined
        : { entries: edgeCheck, cancelled: false, malformedAge: [] }
  })
  conclude(record, { guard, log, fail: setFailed })
}

function purged(target: string): PurgeResult {
  return {
    type: 'key',
    target,
    service: 'svc123',
    soft: false,
    status: 'purged',
    id: '1-2-3',
    http_status: 200,
    attempts: 1,
    error: null,
    failure: null
  }
}

/** A failed result, its failure given as data or, when only its words matter here, as them. */
function failed(
  target: string,
  why: string | Failure,
  type: PurgeResult['type'] = 'key'
): PurgeResult {
  const failure = typeof why === 'string' ? { what: why } : why
  return {
    type,
    target,
    service: 'svc123',
    soft: false,
    status: 'failed',
    id: null,
    http_status: 400,
    attempts: 1,
    error: reasonOf(failure),
    failure
  }
}

const UNAUTHORIZED: Failure = {
  what: 'the API token was rejected (401)',
  detail: 'check the secret behind api-token'
}

beforeEach(() => {
  error.mockReset()
  warning.mockReset()
  setFailed.mockReset()
})

/** The annotations `conclude` makes of these results' failures, with fail-on-error. */
function annotationsOf(results: PurgeResult[]): string[] {
  error.mockClear()
  concludeRun(results, ending(true))
  return error.mock.calls.map(([message]) => message)
}

describe('the failure annotations', () => {
  it('is empty when nothing failed', () => {
    expect(annotationsOf([purged('a'), purged('b')])).toEqual([])
  })

  it('names a lone failure with its type, target and reason', () => {
    const [line, ...rest] = annotationsOf([
      purged('a'),
      failed('https://www.example.com/x', 'HTTP 404 (Not Found)', 'url')
    ])
    expect(rest).toEqual([])
    expect(line).toContain('url')
    expect(line).toContain('https://www.example.com/x')
    expect(line).toContain('HTTP 404 (Not Found)')
  })

  it('groups identical errors into one line with the count: a bad token is one annotation', () => {
    const results = Array.from({ length: 600 }, (_, index) => failed(`k${index}`, UNAUTHORIZED))
    const lines = annotationsOf(results)
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain('600 targets')
    expect(lines[0]).toContain(reasonOf(UNAUTHORIZED))
  })

  it('puts the largest group first', () => {
    const lines = annotationsOf([
      failed('a', 'reason A'),
      failed('b', 'reason B'),
      failed('c', 'reason B'),
      failed('d', 'reason B'),
      failed('e', 'reason C'),
      failed('f', 'reason C')
    ])
    expect(lines).toHaveLength(3)
    expect(lines[0]).toContain('3 targets not purged: reason B')
    expect(lines[1]).toContain('2 targets not purged: reason C')
    expect(lines[2]).toContain('reason A')
  })

  it('names a refusal once for the targets it refused and those it stopped, with both counts', () => {
    const refused: Failure = {
      what: 'soft purge was refused (403)',
      detail: 'the token needs Billing permission or higher'
    }
    const stopped: Failure = { ...refused, stopped: { by: { scope: 'forbidden' }, attempts: 0 } }
    const results = [
      failed('home', refused),
      ...Array.from({ length: 40 }, (_, index) => failed(`k${index}`, stopped))
    ]
    expect(annotationsOf(results)).toEqual([
      `41 targets not purged: ${reasonOf(refused)}; 1 refused, 40 not sent after that`
    ])
  })

  it('caps the lines at 5 and adds one line for the other kinds', () => {
    const results = Array.from({ length: 8 }, (_, index) => failed(`k${index}`, `reason ${index}`))
    const lines = annotationsOf(results)
    expect(lines).toHaveLength(6)
    expect(lines.at(-1)).toBe(
      '…and 3 more kinds of failure: see the job summary and the results output'
    )
  })

  it('adds no extra line for exactly 5 kinds', () => {
    const results = Array.from({ length: 5 }, (_, index) => failed(`k${index}`, `reason ${index}`))
    const lines = annotationsOf(results)
    expect(lines).toHaveLength(5)
    expect(lines.join('\n')).not.toContain('more kinds')
  })

  it('keeps a target and a server message on one line that cannot speak to the runner', () => {
    const target = 'k\n::add-mask::x\u202e'
    const reason = `HTTP 400: bad\r\n##[set-output name=x]1 ${'z'.repeat(1000)}`
    const [lone] = annotationsOf([failed(target, reason)])
    const [grouped] = annotationsOf([failed('a', reason), failed('b', reason)])
    for (const line of [lone ?? '', grouped ?? '']) {
      expect(line).not.toMatch(/[\r\n\u202e]|##\[/)
      expect(line).toContain('HTTP 400: bad\\r\\n##')
      expect(line.length).toBeLessThan(500)
    }
    expect(lone).toContain('\\n::add-mask::x\\u202e')
  })

  it('shortens a long target in its line', () => {
    const key = 'k'.repeat(1024)
    const [line] = annotationsOf([failed(key, 'HTTP 400 (Bad Request)')])
    expect(line).not.toContain(key)
    expect(line).toContain('1024 characters')
  })
})

describe('conclude', () => {
  it('does nothing when nothing failed', () => {
    const results = [purged('a')]
    concludeRun(results, ending(true))
    expect(error).not.toHaveBeenCalled()
    expect(warning).not.toHaveBeenCalled()
    expect(setFailed).not.toHaveBeenCalled()
  })

  it('with fail-on-error, annotates errors and fails the step', () => {
    const results = [purged('a'), failed('b', 'HTTP 400 (Bad Request)'), failed('c', UNAUTHORIZED)]
    concludeRun(results, ending(true))
    expect(error.mock.calls.map(([message]) => message)).toEqual([
      'key "b" not purged: HTTP 400 (Bad Request)',
      `key "c" not purged: ${reasonOf(UNAUTHORIZED)}`
    ])
    expect(setFailed).toHaveBeenCalledTimes(1)
    expect(setFailed.mock.calls[0]?.[0]).toContain('2 of 3 targets failed')
    expect(warning).not.toHaveBeenCalled()
  })

  it('without fail-on-error, warns instead and does not fail the step', () => {
    const results = [purged('a'), failed('b', 'HTTP 400 (Bad Request)')]
    concludeRun(results, ending(false))
    expect(setFailed).not.toHaveBeenCalled()
    expect(error).not.toHaveBeenCalled()
    const messages = warning.mock.calls.map(([message]) => message)
    expect(messages.slice(0, -1)).toEqual(['key "b" not purged: HTTP 400 (Bad Request)'])
    expect(messages.at(-1)).toContain('1 of 2 targets failed')
    expect(messages.at(-1)).toContain('fail-on-error is false')
  })

  it('fails the step when a cancel ended the run, after what went wrong', () => {
    const results = [failed('b', NOT_SENT_CANCELLED)]
    const stopped =
      'Cancelled after 0 of 1 call: the calls not answered by then are reported as failed'
    conclude(runRecord({ results, stopped }), { guard: NO_SECRETS, log, fail: setFailed })
    expect(setFailed.mock.calls.map(([message]) => message)).toEqual([
      '1 of 1 targets failed to purge: the run was cancelled; the job summary and the results output list each with its reason',
      stopped
    ])
  })

  it('names the one cause of every failure in the step’s message: a rejected token, not a count', () => {
    const stopped: Failure = {
      ...UNAUTHORIZED,
      stopped: { by: { scope: 'unauthorized' }, attempts: 0 }
    }
    const results = [
      ...Array.from({ length: 256 }, (_, index) => failed(`k${index}`, UNAUTHORIZED)),
      ...Array.from({ length: 344 }, (_, index) => failed(`n${index}`, stopped))
    ]
    concludeRun(results, ending(true))
    expect(error.mock.calls.map(([message]) => message)).toEqual([
      `600 targets not purged: ${reasonOf(UNAUTHORIZED)}; 256 refused, 344 not sent after that`
    ])
    expect(setFailed).toHaveBeenCalledWith(
      '600 of 600 targets failed to purge: the API token was rejected (401); the job summary and the results output list each with its reason'
    )
  })

  it('says how many causes there were when there were several', () => {
    concludeRun([failed('a', 'reason A'), failed('b', 'reason B'), purged('c')], ending(true))
    expect(setFailed.mock.calls[0]?.[0]).toContain(
      '2 of 3 targets failed to purge for 2 different reasons;'
    )
  })

  it('keeps annotations within GitHub’s 10 per step however many targets failed', () => {
    const results = Array.from({ length: 20_000 }, (_, index) =>
      failed(`k${index}`, `reason ${index % 50}`)
    )
    concludeRun(results, ending(true))
    expect(error.mock.calls.length + setFailed.mock.calls.length).toBeLessThanOrEqual(10)
  })
})

describe('stale URLs', () => {
  const stale = (url: string, evidence: string): EdgeCheckEntry => ({
    url,
    fresh: false,
    http_status: 200,
    age: 3600,
    checks: 3,
    evidence
  })

  it('fail the step beside failed targets, each group one annotation naming the URL and evidence', () => {
    const results = [purged('blog')]
    concludeRun(
      results,
      ending(true, [
        stale(
          'https://www.example.com/about',
          'Age 3600 s, but the purge began 3 s ago (X-Cache: HIT)'
        ),
        { ...stale('https://www.example.com/blog/1', ''), fresh: true, evidence: 'Age 0 s' }
      ])
    )
    expect(error.mock.calls.map(([message]) => message)).toEqual([
      '"https://www.example.com/about" is still stale at the edge after the purge: Age 3600 s, but the purge began 3 s ago (X-Cache: HIT)'
    ])
    expect(setFailed).toHaveBeenCalledWith(
      '1 of 2 URLs checked at the edge is still stale after the purge; the job summary and the verification output give the evidence'
    )
  })

  it('say a URL never checked is not known to be fresh, apart from the stale ones', () => {
    const results = [purged('blog')]
    const late = (url: string): EdgeCheckEntry => ({
      ...stale(url, 'not checked within verify-timeout: raise verify-timeout or concurrency'),
      http_status: null,
      age: null,
      checks: 0
    })
    concludeRun(
      results,
      ending(true, [late('https://www.example.com/a'), late('https://www.example.com/b')])
    )
    expect(error.mock.calls.map(([message]) => message)).toEqual([
      '2 URLs are not known to be fresh: not checked within verify-timeout: raise verify-timeout or concurrency'
    ])
    expect(setFailed).toHaveBeenCalledWith(
      '2 of 2 URLs to check at the edge were not checked, so they are not known to be fresh; the verification output says why'
    )
  })

  it('say a URL that could not be reached was not reached, not that it is stale', () => {
    const refused = 'connection failed (ECONNREFUSED): connect ECONNREFUSED 127.0.0.1:9'
    concludeRun(
      [purged('blog')],
      ending(true, [
        { ...stale('https://www.exmaple.com/', refused), http_status: null, age: null }
      ])
    )
    expect(error.mock.calls.map(([message]) => message)).toEqual([
      `"https://www.exmaple.com/" could not be reached at the edge, so not known to be fresh: ${refused}`
    ])
    expect(setFailed).toHaveBeenCalledWith(
      '1 of 1 URL to check at the edge could not be reached, so it is not known to be fresh; the verification output says why'
    )
  })

  it('redact what servers said before it becomes an annotation', () => {
    const results = [failed('a', 'HTTP 400 — server said: bad tok-secret here')]
    concludeRun(results, ending(true), guardAgainst(['tok-secret']))
    expect(error.mock.calls.map(([message]) => message)).toEqual([
      'key "a" not purged: HTTP 400 — server said: bad *** here'
    ])
  })
})
