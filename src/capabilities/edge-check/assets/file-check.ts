/**
 * A file's checks over the run (issue 39, steps 2 and 3): checked again while it fails with a 5xx,
 * and a cached 404 or 410 purged once and checked again; then its one verdict and its evidence.
 */
import { messageOf } from '../../../text/message.js'
import { shownUrl } from '../../../text/shown.js'
import { NOT_CHECKED_IN_TIME, NOT_JUDGED_CANCELLED } from '../record.js'
import { recheckDelayMs } from '../check.js'
import type { AssetsDeps } from './check-files.js'
import type { AssetVerdict } from '../record.js'
import { getFile, type FileAnswer } from './file-answer.js'

/** One file through the run: its answers so far and what the action did about them. */
export interface FileProgress {
  url: string
  /** Requests for the file, redirects followed, each counted once. */
  checks: number
  last?: FileAnswer
  /** The cached error that was (or would have been) purged: its evidence opens the heal's. */
  cachedError?: FileAnswer
  /** Why the cached error was not purged, or the purge's failure: the file stays broken. */
  unpurged?: string
  purged: boolean
  /** The purge was sent and had not answered when the run was cancelled. */
  purging: boolean
  /** A check was made after the purge: until then the last answer is the cached error's. */
  checkedSincePurge: boolean
  /** No further check is due: its verdict is its last answer's. */
  final: boolean
  /** Its first check would have started after the deadline, so it was not made. */
  late: boolean
  /** Its verdict's line is in the log. */
  logged: boolean
}

export interface FileVerdict {
  verdict: AssetVerdict
  evidence: string
}

/** Words a purge's failure gets in the evidence: enough to say why, short enough for a cell. */
const PURGE_FAILURE_CHARS = 160

const ORIGIN_LACKS = (status: number): string =>
  `the origin answers ${status}: the page loads a file the deploy did not upload`

/**
 * One check of a file, for `pollUntilDeadline`: returns when the next is due (a 5xx, or a cached
 * error still cached after its purge, as a stale page is: a purge takes a moment to reach every
 * POP), or undefined when none is. A cached 404 or 410 is purged at once and checked again in the
 * same turn. Nothing is recorded once the run is cancelled.
 */
export function checkFile(
  deadline: number,
  deps: AssetsDeps
): (state: FileProgress) => Promise<number | undefined> {
  const { clock, log, guard, limits } = deps
  return async (state) => {
    // The poll starts a first check with a free slot whatever the time; none starts past the window.
    if (state.checks === 0 && clock.now() > deadline) {
      state.late = true
      return undefined
    }
    const answer = await getFile(state.url, deadline, limits.requestTimeoutMs, deps)
    if (answer.reading === 'cancelled') return undefined
    state.checks += 1
    state.last = answer
    const healing = answer.reading === 'missing' && answer.cached && state.cachedError === undefined
    if (healing && (await heal(state, answer, deadline, deps)) === 'cancelled') return undefined
    const due = clock.now() + recheckDelayMs(state.checks)
    const again = state.last.reading === 'failing' || (stillCached(state) && state.purged)
    state.final = !again || due > deadline
    if (!state.final) return due
    logVerdict(state, false, log, guard)
    return undefined
  }
}

/**
 * Purges the URL whose answer was a cached error, then checks the file once more. Purged only on
 * the file's own origin (a redirect may lead to another host, never named to the action) and only
 * within the window.
 */
async function heal(
  state: FileProgress,
  cachedError: FileAnswer,
  deadline: number,
  deps: AssetsDeps
): Promise<'cancelled' | undefined> {
  const { clock, signal, guard, limits } = deps
  state.cachedError = cachedError
  if (new URL(cachedError.url).origin !== new URL(state.url).origin) {
    state.unpurged = 'not purged: it is on another host than the page'
    return undefined
  }
  if (clock.now() > deadline) {
    state.unpurged = 'not purged: no time left within verify-timeout'
    return undefined
  }
  state.purging = true
  const failure = await safePurge(deps, cachedError.url)
  if (signal.aborted) return 'cancelled'
  state.purging = false
  if (failure !== undefined) {
    state.unpurged = `the purge failed: ${guard.oneLine(failure, PURGE_FAILURE_CHARS)}`
    return undefined
  }
  state.purged = true
  // The check after the purge is due now, within the window like any other.
  if (clock.now() > deadline) return undefined
  const answer = await getFile(state.url, deadline, limits.requestTimeoutMs, deps)
  if (answer.reading === 'cancelled') return 'cancelled'
  state.checks += 1
  state.last = answer
  state.checkedSincePurge = true
  return undefined
}

/** A throw from the purge (a bug) is its failure, as a prober's throw fails a check only. */
async function safePurge(deps: AssetsDeps, url: string): Promise<string | undefined> {
  try {
    return await deps.purgeUrl(url)
  } catch (error) {
    return `edge-purge could not purge it: ${messageOf(error)}`
  }
}

function stillCached({ last }: FileProgress): boolean {
  return last?.reading === 'missing' && last.cached
}

/**
 * The file's verdict from its answers. A file whose verdict a cancel cut short is not judged,
 * saying what it showed last: a 5xx is broken only at the end of the window, and a cached error
 * only once its purge was tried.
 */
export function verdictOf(state: FileProgress, cancelled: boolean): FileVerdict {
  const { last, cachedError, purged, unpurged, final } = state
  if (last === undefined) {
    return notJudged(state.late ? NOT_CHECKED_IN_TIME : NOT_JUDGED_CANCELLED)
  }
  const cut = cancelled && !final
  const cachedShown = `a cached ${cachedError?.shown ?? ''}`
  if (purged && !state.checkedSincePurge) {
    const why = cut ? 'the run was cancelled' : 'no time left within verify-timeout'
    return notJudged(`${cachedShown}, purged; not checked again: ${why}`)
  }
  const seen = purged ? `${cachedShown}, purged: now ${last.shown}` : last.shown
  switch (last.reading) {
    case 'whole':
      return { verdict: purged ? 'healed' : 'whole', evidence: seen }
    case 'unjudged':
      return notJudged(seen)
    case 'failing':
      if (cut) return notJudged(`${seen}; not checked again: the run was cancelled`)
      return { verdict: 'broken', evidence: `${seen}, still at the end of verify-timeout` }
    case 'missing':
      if (!last.cached) return { verdict: 'broken', evidence: ORIGIN_LACKS(last.status ?? 404) }
      if (unpurged !== undefined)
        return { verdict: 'broken', evidence: `${cachedShown}; ${unpurged}` }
      if (!purged) {
        const when = state.purging ? 'while it was being purged' : 'before it was purged'
        return notJudged(`${cachedShown}; the run was cancelled ${when}`)
      }
      if (cut) return notJudged(`${seen}; not checked again: the run was cancelled`)
      return { verdict: 'broken', evidence: `${seen}, still at the end of verify-timeout` }
  }
}

function notJudged(evidence: string): FileVerdict {
  return { verdict: 'not_judged', evidence }
}

const MARKS: Record<AssetVerdict, string> = {
  whole: '✓ whole',
  healed: '✓ healed',
  broken: '✗ broken',
  not_judged: '? not judged'
}

/** The file's one line in the log, once its verdict is known. */
export function logVerdict(
  state: FileProgress,
  cancelled: boolean,
  log: AssetsDeps['log'],
  guard: AssetsDeps['guard']
): void {
  const { verdict, evidence } = verdictOf(state, cancelled)
  log.info(`${MARKS[verdict]} ${shownUrl(guard, state.url)}: ${evidence}`)
  state.logged = true
}
