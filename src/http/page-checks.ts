/** What the wait for the origin and the edge check share: how a page is fetched, timed and abandoned. */
import type { Guard } from '../text/guard.js'
import { unlessCancelled, type Clock } from '../clock.js'
import type { StepLog } from '../log.js'
import type { Answer } from './agents.js'
import { ProbeSlots, type PageReading, type Prober } from './probe.js'
import { messageOf } from '../text/message.js'

/** What a stage that fetches pages is handed. */
export interface PageCheckDeps {
  prober: Prober
  clock: Clock
  /** Aborted when the run is cancelled: the stage returns at once. */
  signal: AbortSignal
  log: StepLog
  /** Hides the run's secrets in what a page says, before anything cuts or shows it. */
  guard: Guard
}

/** The user's `timeout` and `concurrency`, which every fetch of a page obeys. */
export interface RequestLimits {
  requestTimeoutMs: number
  concurrency: number
}

/** How a stage polls its pages: until when, how many at once, on which clock and cancel. */
export interface PollLimits {
  /** No check starts after this (ms epoch), but one due by it that was not queued for a slot. */
  deadline: number
  concurrency: number
  clock: Clock
  signal: AbortSignal
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
    const message = `edge-purge could not check it: ${messageOf(error)}`
    return { kind: 'network', code: undefined, message }
  }
}

/**
 * Checks each of `subjects` over and over, up to `concurrency` at once, until its `check` says no
 * further check is due, or the run is cancelled. `check` returns when its subject's next check is
 * due (ms epoch), or undefined when none is. A check due by the deadline starts when its timer
 * wakes, a moment after; one that waited for a free slot until after the deadline is not made, and
 * its subject is among those returned.
 */
export async function pollUntilDeadline<S>(
  subjects: readonly S[],
  check: (subject: S) => Promise<number | undefined>,
  { deadline, concurrency, clock, signal }: PollLimits
): Promise<Set<S>> {
  const slots = new ProbeSlots(concurrency)
  const tooLate = new Set<S>()
  const poll = async (subject: S): Promise<void> => {
    for (;;) {
      const due = await slots.run(async (queued) => {
        if (signal.aborted) return undefined
        if (queued && clock.now() > deadline) {
          tooLate.add(subject)
          return undefined
        }
        return check(subject)
      })
      if (due === undefined || signal.aborted) return
      const pause = due - clock.now()
      if (pause > 0) await clock.sleep(pause, signal)
    }
  }
  // A cancelled stage returns at once, leaving checks in flight to the abort they were given.
  await unlessCancelled(
    Promise.all(subjects.map(poll)).then(() => undefined),
    signal,
    () => undefined
  )
  return tooLate
}
