/** What the wait for the origin and the edge check share: how a page is fetched, timed and abandoned. */
import type { Clock } from '../clock.js'
import type { StepLog } from '../log.js'
import type { Answer } from './agents.js'
import type { PageReading, Prober } from './probe.js'
import { messageOf } from '../text/message.js'

/** What a stage that fetches pages is handed. */
export interface PageCheckDeps {
  prober: Prober
  clock: Clock
  /** Aborted when the run is cancelled: the stage returns at once. */
  signal: AbortSignal
  log: StepLog
}

/** The user's `timeout` and `concurrency`, which every fetch of a page obeys. */
export interface RequestLimits {
  requestTimeoutMs: number
  concurrency: number
}

/** A request cut to the time left still gets this long: a check with no time to answer proves nothing. */
const MIN_REQUEST_TIMEOUT_MS = 1000

/**
 * A check's timeout when it must end by `deadline`: the time left, but at least
 * `MIN_REQUEST_TIMEOUT_MS`, and never more than the request `timeout` the user set.
 */
export function timeoutBefore(deadline: number, now: number, requestTimeoutMs: number): number {
  return Math.min(requestTimeoutMs, Math.max(MIN_REQUEST_TIMEOUT_MS, deadline - now))
}

/** A throw from the prober (a bug) fails that check only, as the engine does for a call. */
export async function safeGet(
  prober: Prober,
  url: string,
  options: Parameters<Prober['get']>[1]
): Promise<Answer<PageReading>> {
  try {
    return await prober.get(url, options)
  } catch (error) {
    const message = messageOf(error)
    return {
      kind: 'network',
      code: undefined,
      message: `edge-purge could not check it: ${message}`
    }
  }
}

/**
 * Runs every one of `checks` until all end or the run is cancelled, whichever comes first: a
 * cancelled stage returns at once, leaving checks in flight to the abort they were given.
 */
export async function untilCancelled(
  checks: Promise<unknown>[],
  signal: AbortSignal
): Promise<void> {
  let stopListening = (): void => undefined
  const cancelled = new Promise<void>((resolve) => {
    if (signal.aborted) resolve()
    const listener = (): void => resolve()
    signal.addEventListener('abort', listener, { once: true })
    stopListening = () => signal.removeEventListener('abort', listener)
  })
  try {
    await Promise.race([Promise.all(checks), cancelled])
  } finally {
    stopListening()
  }
}
