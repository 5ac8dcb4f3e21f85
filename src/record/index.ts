/**
 * What happened: the calls planned, each target's result, the wait, the edge check, the cancel.
 * The stages produce these types and the report reads them; `RunRecord` carries them from the
 * pipeline to the report, the single source for outputs, summary and exit code.
 */
import type { Settings } from '../config/settings.js'
import type { Failure } from './failure.js'

export type TargetType = 'all' | 'key' | 'url'

/** Which spec operation a call is: decides the response shape expected and the permission needed. */
type Operation = 'purge-all' | 'key' | 'soft-key' | 'batch' | 'url' | 'soft-url'

/** Calls refused with 403 stop the other calls that need the same permission. */
export type Permission = 'engineer' | 'billing' | 'purge' | 'url-purge'

export interface PurgeCall {
  operation: Operation
  method: 'POST' | 'PURGE'
  url: string
  /** Headers besides `Edge-Key`, which the client adds when `authenticated`. */
  headers: Record<string, string>
  body: string | undefined
  authenticated: boolean
  permission: Permission
  /** The service id of a management call; URL purges belong to no service. */
  service: string | undefined
  soft: boolean
  /** What the call's targets are: every target of a call is of one type. */
  targetType: TargetType
  /**
   * The keys, the URL as given, or the service id for a purge-all: each a thing the user asked to
   * purge, which ends in exactly one result.
   */
  targets: readonly string[]
}

export type PurgeStatus = 'purged' | 'failed' | 'planned'

/** The second pass of a purge repeated for shielded services. */
export interface RepeatResult {
  status: PurgeStatus
  id: string | null
  attempts: number
}

/** One per requested target (per service), in the shape of the `results` output. */
export interface PurgeResult {
  type: TargetType
  target: string
  /** The service purged; `null` for URL purges, which belong to no service. */
  service: string | null
  soft: boolean
  status: PurgeStatus
  id: string | null
  http_status: number | null
  attempts: number
  /** The failure in words: `reasonOf(failure)`. */
  error: string | null
  /** Why it failed, as data, which the report reads; not part of the `results` output. */
  failure: Failure | null
  /**
   * Present only on a target that failed because the server asked for a wait longer than the run
   * takes: when it may be purged again (ISO 8601). Not in `error`, so one cause reads the same for
   * every target it failed.
   */
  retry_at?: string
  /** Present only when `repeat-after` is on: the second pass, `null` for targets not repeated. */
  repeat?: RepeatResult | null
  /** Present only with `changed-files`: whether the target was given or derived, and from which file. */
  source?: 'input' | 'changed-files'
  file?: string | null
}

export interface CallEnd {
  attempts: number
  httpStatus: number | null
  /** Present when the call succeeded: each purged target's id (purge-all has none). */
  ids: Map<string, string> | undefined
  /** With `ids`: targets the answer gave something other than a usable id, and why. */
  unusable?: Map<string, Failure>
  /** Present when the call failed. */
  failure: Failure | undefined
  /** When the server said calls may start again (ms epoch), had the run waited that long. */
  retryAt?: number | undefined
}

/** Every target's result, in plan order. */
export type Results = readonly PurgeResult[]

export interface PurgeRun {
  results: Results
  /** How many of the results have each status. */
  counts: Counts
  /** Calls of the first pass that got an answer (any answer) before the run ended. */
  answered: number
  cancelled: boolean
  /** When the first purge call was sent (ms epoch): what the edge check's `Age` is measured against. */
  firstSentMs: number | undefined
}

/** Marks each result as given or derived; `sources` maps `type target` to the file that caused it. */
export function withSources(results: Results, sources: Map<string, string>): Results {
  return results.map((result) => {
    const file = sources.get(`${result.type} ${result.target}`)
    return { ...result, source: file === undefined ? 'input' : 'changed-files', file: file ?? null }
  })
}

/** The targets in each status, and `total`: every target, the three together. */
export type Counts = Record<PurgeStatus | 'total', number>

export function countResults(results: Results): Counts {
  const counts = { purged: 0, failed: 0, planned: 0, total: results.length }
  for (const result of results) counts[result.status] += 1
  return counts
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
  /**
   * A proxy's refusal or a certificate problem ended the wait at the first check that met it:
   * `failure` names it and its fix.
   */
  blocked: boolean
  elapsedMs: number
  urls: UrlWait[]
  /**
   * Why the wait failed, in one short sentence: how many URLs were not ready when the time ran
   * out, or the block that ended it.
   */
  failure: Failure | undefined
}

/** One entry of the `verification` output; field names are the output's. */
export interface EdgeCheckEntry {
  url: string
  fresh: boolean
  http_status: number | null
  age: number | null
  checks: number
  evidence: string
}

export interface EdgeCheckOutcome {
  /** One per target, in target order. */
  entries: EdgeCheckEntry[]
  cancelled: boolean
  /** The URLs whose last answer had an `Age` that proves nothing (their `age` is null). */
  malformedAge: string[]
}

export const NOT_JUDGED_CANCELLED = 'not judged: the run was cancelled'

/** A URL the check never got to (time up, or cancelled first): not known to be fresh or stale. */
export function notChecked(entry: EdgeCheckEntry): boolean {
  return entry.checks === 0
}

/**
 * A URL whose last check got no answer (DNS, refused, reset, TLS, timeout): never reached, so not
 * known to be fresh, and not shown to be stale either.
 */
export function unreachable(entry: EdgeCheckEntry): boolean {
  return !entry.fresh && entry.checks > 0 && entry.http_status === null
}

/** Where each URL checked at the edge stands; `stale` is only the ones that answered stale. */
export type EdgeCounts = Record<'fresh' | 'stale' | 'unreachable' | 'unchecked', number>

export function edgeCounts(entries: EdgeCheckEntry[]): EdgeCounts {
  const counts = { fresh: 0, stale: 0, unreachable: 0, unchecked: 0 }
  for (const entry of entries) {
    if (entry.fresh) counts.fresh += 1
    else if (notChecked(entry)) counts.unchecked += 1
    else if (unreachable(entry)) counts.unreachable += 1
    else counts.stale += 1
  }
  return counts
}

export const NOT_CHECKED_IN_TIME =
  'not checked within verify-timeout: raise verify-timeout or concurrency'

/**
 * Where the base of a comparison came from, as the `base-source` output names it: `record` is a
 * purge mark's commit, under the word the output has always used.
 */
export type BaseSource = 'record' | 'push' | 'release' | 'input'

/** One comparison the changed files came from: the range, how its files were listed, the log's words. */
export interface ComparedRange {
  /** Every path added, modified, removed or renamed (old and new name), sorted, each once. */
  files: string[]
  /** Commits from base to head; `undefined` when a purge mark's tree was compared with the head's. */
  commits: number | undefined
  /** `trees` when the two commits' trees were compared: the comparison listed 300 files, or none. */
  method: 'compare' | 'trees'
  /** The base as given: a commit, branch or tag. */
  base: string
  /** The base's full commit SHA: the `base` output. */
  baseSha: string
  head: string
  source: BaseSource
  /** For logs: `push abc1234...def5678 (3 commits)`. */
  description: string
  notes: string[]
}

/** The files that changed since each service's base: one range, or one per distinct base. */
export interface ChangedFilesReport {
  /** The union of every range's files, sorted, each once. */
  files: string[]
  ranges: ComparedRange[]
  /** The ranges for logs, joined. */
  description: string
  notes: string[]
}

/** A service's last complete purge, as its newest purge mark with a `success` status names it. */
export interface LastPurge {
  sha: string
  /** The run that purged it, from the deployment's payload; empty when the payload names none. */
  runId: string
  deploymentId: number
}

/** What `changed-since: last-purge` read before planning. */
export interface RecalledPurges {
  /** The commit this run purges for, which its own purge marks name. */
  head: string
  /** Each service's last complete purge; a service without one is missing. */
  last: Map<string, LastPurge>
}

/**
 * A service's purge mark: the deployment that says whether this run purged it completely, decided
 * once the run is over and written after the report: `success` only for a complete purge whose
 * report was written.
 */
export interface PurgeMark {
  service: string
  /** The commit the mark names. */
  sha: string
  /** The deployment made when the purge started; `undefined` when GitHub would not make it. */
  deploymentId: number | undefined
  /** `failure`, with `why`, when the purge was not complete; `not written` when GitHub refused. */
  state: 'success' | 'failure' | 'not written'
  why: string
}

/** A purge target found from a changed file; the first file that caused it is kept. */
export interface DerivedTarget {
  type: 'key' | 'url'
  target: string
  file: string
}

/** The targets the changed files gave, and where each came from. */
export interface Derivation {
  report: ChangedFilesReport
  /** Every target the changed files produced, each with the first file that caused it. */
  targets: DerivedTarget[]
  /** `type target` → file, for the derived targets that were not also given explicitly. */
  sources: Map<string, string>
}

/** One stage a dry run would have run: what it would do, and each URL it would fetch. */
export interface PlannedStage {
  sentence: string
  urls: string[]
}

/** What happened in one run, from the settings it was given to the last check at the edge. */
export interface RunRecord {
  settings: Settings
  /** The targets derived from the changed files, when `changed-files` is on. */
  derivation: Derivation | undefined
  calls: PurgeCall[]
  /** Every target exactly once, in plan order: purged, failed with its reason, or planned. */
  results: Results
  /** The results counted once, for every part of the report that only needs how many. */
  counts: Counts
  /** In a dry run: the wait and the edge check that would have run. */
  plannedStages: PlannedStage[]
  /** The wait for the origin, when there was one. */
  wait: WaitOutcome | undefined
  /** The edge check, when one was made. */
  edgeCheck: EdgeCheckOutcome | undefined
  /** Why the run ended early, when a cancel ended it. */
  stopped: string | undefined
  /** An unexpected error that ended the run after planning: the step fails naming it. */
  unexpectedError: string | undefined
  /** With `changed-since: last-purge`, outside a dry run: each service's purge mark. */
  marks: PurgeMark[]
}

/** The workflow run behind a purge, so the summary traces it to the deploy that caused it. */
export interface RunContext {
  repository: string
  sha: string
  event: string
  workflow: string
  runNumber: number
  runUrl: string
}
