/**
 * Unit tests of GitHubCalls, the one place that bounds every GitHub call: how many attempts, how
 * long each may take, which failures are retried and after what wait, when the run's cancel ends it
 * all, and that a rate limit is told as one. On virtual time, with a scripted attempt.
 */
import { describe, expect, it } from '@jest/globals'
import { GitHubCalls, type AttemptFailure, type InTheWay } from '../src/github-api/github-calls.js'
import {
  GitHubCallError,
  isInTheWay,
  isRateLimited,
  statusOf,
  type GitHubLimits
} from '../src/github.js'
import { describeBlocked, type Blocked } from '../src/http/blocked.js'
import { MAX_SERVER_WAIT_MS } from '../src/http/retry-policy.js'
import type { Clock } from '../src/clock.js'
import { FakeClock } from '../tools/fake-clock.js'
import { recordedLog } from './support/recorded-log.js'
import { NO_SECRETS } from './support/guard.js'

const ROUTE = 'GET /repos/{owner}/{repo}/deployments'

/** What the script throws for a failed attempt: what GitHub, or the network, answered. */
class Scripted extends Error {
  constructor(readonly failure: AttemptFailure) {
    super(failure.message)
  }
}

function answered(status: number, message: string, headers: Record<string, string> = {}): Scripted {
  return new Scripted({ status, headers, message, code: undefined })
}

function unreachable(code: string): Scripted {
  return new Scripted({ status: undefined, headers: {}, message: `request failed: ${code}`, code })
}

/** A failure no attempt gets past, as failureOf reads it (github-failure.test.ts reads the chains). */
function inTheWay(what: InTheWay, code?: string): Scripted {
  return new Scripted({ status: undefined, headers: {}, message: 'aborted', code, inTheWay: what })
}

/** Reads the script's failures; anything else reaching it is a fault of the code under test. */
function failureOf(error: unknown): AttemptFailure {
  if (error instanceof Scripted) return error.failure
  throw new Error(`failureOf was handed something no attempt threw: ${String(error)}`)
}

type Step<T> = (signal: AbortSignal) => Promise<T>

const ok =
  <T>(value: T): Step<T> =>
  async () =>
    value

const fail =
  (failure: Scripted): Step<never> =>
  async () => {
    throw failure
  }

/** An attempt GitHub never answers: like fetch, it rejects when its signal aborts. */
const hang: Step<never> = (signal) =>
  new Promise((_resolve, reject) => {
    signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')), {
      once: true
    })
  })

/** Octokit reads a body cut short by the signal as an empty answer: it resolves on abort. */
const emptyOnAbort: Step<string> = (signal) =>
  new Promise((resolve) => {
    signal.addEventListener('abort', () => resolve(''), { once: true })
  })

/** An attempt that plays `steps` in turn, its last step again and again; keeps each signal. */
function script<T>(...steps: Step<T>[]): {
  attempt: (signal: AbortSignal) => Promise<T>
  signals: AbortSignal[]
  abortedAtStart: boolean[]
} {
  const signals: AbortSignal[] = []
  const abortedAtStart: boolean[] = []
  const attempt = (signal: AbortSignal): Promise<T> => {
    signals.push(signal)
    abortedAtStart.push(signal.aborted)
    const step = steps[Math.min(signals.length, steps.length) - 1]
    if (step === undefined) throw new Error('a script needs a step')
    return step(signal)
  }
  return { attempt, signals, abortedAtStart }
}

interface Setup {
  maxAttempts?: number
  timeoutMs?: number
  random?: () => number
  /** Cancels the run as soon as a wait between attempts has begun. */
  cancelDuringWait?: boolean
}

function setup({
  maxAttempts = 3,
  timeoutMs = 10_000,
  random = () => 0.5,
  cancelDuringWait = false
}: Setup = {}) {
  const fake = new FakeClock()
  const start = fake.now()
  const run = new AbortController()
  /** The waits between attempts: sleeps under the run's signal (each deadline is a sleep too). */
  const waits: number[] = []
  const clock: Clock = {
    now: () => fake.now(),
    sleep: (ms, signal) => {
      if (signal !== run.signal) return fake.sleep(ms, signal)
      waits.push(ms)
      const slept = fake.sleep(ms, signal)
      if (cancelDuringWait) run.abort()
      return slept
    }
  }
  const log = recordedLog()
  const limits: GitHubLimits = {
    guard: NO_SECRETS,
    maxAttempts,
    timeoutMs,
    clock,
    signal: run.signal,
    log
  }
  const calls = new GitHubCalls(limits, random)
  const send = <T>(attempt: (signal: AbortSignal) => Promise<T>): Promise<T> =>
    calls.send(ROUTE, attempt, failureOf)
  return { fake, start, run, waits, log, send, elapsed: () => fake.now() - start }
}

async function rejection(promise: Promise<unknown>): Promise<GitHubCallError> {
  const error = await promise.then(
    () => new Error('resolved, where it should have failed'),
    (reason: unknown) => reason
  )
  expect(error).toBeInstanceOf(GitHubCallError)
  return error as GitHubCallError
}

/** The reset header's value: UTC epoch seconds `ms` from now. */
const resetIn = (now: number, ms: number): string => String(Math.floor((now + ms) / 1000))

describe('GitHubCalls: server errors', () => {
  it('retries a 502 and resolves with the answer that follows, saying it retries', async () => {
    const { send, waits, log } = setup({ maxAttempts: 3 })
    const { attempt, signals } = script(fail(answered(502, 'Bad Gateway')), ok('deployments'))

    await expect(send(attempt)).resolves.toBe('deployments')

    expect(signals).toHaveLength(2)
    expect(waits).toEqual([750])
    expect(log.lines).toHaveLength(1)
    expect(log.lines[0]).toContain(ROUTE)
    expect(log.lines[0]).toContain('502')
  })

  it.each([500, 502, 503, 504])(
    'gives up on a %i after max-attempts attempts, with GitHub’s message and the count',
    async (status) => {
      const { send, waits, log } = setup({ maxAttempts: 4 })
      const { attempt, signals } = script(fail(answered(status, 'Server Error')))

      const error = await rejection(send(attempt))

      expect(signals).toHaveLength(4)
      expect(waits).toHaveLength(3)
      expect(log.lines.map((line) => /attempt (\d) of 4/.exec(line)?.[1])).toEqual(['2', '3', '4'])
      expect(error.status).toBe(status)
      expect(statusOf(error)).toBe(status)
      expect(error.message).toBe('Server Error (4 attempts)')
      expect(isRateLimited(error)).toBe(false)
    }
  )

  it('makes one attempt only when max-attempts is 1, and does not count it in the message', async () => {
    const { send, waits } = setup({ maxAttempts: 1 })
    const { attempt, signals } = script(fail(answered(503, 'Service Unavailable')))

    const error = await rejection(send(attempt))

    expect(signals).toHaveLength(1)
    expect(waits).toEqual([])
    expect(error.status).toBe(503)
    expect(error.message).not.toContain('attempts')
  })

  it('gives each attempt a fresh signal, not yet aborted, and leaves it alone on success', async () => {
    const { send, elapsed } = setup()
    const { attempt, signals, abortedAtStart } = script(
      fail(answered(500, 'Internal Server Error')),
      ok(1)
    )

    await expect(send(attempt)).resolves.toBe(1)

    expect(new Set(signals).size).toBe(2)
    expect(abortedAtStart).toEqual([false, false])
    expect(signals[1]?.aborted).toBe(false)
    // Only the backoff passed: a settled attempt's deadline never fires.
    expect(elapsed()).toBe(750)
  })
})

describe('GitHubCalls: answers no retry can change', () => {
  it.each([
    [404, 'Not Found'],
    [401, 'Bad credentials'],
    [403, 'Resource not accessible by integration'],
    [422, 'Validation Failed'],
    [400, 'Bad Request']
  ])('does not retry a %i', async (status, message) => {
    const { send, waits, log } = setup({ maxAttempts: 5 })
    const { attempt, signals } = script(fail(answered(status, message)), ok('never reached'))

    const error = await rejection(send(attempt))

    expect(signals).toHaveLength(1)
    expect(waits).toEqual([])
    expect(log.lines).toEqual([])
    expect(error.status).toBe(status)
    expect(error.message).toContain(message)
    expect(error.message).not.toContain('attempts')
  })

  it('does not take a plain 403 for a rate limit: it is a missing permission', async () => {
    const { send } = setup()
    const headers = { 'x-ratelimit-remaining': '4999', 'x-ratelimit-limit': '5000' }
    const { attempt } = script(
      fail(answered(403, 'Resource not accessible by integration', headers))
    )

    const error = await rejection(send(attempt))

    expect(isRateLimited(error)).toBe(false)
    expect(error.status).toBe(403)
    expect(error.message).toBe('Resource not accessible by integration')
  })
})

describe('GitHubCalls: secondary rate limits', () => {
  it('waits the retry-after GitHub names on a 403, then retries', async () => {
    const { send, waits, log } = setup()
    const limited = answered(403, 'You have exceeded a secondary rate limit', {
      'retry-after': '1'
    })
    const { attempt, signals } = script(fail(limited), ok('answer'))

    await expect(send(attempt)).resolves.toBe('answer')

    expect(signals).toHaveLength(2)
    expect(waits).toEqual([1000])
    expect(log.lines[0]).toContain('attempt 2 of 3 in 1 s')
  })

  it('waits a minute on a 403 that names the secondary limit but no wait', async () => {
    const { send, waits, log, elapsed } = setup()
    const limited = answered(403, 'You have exceeded a secondary rate limit. Please wait.')
    const { attempt, signals } = script(fail(limited), ok('answer'))

    await expect(send(attempt)).resolves.toBe('answer')

    expect(signals).toHaveLength(2)
    expect(waits).toEqual([60_000])
    expect(elapsed()).toBe(60_000)
    expect(log.lines[0]).toContain('in 60 s')
  })

  it('takes a 429 without headers for a rate limit: waits a minute and retries', async () => {
    const { send, waits } = setup()
    const { attempt, signals } = script(fail(answered(429, 'Too Many Requests')), ok('answer'))

    await expect(send(attempt)).resolves.toBe('answer')

    expect(signals).toHaveLength(2)
    expect(waits).toEqual([60_000])
  })

  it('tells a 429 that outlasts the attempts as a rate limit', async () => {
    const { send, waits } = setup({ maxAttempts: 2 })
    const { attempt, signals } = script(fail(answered(429, 'Too Many Requests')))

    const error = await rejection(send(attempt))

    expect(signals).toHaveLength(2)
    expect(waits).toEqual([60_000])
    expect(isRateLimited(error)).toBe(true)
    expect(error.status).toBe(429)
  })
})

describe('GitHubCalls: the primary rate limit', () => {
  it('fails at once, without a wait, when the limit resets later than a run waits', async () => {
    const { send, waits, fake, start, elapsed } = setup()
    await expect(send(script(ok('a')).attempt)).resolves.toBe('a')
    await expect(send(script(ok('b')).attempt)).resolves.toBe('b')
    const headers = {
      'x-ratelimit-remaining': '0',
      'x-ratelimit-limit': '1000',
      'x-ratelimit-reset': resetIn(fake.now(), 3_600_000)
    }
    const { attempt, signals } = script(fail(answered(403, 'API rate limit exceeded', headers)))

    const error = await rejection(send(attempt))

    expect(signals).toHaveLength(1)
    expect(waits).toEqual([])
    expect(elapsed()).toBe(0)
    expect(isRateLimited(error)).toBe(true)
    expect(error.status).toBe(403)
    // The one test of the rate limit's whole sentence: which limit, its reset, the calls made.
    expect(error.message).toBe(
      "GitHub's primary rate limit (the token's 1000 calls an hour are spent): 403: API rate limit exceeded" +
        `; GitHub asks to wait until ${new Date(start + 3_600_000).toISOString()} (3600 s)` +
        `, longer than the ${MAX_SERVER_WAIT_MS / 1000} s a run waits; this run made 3 GitHub calls`
    )
  })

  it('counts every attempt of the run, retries included, in "this run made"', async () => {
    const { send, fake } = setup({ maxAttempts: 3 })
    await send(script(fail(answered(502, 'Bad Gateway')), ok('after a retry')).attempt)
    const headers = {
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': resetIn(fake.now(), 3_600_000)
    }

    const error = await rejection(
      send(script(fail(answered(429, 'API rate limit exceeded', headers))).attempt)
    )

    expect(error.message).toMatch(/ made 3 GitHub calls$/)
  })

  it('says "1 GitHub call" when the limited call was the run’s first', async () => {
    const { send, fake } = setup()
    const headers = {
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': resetIn(fake.now(), 3_600_000)
    }

    const error = await rejection(
      send(script(fail(answered(403, 'API rate limit exceeded', headers))).attempt)
    )

    expect(error.message).toMatch(/ made 1 GitHub call$/)
  })

  it('waits out a primary limit that resets within 30 s, then retries', async () => {
    const { send, waits, fake } = setup()
    const headers = {
      'x-ratelimit-remaining': '0',
      'x-ratelimit-limit': '1000',
      'x-ratelimit-reset': resetIn(fake.now(), 30_000)
    }
    const { attempt, signals } = script(
      fail(answered(403, 'API rate limit exceeded', headers)),
      ok('answer')
    )

    await expect(send(attempt)).resolves.toBe('answer')

    expect(signals).toHaveLength(2)
    expect(waits).toEqual([30_000])
  })
})

describe('GitHubCalls: waits are capped', () => {
  it('fails at once, naming the wait, when retry-after asks for longer than a run waits', async () => {
    const { send, waits, start, elapsed } = setup()
    const limited = answered(403, 'You have exceeded a secondary rate limit', {
      'retry-after': '300'
    })
    const { attempt, signals } = script(fail(limited), ok('never reached'))

    const error = await rejection(send(attempt))

    expect(signals).toHaveLength(1)
    expect(waits).toEqual([])
    expect(elapsed()).toBe(0)
    expect(isRateLimited(error)).toBe(true)
    expect(error.message).toContain(new Date(start + 300_000).toISOString())
  })

  it('waits a retry-after of exactly the cap, and fails on one second more', async () => {
    const atCap = setup()
    const asked = (seconds: number): Scripted =>
      answered(429, 'Too Many Requests', { 'retry-after': String(seconds) })
    await expect(atCap.send(script(fail(asked(120)), ok('answer')).attempt)).resolves.toBe('answer')
    expect(atCap.waits).toEqual([MAX_SERVER_WAIT_MS])

    const overCap = setup()
    const overCall = script(fail(asked(121)), ok('never reached'))
    const error = await rejection(overCap.send(overCall.attempt))
    expect(overCall.signals).toHaveLength(1)
    expect(overCap.waits).toEqual([])
    expect(error.message).toContain('121 s')
  })

  it('keeps every backoff between 503s within its cap, however many attempts', async () => {
    const { send, waits } = setup({ maxAttempts: 20, random: () => 0.999 })
    const { attempt, signals } = script(fail(answered(503, 'Service Unavailable')))

    const error = await rejection(send(attempt))

    expect(signals).toHaveLength(20)
    expect(waits).toHaveLength(19)
    for (const wait of waits) {
      expect(wait).toBeGreaterThan(0)
      expect(wait).toBeLessThanOrEqual(20_000)
      expect(wait).toBeLessThanOrEqual(MAX_SERVER_WAIT_MS)
    }
    // It grows, then holds at the cap.
    expect(waits[0]).toBeLessThan(1000)
    expect(waits.at(-1)).toBeGreaterThan(19_000)
    expect(error.status).toBe(503)
  })
})

describe('GitHubCalls: a retry-after that asks for no wait', () => {
  it.each([
    ['0', 503, 'Service Unavailable'],
    ['0', 429, 'Too Many Requests'],
    ['0', 403, 'You have exceeded a secondary rate limit'],
    ['-1', 502, 'Bad Gateway'],
    ['Thu, 01 Jan 1970 00:00:00 GMT', 429, 'Too Many Requests']
  ])(
    'spaces the retries of retry-after: %s on a %i by the backoff',
    async (value, status, message) => {
      const { send, waits, log, elapsed } = setup({ maxAttempts: 4 })
      const asked = answered(status, message, { 'retry-after': value })
      const { attempt, signals } = script(fail(asked), fail(asked), fail(asked), ok('answer'))

      await expect(send(attempt)).resolves.toBe('answer')

      expect(signals).toHaveLength(4)
      // The backoff after 1, 2 and 3 attempts at its middle (random 0.5): not a burst.
      expect(waits).toEqual([750, 1500, 3000])
      expect(elapsed()).toBe(750 + 1500 + 3000)
      expect(log.lines.map((line) => / in (\S+ m?s)$/.exec(line)?.[1])).toEqual([
        '750 ms',
        '2 s',
        '3 s'
      ])
    }
  )

  it('still takes a 403 with retry-after: 0 for a rate limit, not a missing permission', async () => {
    const { send } = setup({ maxAttempts: 2 })
    const limited = answered(403, 'Forbidden', { 'retry-after': '0' })

    const error = await rejection(send(script(fail(limited)).attempt))

    expect(isRateLimited(error)).toBe(true)
    // The secondary limit's sentence, with no wait named: GitHub asked for none.
    expect(error.message).toBe(
      "GitHub's secondary rate limit (too many calls at once or too fast): 403: Forbidden (2 attempts); this run made 2 GitHub calls"
    )
  })
})

describe('GitHubCalls: something in the way of every attempt', () => {
  const proxy: Blocked = {
    kind: 'proxy',
    status: 407,
    proxy: 'proxy.corp:3128',
    target: 'ghe.corp:443'
  }
  const certificate: Blocked = {
    kind: 'certificate',
    code: 'SELF_SIGNED_CERT_IN_CHAIN',
    host: 'ghe.corp'
  }

  it.each([
    ['a proxy’s refusal', proxy, 'UND_ERR_ABORTED'],
    ['an untrusted certificate', certificate, 'SELF_SIGNED_CERT_IN_CHAIN']
  ])('ends the call at once on %s, naming it and its fix', async (_what, blocked, code) => {
    const { send, waits, log } = setup({ maxAttempts: 5 })
    const { attempt, signals } = script(fail(inTheWay({ kind: 'blocked', blocked }, code)))

    const error = await rejection(send(attempt))

    expect(signals).toHaveLength(1)
    expect(waits).toEqual([])
    expect(log.lines).toEqual([])
    expect(error.message).toBe(describeBlocked(blocked))
    expect(error.status).toBeUndefined()
    expect(isInTheWay(error)).toBe(true)
    expect(isRateLimited(error)).toBe(false)
  })

  it('ends the call at once on a web page where JSON belongs', async () => {
    const { send, waits } = setup({ maxAttempts: 5 })
    const page = inTheWay({ kind: 'web-page', status: 200, mediaType: 'text/html' })
    const { attempt, signals } = script(fail(page))

    const error = await rejection(send(attempt))

    expect(signals).toHaveLength(1)
    expect(waits).toEqual([])
    expect(error.message).toBe(
      'GitHub answered a web page (200 text/html), not JSON: GITHUB_API_URL may be behind a sign-in'
    )
    expect(statusOf(error)).toBeUndefined()
    expect(isInTheWay(error)).toBe(true)
  })

  it('says cancelled when the run was cancelled, whatever the attempt threw', async () => {
    const { send, run } = setup({ maxAttempts: 5 })
    const { attempt } = script<never>(() => {
      run.abort()
      return Promise.reject(inTheWay({ kind: 'blocked', blocked: proxy }, 'UND_ERR_ABORTED'))
    })

    const error = await rejection(send(attempt))

    expect(error.message).toBe('cancelled before GitHub answered')
    expect(isInTheWay(error)).toBe(false)
  })

  it('tells a failure a re-run can pass apart from one in the way', async () => {
    const { send } = setup({ maxAttempts: 1 })
    const error = await rejection(send(script(fail(unreachable('ECONNRESET'))).attempt))
    expect(isInTheWay(error)).toBe(false)
  })
})

describe('GitHubCalls: the deadline of each attempt', () => {
  it('ends an attempt GitHub never answers at timeout, and retries it up to max-attempts', async () => {
    const { send, waits, fake, elapsed, log } = setup({ maxAttempts: 2, timeoutMs: 30_000 })
    const { attempt, signals } = script(hang)

    const error = await rejection(send(attempt))

    expect(signals).toHaveLength(2)
    expect(signals.every((signal) => signal.aborted)).toBe(true)
    expect(waits).toEqual([750])
    expect(fake.sleeps.filter((ms) => ms === 30_000)).toHaveLength(2)
    expect(elapsed()).toBe(30_000 + 750 + 30_000)
    expect(error.status).toBeUndefined()
    expect(statusOf(error)).toBeUndefined()
    expect(isRateLimited(error)).toBe(false)
    expect(error.message).toBe('GitHub gave no answer within 30 s (2 attempts)')
    expect(log.lines).toHaveLength(1)
  })

  it('takes an answer that comes after its signal aborted for a timeout, not a success', async () => {
    const { send, elapsed } = setup({ maxAttempts: 2, timeoutMs: 30_000 })
    const { attempt, signals } = script(emptyOnAbort, ok('whole answer'))

    await expect(send(attempt)).resolves.toBe('whole answer')

    expect(signals).toHaveLength(2)
    expect(signals[0]?.aborted).toBe(true)
    expect(elapsed()).toBe(30_000 + 750)
  })

  it('fails with the timeout when the last attempt resolves only after its deadline', async () => {
    const { send, elapsed } = setup({ maxAttempts: 1, timeoutMs: 5_000 })
    const { attempt, signals } = script(emptyOnAbort)

    const error = await rejection(send(attempt))

    expect(signals[0]?.aborted).toBe(true)
    expect(elapsed()).toBe(5_000)
    expect(error.status).toBeUndefined()
    expect(isInTheWay(error)).toBe(false)
  })

  it('ends at the deadline an attempt that does not listen to its signal', async () => {
    const { send, elapsed } = setup({ maxAttempts: 1, timeoutMs: 5_000 })
    const { attempt } = script<never>(() => new Promise(() => undefined))

    const error = await rejection(send(attempt))

    expect(error.status).toBeUndefined()
    expect(elapsed()).toBe(5_000)
  })
})

describe('GitHubCalls: network errors', () => {
  it.each(['ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT', 'EAI_AGAIN'])(
    'retries a connection that failed with %s',
    async (code) => {
      const { send, waits, log } = setup()
      const { attempt, signals } = script(fail(unreachable(code)), ok('answer'))

      await expect(send(attempt)).resolves.toBe('answer')

      expect(signals).toHaveLength(2)
      expect(waits).toEqual([750])
      expect(log.lines[0]).toContain(code)
    }
  )

  it('does not retry ENOTFOUND: no such host will not appear on the next attempt', async () => {
    const { send, waits } = setup({ maxAttempts: 5 })
    const { attempt, signals } = script(fail(unreachable('ENOTFOUND')), ok('never reached'))

    const error = await rejection(send(attempt))

    expect(signals).toHaveLength(1)
    expect(waits).toEqual([])
    expect(error.status).toBeUndefined()
    expect(error.message).toBe('GitHub could not be reached (ENOTFOUND)')
    expect(isRateLimited(error)).toBe(false)
  })

  it('tries max-attempts times when the connection keeps failing', async () => {
    const { send } = setup({ maxAttempts: 3 })
    const { attempt, signals } = script(fail(unreachable('ECONNRESET')))

    const error = await rejection(send(attempt))

    expect(signals).toHaveLength(3)
    expect(error.status).toBeUndefined()
    expect(error.message).toContain('ECONNRESET')
  })
})

describe('GitHubCalls: the run’s cancel', () => {
  it('aborts the attempt in flight and fails at once, with no further attempt', async () => {
    const { send, run, waits, elapsed } = setup({ maxAttempts: 5, timeoutMs: 30_000 })
    const { attempt, signals } = script(hang)

    const sent = send(attempt)
    expect(signals).toHaveLength(1)
    run.abort()
    const error = await rejection(sent)

    expect(signals[0]?.aborted).toBe(true)
    expect(signals).toHaveLength(1)
    expect(waits).toEqual([])
    expect(elapsed()).toBe(0)
    expect(error.status).toBeUndefined()
    expect(error.message).toContain('cancelled')
  })

  it('ends a wait between attempts and makes no further attempt', async () => {
    const { send, waits, elapsed } = setup({ cancelDuringWait: true })
    const limited = answered(403, 'You have exceeded a secondary rate limit')
    const { attempt, signals } = script(fail(limited), ok('never reached'))

    const error = await rejection(send(attempt))

    expect(signals).toHaveLength(1)
    expect(waits).toEqual([60_000])
    expect(elapsed()).toBe(0)
    expect(error.message).toContain('cancelled')
    expect(isRateLimited(error)).toBe(false)
  })

  it('makes no attempt on a run already cancelled', async () => {
    const { send, run } = setup()
    run.abort()
    const { attempt, signals } = script(ok('never reached'))

    const error = await rejection(send(attempt))

    expect(signals).toHaveLength(0)
    expect(error.message).toContain('cancelled')
  })
})
