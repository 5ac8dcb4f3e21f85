/**
 * What happened: the calls planned, each target's result, the cancel. The core produces these
 * types; with the capabilities' parts they are the run's record, the single source for outputs,
 * summary and exit code.
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

/** One stage a dry run would have run: what it would do, and each URL it would fetch. */
export interface PlannedStage {
  sentence: string
  urls: string[]
  /** Whether it would run before the purge, after it, or once the run is over: a dry run's order. */
  when: 'before' | 'after' | 'end'
}

/**
 * What happened in one run as the core knows it, from the settings it was given to the last
 * result; each capability adds its part beside it.
 */
export interface CoreRecord {
  settings: Settings
  calls: PurgeCall[]
  /** Every target exactly once, in plan order: purged, failed with its reason, or planned. */
  results: Results
  /** The results counted once, for every part of the report that only needs how many. */
  counts: Counts
  /** In a dry run: what each capability would have done. */
  plannedStages: PlannedStage[]
  /** Why no purge call was sent, in a few words, when a stage before the purge held it. */
  notSent: string | undefined
  /** Why the run ended early, when a cancel ended it. */
  stopped: string | undefined
  /** An unexpected error that ended the run after planning: the step fails naming it. */
  unexpectedError: string | undefined
  /** Why a capability found the run not complete (a page not fresh), whatever its targets did. */
  notComplete: string | undefined
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
