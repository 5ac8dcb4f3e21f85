/**
 * The one retry executor, for purge calls and GitHub calls alike: it makes attempts until one
 * succeeds, one fails for good, the attempts run out, the server asks for a wait longer than a run
 * takes, an earlier answer stops the call, or the run is cancelled. Between attempts it waits the
 * longer of the server's wait and the backoff, so a `Retry-After: 0` is never a burst. Each caller
 * hands in what differs: the attempt and how its failure reads (retryable, the server's wait), what
 * may stop or hold an attempt, and how a retry is logged.
 */
import type { Clock } from '../clock.js'
import { backoffMs, MAX_SERVER_WAIT_MS, waitUntil } from './retry-policy.js'

/** What the executor reads of a failed attempt: each caller's failure holds it beside its own. */
export interface FailedAttempt {
  retryable: boolean
  /** How long the server asked to wait before the next attempt, if it did. */
  waitMs: number | undefined
}

/** How one attempt ended, as its caller reads it; `cancelled` when the run's cancel ended it. */
export type Tried<T, F extends FailedAttempt> =
  { ok: true; value: T } | { ok: false; failure: F; cancelled: boolean }

/** Why no attempt was made after the last one. */
export type RetryEnd =
  /** The failure was final: a refusal, something in the way. */
  | 'final'
  /** Every attempt failed. */
  | 'gave up'
  /** The server asked for a wait longer than `MAX_SERVER_WAIT_MS`. */
  | 'too long'
  | 'cancelled'

/** How the attempts ended without a value: the last failure, and why it was the last. */
interface Ended<F> {
  ok: false
  attempts: number
  end: RetryEnd
  /** The last attempt's failure; none when no attempt was made before a cancel. */
  failure: F | undefined
  /** With `too long`: when the server said the next attempt may go (ms epoch), if a date holds it. */
  retryAt: number | undefined
}

/** How the attempts ended: the value, the last failure and why it was the last, or what stopped them. */
export type Retried<T, F, S> =
  | { ok: true; value: T; attempts: number }
  | Ended<F>
  | { ok: false; attempts: number; end: 'stopped'; stopped: S; failure: F | undefined }

/** What may come between two attempts: an earlier answer that stops them, or a wait it asks for. */
type Gate<S> = { stop: S } | { pauseMs: number } | undefined

interface Retries<F, S> {
  maxAttempts: number
  clock: Clock
  /** The run's cancel: no attempt starts after it, and a wait between attempts ends. */
  signal: AbortSignal
  /** Jitter for backoff; tests fix it. */
  random?: (() => number) | undefined
  /** Asked before each attempt. */
  gate?: () => Gate<S>
  /** Told of each retry before its wait: the attempt that failed, how, and the wait. */
  onRetry(attempt: number, failure: F, waitMs: number): void
}

/** Makes attempts of `attempt` (told its number, from 1) as `retries` says. */
export async function withRetries<T, F extends FailedAttempt, S = never>(
  attempt: (number: number) => Promise<Tried<T, F>>,
  retries: Retries<F, S>
): Promise<Retried<T, F, S>> {
  const { maxAttempts, clock, signal, gate, onRetry } = retries
  let last: F | undefined
  const ended = (attempts: number, end: RetryEnd, retryAt?: number): Ended<F> => ({
    ok: false,
    attempts,
    end,
    failure: last,
    retryAt
  })
  for (let attempts = 0; ;) {
    if (signal.aborted) return ended(attempts, 'cancelled')
    const held = gate?.()
    if (held !== undefined && 'stop' in held) {
      return { ok: false, attempts, end: 'stopped', stopped: held.stop, failure: last }
    }
    if (held !== undefined && held.pauseMs > 0) {
      await clock.sleep(held.pauseMs, signal)
      continue
    }
    attempts += 1
    const tried = await attempt(attempts)
    if (tried.ok) return { ok: true, value: tried.value, attempts }
    last = tried.failure
    if (tried.cancelled) return ended(attempts, 'cancelled')
    if (!last.retryable) return ended(attempts, 'final')
    const { waitMs } = last
    if (waitMs !== undefined && waitMs > MAX_SERVER_WAIT_MS) {
      return ended(attempts, 'too long', waitUntil(waitMs, clock.now()))
    }
    if (attempts >= maxAttempts) return ended(attempts, 'gave up')
    const pauseMs = Math.max(waitMs ?? 0, backoffMs(attempts, retries.random))
    onRetry(attempts, last, pauseMs)
    await clock.sleep(pauseMs, signal)
  }
}
