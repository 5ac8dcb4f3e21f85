/** Unit tests of how the step ends: grouped annotations, then failed or warned. */
import { beforeEach, describe, expect, it, jest } from '@jest/globals'
import type { StepLog } from '../src/log.js'
import type { PurgeResult } from '../src/record/index.js'
import type { EdgeCheckEntry } from '../src/capabilities/edge-check/record.js'
import { edgeCheckVerdict } from '../src/capabilities/edge-check/verdict.js'
import { conclude } from '../src/report/conclusion.js'
import { guardAgainst, type Guard } from '../src/text/guard.js'
import { shorten } from '../src/text/shown.js'
import { settingsWith } from '../tools/defaults.js'
import { runRecord } from './support/run-record.js'
import { NOT_SENT_CANCELLED, reasonOf, type Failure } from '../src/record/failure.js'
import { NO_SECRETS } from './support/guard.js'
import { staleEntry } from './support/edge-entries.js'

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
function annotationsOf(
  results: PurgeResult[],
  edgeCheck: EdgeCheckEntry[] = [],
  guard: Guard = NO_SECRETS
): string[] {
  error.mockClear()
  concludeRun(results, ending(true, edgeCheck), guard)
  return error.mock.calls.map(([message]) => message)
}

const messages = (mock: typeof error): string[] => mock.mock.calls.map(([message]) => message)

describe('the failure annotations', () => {
  it('is empty when nothing failed', () => {
    expect(annotationsOf([purged('a'), purged('b')])).toEqual([])
  })

  it('names a lone failure with its type, target and reason', () => {
    const lines = annotationsOf([
      purged('a'),
      failed('https://www.example.com/x', 'HTTP 404 (Not Found)', 'url')
    ])
    expect(lines).toEqual(['url "https://www.example.com/x" not purged: HTTP 404 (Not Found)'])
  })

  it('groups identical errors into one line with the count: a bad token is one annotation', () => {
    const results = Array.from({ length: 600 }, (_, index) => failed(`k${index}`, UNAUTHORIZED))
    expect(annotationsOf(results)).toEqual([`600 targets not purged: ${reasonOf(UNAUTHORIZED)}`])
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
    expect(lines.map((line) => /reason [ABC]$/.exec(line)?.[0])).toEqual([
      'reason B',
      'reason C',
      'reason A'
    ])
    expect(lines.map((line) => line.split(' ')[0])).toEqual(['3', '2', 'key'])
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
    expect(lines.map((line) => line.split(' ')[1])).toEqual(
      results.map(({ target }) => `"${target}"`)
    )
  })

  it('keeps a target and a server message on one line that cannot speak to the runner', () => {
    const target = 'k\n::add-mask::x\u202e'
    const reason = `HTTP 400: bad\r\n##[set-output name=x]1 ${'z'.repeat(1000)}`
    const [lone = ''] = annotationsOf([failed(target, reason)])
    const [grouped = ''] = annotationsOf([failed('a', reason), failed('b', reason)])
    for (const line of [lone, grouped]) {
      expect(line.split(/[\r\n\u202e]/)).toHaveLength(1)
      expect(line).not.toContain('##[')
      // The line break shows, as text.
      expect(line).toContain('\\r\\n')
      expect(line.length).toBeLessThan(500)
    }
    expect(lone).toContain(shorten(NO_SECRETS, target))
  })

  it('shortens a long target in its line', () => {
    const key = 'k'.repeat(1024)
    const [line] = annotationsOf([failed(key, 'HTTP 400 (Bad Request)')])
    expect(line).not.toContain(key)
    expect(line).toContain(shorten(NO_SECRETS, key))
  })

  it('hides the run’s secrets in what servers said', () => {
    const guard = guardAgainst(['tok-secret'])
    const lines = annotationsOf(
      [failed('a', 'HTTP 400 — server said: bad tok-secret here')],
      [],
      guard
    )
    expect(lines).toHaveLength(1)
    expect(lines[0]).not.toContain('tok-secret')
    expect(lines[0]).toContain('***')
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
    expect(messages(error).map((line) => line.split(' ')[1])).toEqual(['"b"', '"c"'])
    expect(setFailed).toHaveBeenCalledTimes(1)
    expect(warning).not.toHaveBeenCalled()
  })

  it('without fail-on-error, warns the same annotations and message instead, and the step passes', () => {
    const results = [purged('a'), failed('b', 'HTTP 400 (Bad Request)')]
    concludeRun(results, ending(true))
    const annotations = messages(error)
    const [failure] = messages(setFailed)
    error.mockReset()
    setFailed.mockReset()
    concludeRun(results, ending(false))
    expect(setFailed).not.toHaveBeenCalled()
    expect(error).not.toHaveBeenCalled()
    expect(messages(warning)).toEqual([
      ...annotations,
      `${failure} (fail-on-error is false, so the step passes)`
    ])
  })

  it('fails the step when a cancel ended the run, after what went wrong', () => {
    const results = [failed('b', NOT_SENT_CANCELLED)]
    const stopped =
      'Cancelled after 0 of 1 call: the calls not answered by then are reported as failed'
    conclude(runRecord({ results, stopped }), { guard: NO_SECRETS, log, fail: setFailed })
    const failures = messages(setFailed)
    expect(failures).toHaveLength(2)
    expect(failures[0]).not.toBe(stopped)
    expect(failures[1]).toBe(stopped)
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
    expect(error).toHaveBeenCalledTimes(1)
    expect(setFailed).toHaveBeenCalledWith(
      '600 of 600 targets failed to purge: the API token was rejected (401); the job summary and the results output list each with its reason'
    )
  })

  it('counts the causes when there were several, and names none', () => {
    concludeRun([failed('a', 'reason A'), failed('b', 'reason B'), purged('c')], ending(true))
    const [message = ''] = messages(setFailed)
    // 2 of 3 targets, for 2 reasons.
    expect(message.match(/\d+/g)).toEqual(['2', '3', '2'])
    expect(message).not.toContain('reason A')
    expect(message).not.toContain('reason B')
  })

  it('keeps annotations within GitHub’s 10 per step however many targets failed', () => {
    const results = Array.from({ length: 20_000 }, (_, index) =>
      failed(`k${index}`, `reason ${index % 50}`)
    )
    concludeRun(results, ending(true))
    expect(error.mock.calls.length + setFailed.mock.calls.length).toBeLessThanOrEqual(10)
  })
})

describe('with pages not fresh at the edge', () => {
  const stale = (url: string, evidence = 'Age 3600 s'): EdgeCheckEntry => staleEntry(url, evidence)

  it('fails the step for them too: the targets’ annotations first, then the pages’, in one message', () => {
    const entries = [
      stale('https://www.example.com/about'),
      { ...stale('https://www.example.com/blog/1'), fresh: true, age: 0 }
    ]
    concludeRun([purged('a'), failed('b', 'HTTP 400 (Bad Request)')], ending(true, entries))
    const lines = messages(error)
    expect(lines).toHaveLength(2)
    expect(lines[0]?.startsWith('key "b" ')).toBe(true)
    expect(lines[1]?.startsWith('"https://www.example.com/about" ')).toBe(true)
    const [problem] = edgeCheckVerdict(entries, NO_SECRETS).problems ?? []
    const [message = ''] = messages(setFailed)
    expect(setFailed).toHaveBeenCalledTimes(1)
    expect(message.endsWith(`. ${problem}`)).toBe(true)
  })

  it('fails the step when a page is the only problem, with the page’s own message', () => {
    const entries = [stale('https://www.example.com/about')]
    concludeRun([purged('blog')], ending(true, entries))
    expect(setFailed).toHaveBeenCalledTimes(1)
    const [problem = ''] = edgeCheckVerdict(entries, NO_SECRETS).problems ?? []
    expect(setFailed).toHaveBeenCalledWith(problem)
  })

  it('counts the pages’ annotations within the cap of 5, after the targets’', () => {
    const entries = ['a', 'b', 'c'].map((path) =>
      stale(`https://www.example.com/${path}`, `Age ${path.charCodeAt(0)} s`)
    )
    const targets = Array.from({ length: 4 }, (_, index) => failed(`k${index}`, `reason ${index}`))
    const lines = annotationsOf(targets, entries)
    expect(lines).toHaveLength(6)
    expect(lines[4]?.startsWith('"https://www.example.com/a" ')).toBe(true)
    expect(lines.at(-1)?.match(/\d+/)?.[0]).toBe('2')
  })
})
