/**
 * The edge check's work: after the purge, fetch each URL as a visitor would and judge whether the
 * edge now serves content produced after the purge began, re-checking stale ones for a while (a
 * soft purge serves the old copy once while it refetches; a CDN needs a moment to reach every POP).
 */
import { observe, type Observation } from '../../http/observation.js'
import {
  pollUntilDeadline,
  safeGet,
  timeoutBefore,
  type PageCheckDeps,
  type RequestLimits
} from '../../http/page-checks.js'
import {
  edgeCounts,
  NOT_CHECKED_IN_TIME,
  NOT_JUDGED_CANCELLED,
  type EdgeCheckEntry,
  type EdgeCheckOutcome
} from './record.js'
import { counted } from '../../text/counted.js'
import { judge, type Judgement } from './freshness.js'
import { meets, sparedBy, type PageBlock } from './blocks.js'
import type { Guard } from '../../text/guard.js'
import { shownUrl } from '../../text/shown.js'

export interface EdgeCheckTarget {
  url: string
  /** Text the page must show to be fresh; undefined: judged by `Age`. */
  text: string | undefined
}

/** What the edge check is asked: which URLs, from when, for how long. */
interface EdgeCheckRequest {
  targets: EdgeCheckTarget[]
  /** When the first purge call of the run was sent (ms epoch): the reference for `Age`. */
  purgeStartedMs: number
  /**
   * No check, first or re-check, starts later than this after the stage begins: the stage ends
   * within it plus one `requestTimeoutMs`, however many URLs there are.
   */
  timeoutMs: number
  /**
   * With `verify-assets`: handed each HTML page's body as its last check read it, whole (reading no
   * longer stops once `verify-text` shows), for the check of the files it loads.
   */
  onPage?: (url: string, html: string) => void
}

const FIRST_RECHECK_MS = 500
const MAX_RECHECK_MS = 5000

/**
 * The wait before the next check of what a check found not yet right (a stale page, a failing
 * file), after `checks` checks: 0.5 s, 1 s, 2 s, 4 s, then 5 s.
 */
export function recheckDelayMs(checks: number): number {
  return Math.min(MAX_RECHECK_MS, FIRST_RECHECK_MS * 2 ** Math.max(0, checks - 1))
}

interface Progress {
  target: EdgeCheckTarget
  checks: number
  /** The last check's, once one is made. */
  observation?: Observation
  judgement?: Judgement
  /** Fresh, or stale with no time left to check again. */
  final: boolean
  /** Its first check would have started after the deadline, so it was not made. */
  late: boolean
  /** Why it got no check, or no further one: a block another URL's check met (blocks.ts). */
  spared?: string
}

/** What the verdict rests on, and why there is none or no later one. */
function evidenceOf({ judgement, final, late, spared }: Progress, cancelled: boolean): string {
  if (judgement === undefined) {
    if (late) return NOT_CHECKED_IN_TIME
    return spared === undefined ? NOT_JUDGED_CANCELLED : `not checked: ${spared}`
  }
  if (spared !== undefined) return `${judgement.evidence}; not checked again: ${spared}`
  return cancelled && !final
    ? `${judgement.evidence}; not checked again: the run was cancelled`
    : judgement.evidence
}

export async function checkEdge(
  settings: EdgeCheckRequest,
  { requestTimeoutMs, concurrency }: RequestLimits,
  deps: PageCheckDeps
): Promise<EdgeCheckOutcome> {
  const { clock, signal, log } = deps
  const deadline = clock.now() + settings.timeoutMs
  const progress: Progress[] = settings.targets.map((target) => ({
    target,
    checks: 0,
    final: false,
    late: false
  }))
  const check = checkOnce(settings, deadline, requestTimeoutMs, deps)
  const seconds = `${settings.timeoutMs / 1000} s`
  const title = `Edge check: ${counted(progress.length, 'URL')} (up to ${concurrency} at once, stale ones re-checked; no check starts after ${seconds})`
  return log.group(title, async () => {
    const late = await pollUntilDeadline(progress, check, { deadline, concurrency, clock, signal })
    for (const state of late) state.late = state.checks === 0
    return outcomeOf(progress, seconds, deps)
  })
}

/**
 * One check of a URL, which returns when the re-check is due: none once it is fresh, no time is
 * left, or a proxy's refusal or a certificate problem stands in the way (none after those: they
 * are final, and spare every URL behind the same wall its check).
 */
function checkOnce(
  { purgeStartedMs, onPage }: EdgeCheckRequest,
  deadline: number,
  requestTimeoutMs: number,
  { prober, clock, signal, log, guard }: PageCheckDeps
): (state: Progress) => Promise<number | undefined> {
  const blocks: PageBlock[] = []
  return async (state) => {
    const { url, text } = state.target
    const block = blocks.find((one) => meets(one, url))
    if (block !== undefined) {
      state.spared = sparedBy(block)
      return undefined
    }
    // A first check keeps the full timeout, so its verdict never comes from a cut of ours; it still
    // ends within one timeout of the deadline. Re-checks share what is left, and the floor never
    // lifts one above `timeout` (below 1 s), which would break that bound.
    const timeoutMs =
      state.checks === 0 ? requestTimeoutMs : timeoutBefore(deadline, clock.now(), requestTimeoutMs)
    const lookFor = onPage === undefined ? text : undefined
    const answer = await safeGet(prober, url, { timeoutMs, signal, lookFor })
    if (answer.kind === 'cancelled') return undefined
    if (answer.kind === 'response' && isHtml(answer.headers['content-type'])) {
      onPage?.(url, answer.body)
    }
    const observation = observe(answer, text, guard)
    const rule = text === undefined ? { purgeStartedMs, nowMs: clock.now() } : { text }
    const judgement = judge(observation, rule, guard)
    state.checks += 1
    state.observation = observation
    state.judgement = judgement
    const delay = recheckDelayMs(state.checks)
    const due = clock.now() + delay
    state.final = judgement.fresh || answer.kind === 'blocked' || due > deadline
    if (answer.kind === 'blocked') {
      blocks.push({ blocked: answer.blocked, url, sentence: judgement.evidence })
    }
    log.info(describeCheck(state, answer.kind === 'blocked' ? undefined : delay, guard))
    return state.final ? undefined : due
  }
}

/** Whether an answer is a page of HTML, whose files the assets check looks for. */
function isHtml(contentType: string | undefined): boolean {
  const type = contentType?.split(';')[0]?.trim().toLowerCase()
  return type === 'text/html' || type === 'application/xhtml+xml'
}

/** The check's line; `delay` is undefined when the answer was a block no re-check gets past. */
function describeCheck(state: Progress, delay: number | undefined, guard: Guard): string {
  const { target, checks, observation, judgement, final } = state
  const fresh = judgement?.fresh === true
  const next = fresh
    ? ''
    : delay === undefined
      ? '; not checked again: no retry gets past it'
      : final
        ? '; no time left to check again'
        : `; checking again in ${delay / 1000} s`
  const verdict = fresh ? '✓ fresh' : observation?.status === null ? '✗ unreachable' : '✗ stale'
  return `${verdict} ${shownUrl(guard, target.url)}: ${judgement?.evidence ?? ''} (check ${checks}${next})`
}

/** What the edge check found, told in the log in one line of counts. */
function outcomeOf(progress: Progress[], seconds: string, deps: PageCheckDeps): EdgeCheckOutcome {
  const { signal, log } = deps
  const cancelled = signal.aborted
  const entries = progress.map((state): EdgeCheckEntry => ({
    url: state.target.url,
    fresh: state.judgement?.fresh ?? false,
    http_status: state.observation?.status ?? null,
    age: state.observation?.age ?? null,
    checks: state.checks,
    evidence: evidenceOf(state, cancelled)
  }))
  const late = progress.filter((state) => state.late).length
  if (late > 0) {
    // One line, not one per URL: there may be a thousand.
    log.info(
      `${counted(late, 'URL')} not checked within verify-timeout (${seconds}): raise verify-timeout or concurrency`
    )
  }
  // How many URLs each block spared a check, in the order the blocks were met.
  const spared = new Map<string, number>()
  for (const { spared: why } of progress) {
    if (why !== undefined) spared.set(why, (spared.get(why) ?? 0) + 1)
  }
  for (const [why, count] of spared) {
    log.info(`${counted(count, 'URL')} not checked any further: ${why}`)
  }
  const counts = edgeCounts(entries)
  const ending = cancelled ? ' (the run was cancelled)' : ''
  const unreachable = counts.unreachable > 0 ? `, ${counts.unreachable} unreachable` : ''
  const notChecked = counts.unchecked > 0 ? `, ${counts.unchecked} not checked` : ''
  log.info(`${counts.fresh} fresh, ${counts.stale} stale${unreachable}${notChecked}${ending}`)
  const malformedAge = progress
    .filter((state) => state.observation?.malformedAge !== undefined)
    .map((state) => state.target.url)
  return { entries, cancelled, malformedAge }
}
