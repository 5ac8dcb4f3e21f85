/**
 * The wait's work: before any purge call, check the origin until every URL shows the release (or
 * answers 2xx) enough times in a row, or the time is up. A purge sent before the origin serves the
 * new build lets the next visitor refill the cache with the old one.
 */
import { setMaxListeners } from 'node:events'
import { onAbort } from '../../clock.js'
import type { WaitSettings } from '../../config/settings.js'
import { blockedWords, type Blocked, type BlockedWords } from '../../http/blocked.js'
import { reasonOf, type Failure } from '../../record/failure.js'
import { observe, type Observation } from '../../http/observation.js'
import {
  pollUntilDeadline,
  safeGet,
  timeoutBefore,
  type PageCheckDeps,
  type RequestLimits
} from '../../http/page-checks.js'
import type { PlannedStage } from '../../record/index.js'
import type { UrlWait, WaitOutcome } from './record.js'
import { awaited, describeUrlWait } from './summary.js'
import { counted } from '../../text/counted.js'
import type { Guard } from '../../text/guard.js'
import { quoted, shownUrl } from '../../text/shown.js'

/** How often one URL is checked: often enough to purge soon after a deploy, rarely enough to be polite. */
export const CHECK_INTERVAL_MS = 2000
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

function describeAnswer(observation: Observation, text: string | undefined, guard: Guard): string {
  if (observation.status === null) return observation.failure ?? 'no answer'
  if (observation.undecodable !== undefined) {
    return `HTTP ${observation.status}, ${observation.undecodable}`
  }
  const seen = observation.textSeen ? 'showed' : 'did not show'
  return text === undefined
    ? `HTTP ${observation.status}`
    : `HTTP ${observation.status}, ${seen} ${quoted(guard, text)}`
}

/**
 * Why no purge call was sent, short enough to be every target's reason: how many URLs were not
 * ready and what they had to show. What each one answered is in the log and the summary.
 */
function describeFailure(
  settings: WaitSettings,
  waiting: UrlWait[],
  elapsedMs: number,
  guard: Guard
): Failure {
  const which =
    waiting.length === 1 && settings.urls.length === 1
      ? shownUrl(guard, waiting[0]?.url ?? '')
      : `${waiting.length} of ${counted(settings.urls.length, 'wait-for-url')}`
  // The time the wait took, in whole seconds as the wait-seconds output gives it.
  return {
    what: `the origin was not ready after ${Math.round(elapsedMs / 1000)} s`,
    detail: `${which} did not ${awaited(settings, guard)}`
  }
}

/** Why no purge call was sent when a proxy's refusal or a certificate problem ended the wait. */
function describeBlock({ what, fix }: BlockedWords, guard: Guard): Failure {
  const because = `the origin could not be checked because ${guard.oneLine(what)}`
  return { what: because, detail: guard.oneLine(fix) }
}

/** In a dry run: what the wait would await; no request is sent. */
export function describeWaitPlanned(wait: WaitSettings, guard: Guard): PlannedStage {
  const what =
    wait.text === undefined
      ? 'answers 2xx'
      : `shows ${JSON.stringify(guard.oneLine(wait.text, 80))}`
  return {
    sentence:
      `Would first wait until each of ${counted(wait.urls.length, 'URL')} ${what} ` +
      `(${counted(wait.passes, 'check')} in a row, up to ${wait.timeoutMs / 1000} s):`,
    urls: wait.urls,
    when: 'before'
  }
}

export async function waitForOrigin(
  settings: WaitSettings,
  { requestTimeoutMs, concurrency }: RequestLimits,
  deps: PageCheckDeps
): Promise<WaitOutcome> {
  const { clock, log } = deps
  const started = clock.now()
  const deadline = started + settings.timeoutMs
  const urls: UrlWait[] = settings.urls.map((url) => ({
    url,
    checks: 0,
    passedInARow: 0,
    last: 'not checked'
  }))
  // A proxy's refusal or a certificate problem no retry gets past: no URL can pass behind it, and
  // no purge may go before every URL passed, so the first one ends the wait and every check in it.
  // The wait's own cancel is therefore aborted with the run's, or by the first block.
  const stop = new AbortController()
  // Every check in flight and every pause between checks listens: more than Node's default of 10.
  setMaxListeners(0, stop.signal)
  const abort = (): void => stop.abort()
  if (deps.signal.aborted) abort()
  const stopListening = onAbort(deps.signal, abort)
  let block: BlockedWords | undefined
  const onBlocked = (blocked: Blocked): void => {
    block ??= blockedWords(blocked)
    abort()
  }
  const check = checkOnce(
    settings,
    deadline,
    requestTimeoutMs,
    { ...deps, signal: stop.signal },
    onBlocked
  )
  const title = `Waiting for the origin: ${counted(urls.length, 'URL')} to ${awaited(settings, deps.guard)} (up to ${settings.timeoutMs / 1000} s)`
  return log.group(title, async () => {
    try {
      await pollUntilDeadline(urls, check, { deadline, concurrency, clock, signal: stop.signal })
    } finally {
      stopListening()
    }
    return outcomeOf(urls, settings, clock.now() - started, block, deps)
  })
}

/**
 * One check of a URL, which returns when the next is due: every 2 s, and once more at the deadline
 * when the next check would come after it, so the wait uses all of its time; none once the URL
 * has passed often enough.
 */
function checkOnce(
  settings: WaitSettings,
  deadline: number,
  requestTimeoutMs: number,
  { prober, clock, signal, log, guard }: PageCheckDeps,
  onBlocked: (blocked: Blocked) => void
): (state: UrlWait) => Promise<number | undefined> {
  return async (state) => {
    const start = clock.now()
    const timeoutMs = timeoutBefore(deadline, start, requestTimeoutMs)
    const answer = await safeGet(prober, state.url, { timeoutMs, signal, lookFor: settings.text })
    if (answer.kind === 'cancelled') return undefined
    const observation = observe(answer, settings.text, guard)
    state.checks += 1
    state.passedInARow = passes(observation) ? state.passedInARow + 1 : 0
    state.last = describeAnswer(observation, settings.text, guard)
    const mark = state.passedInARow > 0 ? '✓' : '✗'
    const row = settings.passes > 1 ? `; ${state.passedInARow} of ${settings.passes} in a row` : ''
    log.info(`${mark} ${shownUrl(guard, state.url)}: ${state.last} (check ${state.checks}${row})`)
    if (answer.kind === 'blocked') {
      onBlocked(answer.blocked)
      return undefined
    }
    if (state.passedInARow >= settings.passes) return undefined
    const now = clock.now()
    const next = Math.max(start + CHECK_INTERVAL_MS, now)
    if (next <= deadline) return next
    return now >= deadline ? undefined : deadline
  }
}

/**
 * How the wait ended, told in the log: ready, cancelled, blocked, or which URLs were not ready and
 * why. `block` is the proxy's refusal or certificate problem that ended it at once, if one did.
 */
function outcomeOf(
  urls: UrlWait[],
  settings: WaitSettings,
  elapsedMs: number,
  block: BlockedWords | undefined,
  { signal, log, guard }: PageCheckDeps
): WaitOutcome {
  const cancelled = signal.aborted
  const waiting = urls.filter((state) => state.passedInARow < settings.passes)
  const done = !cancelled && waiting.length === 0
  const blocked = !cancelled && block !== undefined
  const failure =
    done || cancelled
      ? undefined
      : block === undefined
        ? describeFailure(settings, waiting, elapsedMs, guard)
        : describeBlock(block, guard)
  const after = `${(elapsedMs / 1000).toFixed(1)} s`
  log.info(
    failure === undefined
      ? cancelled
        ? `Wait cancelled after ${after}`
        : `The origin is ready after ${after}`
      : reasonOf(failure)
  )
  if (failure !== undefined) {
    for (const state of waiting) log.info(describeUrlWait(state, settings, guard))
  }
  return {
    done,
    cancelled,
    blocked,
    elapsedMs,
    urls: urls.map((state) => ({ ...state })),
    failure
  }
}
