/**
 * The wait stage: before any purge call, check the origin until every URL shows the release (or
 * answers 2xx) enough times in a row, or the time is up. A purge sent before the origin serves the
 * new build lets the next visitor refill the cache with the old one.
 */
import type { Clock } from '../clock.js'
import { counted } from '../text/counted.js'
import type { EngineLog } from './purge/engine.js'
import { observe, quoted, type Observation } from './verify/freshness.js'
import { ProbeSlots, type ProbeAnswer, type Prober } from '../http/probe.js'
import { oneLine } from '../text/guard.js'

export interface WaitSettings {
  urls: string[]
  /** Text each URL must show in a 2xx answer; undefined: any 2xx answer will do. */
  text: string | undefined
  /** Passing checks in a row each URL needs. */
  passes: number
  timeoutMs: number
  requestTimeoutMs: number
  concurrency: number
}

export interface WaitDeps {
  prober: Prober
  clock: Clock
  /** Aborted when the run is cancelled: the stage returns at once. */
  signal: AbortSignal
  log: EngineLog
}

export interface UrlWait {
  url: string
  checks: number
  passedInARow: number
  /** The last answer in a few words (`HTTP 200, did not show "abc1234"`), or `not checked`. */
  last: string
}

export interface WaitOutcome {
  /** Every URL passed: the purge may go ahead. */
  done: boolean
  cancelled: boolean
  elapsedMs: number
  urls: UrlWait[]
  /** Why the wait failed when the time ran out, in one short sentence: how many URLs were not ready. */
  failure: string | undefined
}

/** How often one URL is checked: often enough to purge soon after a deploy, rarely enough to be polite. */
export const CHECK_INTERVAL_MS = 2000
/** A request cut to the time left still gets this long: a check with no time to answer proves nothing. */
const MIN_REQUEST_TIMEOUT_MS = 1000

/**
 * A check's timeout when it must end by `deadline`: the time left, but at least
 * `MIN_REQUEST_TIMEOUT_MS`, and never more than the request `timeout` the user set.
 */
export function timeoutBefore(deadline: number, now: number, requestTimeoutMs: number): number {
  return Math.min(requestTimeoutMs, Math.max(MIN_REQUEST_TIMEOUT_MS, deadline - now))
}

/** URLs are the user's, already validated; cut anyway, as all outside text is before the log. */
const SHOWN_URL_CHARS = 200

export function shownUrl(url: string): string {
  return oneLine(url, SHOWN_URL_CHARS)
}

/** A throw from the prober (a bug) fails that check only, as the engine does for a call. */
export async function safeGet(
  prober: Prober,
  url: string,
  options: Parameters<Prober['get']>[1]
): Promise<ProbeAnswer> {
  try {
    return await prober.get(url, options)
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    return {
      kind: 'network',
      code: undefined,
      message: `edge-purge could not check it: ${message}`
    }
  }
}

/** Resolves when `signal` aborts; `stop` removes the listener once it is no longer needed. */
export function abortion(signal: AbortSignal): { aborted: Promise<void>; stop: () => void } {
  let stop = (): void => undefined
  const aborted = new Promise<void>((resolve) => {
    if (signal.aborted) resolve()
    const listener = (): void => resolve()
    signal.addEventListener('abort', listener, { once: true })
    stop = () => signal.removeEventListener('abort', listener)
  })
  return { aborted, stop }
}

/** A page whose body cannot be decoded does not pass: visitors could not read it either. */
function passes(observation: Observation): boolean {
  const { status, textSeen, undecodable } = observation
  return (
    status !== null &&
    status >= 200 &&
    status < 300 &&
    undecodable === undefined &&
    textSeen !== false
  )
}

function describeAnswer(observation: Observation, text: string | undefined): string {
  if (observation.status === null) return observation.failure ?? 'no answer'
  if (observation.undecodable !== undefined) {
    return `HTTP ${observation.status}, ${observation.undecodable}`
  }
  const seen = observation.textSeen ? 'showed' : 'did not show'
  return text === undefined
    ? `HTTP ${observation.status}`
    : `HTTP ${observation.status}, ${seen} ${quoted(text)}`
}

/** What the wait asked of each URL. */
export type WaitAwaited = Pick<WaitSettings, 'text' | 'passes'>

function awaited(settings: WaitAwaited): string {
  const what = settings.text === undefined ? 'answer 2xx' : `show ${quoted(settings.text)}`
  return settings.passes > 1 ? `${what} ${settings.passes} times in a row` : what
}

/** What each URL still waiting did last, for the log and the job summary. */
export function describeUrlWait({ url, checks, last }: UrlWait, settings: WaitAwaited): string {
  const history =
    checks === 0 ? 'no check was made' : `last answer: ${last}, after ${counted(checks, 'check')}`
  return `${shownUrl(url)} did not ${awaited(settings)} (${history})`
}

/**
 * Why no purge call was sent, short enough to be every target's reason: how many URLs were not
 * ready and what they had to show. What each one answered is in the log and the summary.
 */
function describeFailure(settings: WaitSettings, waiting: UrlWait[]): string {
  const which =
    waiting.length === 1 && settings.urls.length === 1
      ? shownUrl(waiting[0]?.url ?? '')
      : `${waiting.length} of ${counted(settings.urls.length, 'wait-for-url')}`
  return `the origin was not ready within ${settings.timeoutMs / 1000} s: ${which} did not ${awaited(settings)}`
}

export async function waitForOrigin(settings: WaitSettings, deps: WaitDeps): Promise<WaitOutcome> {
  const { prober, clock, signal, log } = deps
  const started = clock.now()
  const deadline = started + settings.timeoutMs
  const slots = new ProbeSlots(settings.concurrency)
  const urls: UrlWait[] = settings.urls.map((url) => ({
    url,
    checks: 0,
    passedInARow: 0,
    last: 'not checked'
  }))

  /** Checks one URL until it has passed often enough or no check may start before the deadline. */
  async function watch(state: UrlWait): Promise<void> {
    let nextStart = started
    while (state.passedInARow < settings.passes && !signal.aborted) {
      const pause = nextStart - clock.now()
      if (pause > 0) await clock.sleep(pause, signal)
      const checked = await slots.run(async () => {
        const start = clock.now()
        if (signal.aborted || start > deadline) return false
        nextStart = start + CHECK_INTERVAL_MS
        const timeoutMs = timeoutBefore(deadline, start, settings.requestTimeoutMs)
        const answer = await safeGet(prober, state.url, {
          timeoutMs,
          signal,
          lookFor: settings.text
        })
        if (answer.kind === 'cancelled') return false
        const observation = observe(answer, settings.text)
        state.checks += 1
        state.passedInARow = passes(observation) ? state.passedInARow + 1 : 0
        state.last = describeAnswer(observation, settings.text)
        const mark = state.passedInARow > 0 ? '✓' : '✗'
        const row =
          settings.passes > 1 ? `; ${state.passedInARow} of ${settings.passes} in a row` : ''
        log.info(`${mark} ${shownUrl(state.url)}: ${state.last} (check ${state.checks}${row})`)
        return true
      })
      if (!checked) return
      nextStart = Math.max(nextStart, clock.now())
      if (nextStart > deadline) return
    }
  }

  const what = awaited(settings)
  log.startGroup(
    `Waiting for the origin: ${counted(urls.length, 'URL')} to ${what} (up to ${settings.timeoutMs / 1000} s)`
  )
  const { aborted, stop } = abortion(signal)
  try {
    await Promise.race([Promise.all(urls.map(watch)), aborted])
  } finally {
    stop()
  }
  const elapsedMs = clock.now() - started
  const cancelled = signal.aborted
  const waiting = urls.filter((state) => state.passedInARow < settings.passes)
  const done = !cancelled && waiting.length === 0
  const failure = done || cancelled ? undefined : describeFailure(settings, waiting)
  const after = `${(elapsedMs / 1000).toFixed(1)} s`
  log.info(
    failure ?? (cancelled ? `Wait cancelled after ${after}` : `The origin is ready after ${after}`)
  )
  if (failure !== undefined) for (const state of waiting) log.info(describeUrlWait(state, settings))
  log.endGroup()
  return { done, cancelled, elapsedMs, urls: urls.map((state) => ({ ...state })), failure }
}
