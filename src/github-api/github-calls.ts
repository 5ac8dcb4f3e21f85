/**
 * The one place that bounds GitHub calls: every request of the client goes through `send`, which
 * makes at most `max-attempts` attempts, ends each at `timeout` or at the run's cancel, retries
 * server errors, dropped connections and rate limits, and waits no longer than a purge call would.
 * It knows nothing of Octokit: the attempt and the reading of its failure are handed in.
 */
import { onAbort, unlessCancelled } from '../clock.js'
import { GitHubCallError, type GitHubLimits } from '../github.js'
import { describeBlocked, type Blocked } from '../http/blocked.js'
import { withRetries, type FailedAttempt, type Tried } from '../http/retry.js'
import {
  describeWait,
  isRetryableNetworkCode,
  isRetryableStatus,
  MAX_SERVER_WAIT_MS,
  rateLimitResetMs,
  retryAfterMs
} from '../http/retry-policy.js'

/** What a failed attempt showed. */
export interface AttemptFailure {
  /** GitHub's HTTP status; `undefined` when no answer came. */
  status: number | undefined
  headers: Record<string, string | undefined>
  /** GitHub's message, or the network error's. */
  message: string
  /** The network error's code (`ECONNRESET`…) when the connection failed. */
  code: string | undefined
  /** What no later attempt would get past, when something stands in the way of them all. */
  inTheWay?: InTheWay
}

/**
 * Between the runner and GitHub's API, in the way of every attempt alike: a proxy that refuses the
 * tunnel, a certificate Node does not trust, a web page (a sign-in) where GitHub's JSON belongs.
 */
export type InTheWay =
  { kind: 'blocked'; blocked: Blocked } | { kind: 'web-page'; status: number; mediaType: string }

/** GitHub's guidance for a secondary limit that names no wait: at least a minute. */
const SECONDARY_LIMIT_WAIT_MS = 60_000

interface RateLimit {
  /** `primary`: the token's calls an hour are spent; `secondary`: too many calls at once or too fast. */
  kind: 'primary' | 'secondary'
  /** How long GitHub asks to wait; `undefined` when it does not say. */
  waitMs: number | undefined
}

/**
 * The wait a `retry-after` asks for. One of 0 (or a date gone by) asks for none, as does one that
 * cannot be read: the backoff applies then, as on the purge API, rather than a burst of retries.
 */
function askedWaitMs(headers: Record<string, string | undefined>, now: number): number | undefined {
  const waitMs = retryAfterMs(headers, now)
  return waitMs === undefined || waitMs <= 0 ? undefined : waitMs
}

/**
 * A 403 or 429 is a rate limit when GitHub says so: no calls left (`x-ratelimit-remaining: 0`), a
 * `retry-after` (whatever its value), or a message naming the secondary limit. Any other 403 is a
 * permission problem. A secondary limit that names no wait waits GitHub's minute; one whose
 * `retry-after` asks for none gets the backoff.
 */
function rateLimitOf(failure: AttemptFailure, now: number): RateLimit | undefined {
  const { status, headers, message } = failure
  if (status !== 403 && status !== 429) return undefined
  if (headers['x-ratelimit-remaining']?.trim() === '0') {
    return { kind: 'primary', waitMs: rateLimitResetMs(headers, now) }
  }
  if (headers['retry-after'] !== undefined) {
    return { kind: 'secondary', waitMs: askedWaitMs(headers, now) }
  }
  if (status === 429 || /secondary rate limit/i.test(message)) {
    return { kind: 'secondary', waitMs: SECONDARY_LIMIT_WAIT_MS }
  }
  return undefined
}

/** Why an attempt ended without an answer of its own: its deadline, or the run's cancel. */
type CutShort = 'timeout' | 'cancelled' | undefined

export class GitHubCalls {
  /** Attempts sent through this client, the run's one: a rate limit's message counts them. */
  private sent = 0

  constructor(
    private readonly limits: GitHubLimits,
    private readonly random: () => number = Math.random
  ) {}

  /**
   * Runs `attempt` until it succeeds or the bounds are reached (the one retry executor,
   * http/retry.ts); `route` names the request in the log (`GET /repos/{owner}/{repo}/deployments`).
   * Rejects with a GitHubCallError.
   */
  async send<T>(
    route: string,
    attempt: (signal: AbortSignal) => Promise<T>,
    failureOf: (error: unknown) => AttemptFailure
  ): Promise<T> {
    const { maxAttempts, clock, signal, log, timeoutMs } = this.limits
    const retried = await withRetries(() => this.once(attempt, failureOf), {
      maxAttempts,
      clock,
      signal,
      random: this.random,
      onRetry: (attempts, read, waitMs) => {
        const wait = waitMs < 1000 ? `${Math.round(waitMs)} ms` : `${Math.ceil(waitMs / 1000)} s`
        const answer = describeFailure(read.failure, read.ended, timeoutMs)
        log.info(`${route}: ${answer}; attempt ${attempts + 1} of ${maxAttempts} in ${wait}`)
      }
    })
    if (retried.ok) return retried.value
    const read = retried.failure
    if (retried.end === 'cancelled' || read === undefined) {
      throw new GitHubCallError('cancelled before GitHub answered', undefined, false)
    }
    throw this.errorOf(read, retried.end === 'too long', retried.attempts)
  }

  /** The error a GitHub call ends in after its last attempt, as `read`. */
  private errorOf(read: Read, tooLong: boolean, attempts: number): GitHubCallError {
    const { failure, ended, limit, at: now } = read
    if (failure.inTheWay !== undefined) {
      return new GitHubCallError(describeInTheWay(failure.inTheWay), undefined, false, true)
    }
    // A rate limit's own wait; otherwise the wait GitHub asked for, when it was too long to take.
    const waitMs = limit !== undefined ? limit.waitMs : tooLong ? read.waitMs : undefined
    const wait = waitMs === undefined ? '' : `; GitHub asks to wait ${describeWait(waitMs, now)}`
    const over = `, longer than the ${MAX_SERVER_WAIT_MS / 1000} s a run waits`
    const after = tooLong ? over : attempts > 1 ? ` (${attempts} attempts)` : ''
    if (limit === undefined) {
      // GitHub's own words, its status beside them: the stage says what was asked and why it matters.
      const said =
        failure.status === undefined
          ? describeFailure(failure, ended, this.limits.timeoutMs)
          : failure.message
      return new GitHubCallError(`${said}${wait}${after}`, failure.status, false)
    }
    // Which limit, when it resets, and how many calls this run made: no permission would help.
    const perHour = failure.headers['x-ratelimit-limit']
    const which =
      limit.kind === 'primary'
        ? `GitHub's primary rate limit (the token's ${perHour === undefined ? '' : `${perHour} `}calls an hour are spent)`
        : "GitHub's secondary rate limit (too many calls at once or too fast)"
    const calls = `; this run made ${this.sent} GitHub ${this.sent === 1 ? 'call' : 'calls'}`
    const said = `${which}: ${failure.status ?? ''}: ${failure.message}`
    return new GitHubCallError(`${said}${wait}${after}${calls}`, failure.status, true)
  }

  /**
   * One attempt under a signal of its own, which ends at the deadline or at the run's cancel, and
   * its failure as the executor reads it.
   */
  private async once<T>(
    attempt: (signal: AbortSignal) => Promise<T>,
    failureOf: (error: unknown) => AttemptFailure
  ): Promise<Tried<T, Read>> {
    const { clock, signal, timeoutMs } = this.limits
    this.sent += 1
    const controller = new AbortController()
    let ended: CutShort
    const stop = (why: CutShort): void => {
      ended ??= why
      controller.abort()
    }
    const stopListening = onAbort(signal, () => stop('cancelled'))
    const timer = new AbortController()
    void clock.sleep(timeoutMs, timer.signal).then(() => {
      if (!timer.signal.aborted) stop('timeout')
    })
    let error: unknown
    try {
      // The deadline holds even for an attempt that would not listen to its signal.
      const value = await unlessCancelled(attempt(controller.signal), controller.signal, () => {
        throw new Error('abandoned')
      })
      // Octokit reads a body cut short by the signal as an empty answer: the signal decides.
      if (ended === undefined) return { ok: true, value }
    } catch (thrown) {
      error = thrown
    } finally {
      timer.abort()
      stopListening()
    }
    const cancelled = ended === 'cancelled' || signal.aborted
    // A cancel's error is the abort's, not GitHub's: it is not read.
    const failure = cancelled || ended === 'timeout' ? NO_ANSWER : failureOf(error)
    return { ok: false, failure: readOf(failure, ended, clock.now()), cancelled }
  }
}

/** What a failed attempt showed, and what it means for the next. */
interface Read extends FailedAttempt {
  failure: AttemptFailure
  ended: CutShort
  limit: RateLimit | undefined
  /** When the answer came: what a wait it asks for is counted from. */
  at: number
}

/** An attempt that ended in no answer of its own: a deadline's, or a cancel's. */
const NO_ANSWER: AttemptFailure = { status: undefined, headers: {}, message: '', code: undefined }

/** A failed attempt as the executor reads it: a rate limit, the wait GitHub asks for, a retry. */
function readOf(failure: AttemptFailure, ended: CutShort, at: number): Read {
  const limit = rateLimitOf(failure, at)
  const waitMs = limit?.waitMs ?? askedWaitMs(failure.headers, at)
  return { failure, ended, limit, waitMs, at, retryable: retryable(failure, ended, limit) }
}

/**
 * Server errors, dropped connections and attempts past their deadline may pass next time.
 * Something in the way (a proxy, a certificate, a web page) ends the call at once: a proxy locks
 * an account after a few wrong logins, and a page stays a page.
 */
function retryable(
  failure: AttemptFailure,
  ended: CutShort,
  limit: RateLimit | undefined
): boolean {
  if (failure.inTheWay !== undefined) return false
  // A spent primary limit that names no reset would be spent on every attempt.
  if (limit !== undefined) return limit.kind === 'secondary' || limit.waitMs !== undefined
  if (ended === 'timeout') return true
  if (failure.status !== undefined) return isRetryableStatus(failure.status)
  return isRetryableNetworkCode(failure.code)
}

function describeFailure(failure: AttemptFailure, ended: CutShort, timeoutMs: number): string {
  if (ended === 'timeout') return `GitHub gave no answer within ${timeoutMs / 1000} s`
  if (failure.status !== undefined) return `GitHub answered ${failure.status}: ${failure.message}`
  return `GitHub could not be reached (${failure.code ?? failure.message})`
}

/** What stands in the way, and what to do about it: it replaces "GitHub could not be reached". */
function describeInTheWay(inTheWay: InTheWay): string {
  if (inTheWay.kind === 'blocked') return describeBlocked(inTheWay.blocked)
  const { status, mediaType } = inTheWay
  return `GitHub answered a web page (${status} ${mediaType}), not JSON: GITHUB_API_URL may be behind a sign-in`
}
