/**
 * What a capability is: plain data and functions the pipeline and the report call at their turn,
 * every hook optional. A capability reads the core's part of the record and its own part (`Part`),
 * and returns its part; it never sees another capability's.
 */
import type { Clock } from '../clock.js'
import type { InputPart } from '../config/parse-settings.js'
import type { PurgeTargets, Settings } from '../config/settings.js'
import type { GitHubRepository } from '../github.js'
import type { OpenLocalGit } from '../git.js'
import type { PageCheckDeps, RequestLimits } from '../http/page-checks.js'
import type { StepLog } from '../log.js'
import type { Failure } from '../record/failure.js'
import type { CoreRecord, PlannedStage, PurgeRun, Results } from '../record/index.js'
import type { Budget } from '../report-kit/budget.js'
import type { OutputWriter } from '../report-kit/json-outputs.js'
import type { Guard } from '../text/guard.js'

/** What a stage is handed: the run's clock, cancel and log, and the connections it may open. */
export interface StageDeps {
  clock: Clock
  /** Aborted when the run is cancelled: no stage starts new work after it. */
  signal: AbortSignal
  log: StepLog
  /** Hides the run's secrets in what servers say, before anything cuts or shows it. */
  guard: Guard
  /** The run's one GitHub client, opened on first use. */
  github(): Promise<GitHubRepository>
  /** The repository on this machine, which the command's door hands in: its changed files. */
  localGit: OpenLocalGit | undefined
  /** The page checks of the run: one prober, made on first use and closed when the run ends. */
  pages(): Promise<PageCheckDeps>
  /** The user's `timeout` and `concurrency`, which every fetch of a page obeys. */
  limits: RequestLimits
  /**
   * Purges one URL instantly, as a `urls` target is purged (the token only with `url-purge-auth`):
   * why it was not purged, or `undefined` when it was.
   */
  purgeUrl(url: string): Promise<string | undefined>
}

/** The record as a capability reads it: the core's part and its own. */
export type Seen<Part> = CoreRecord & Partial<Part>

/** The run as a stage reads it while the run goes on: the settings, and its part so far. */
export type Ongoing<Part> = { settings: Settings } & Partial<Part>

/** What a stage before or after the purge did: its part, and what it means for the rest. */
export interface StageEnd<Part> {
  part: Partial<Part>
  /** No purge call may be sent: every target fails for this reason. */
  hold?: { failure: Failure; cancelled: boolean; because: string }
  /** A cancel ended the run in this stage: the sentence that says so. */
  stopped?: string
}

/** What a capability says of a finished run; nothing when all is well. */
export interface Verdict {
  /** The bold parts of the summary's first line, such as `2 pages still stale`. */
  headline?: string[]
  /** The sentences of the step's failure. */
  problems?: string[]
  /** An annotation per kind of problem, the most URLs or targets first. */
  annotations?: string[]
  /** Why the run is not complete, for the purge marks. */
  incomplete?: string | undefined
  /** Why it made no target, for the summary's first line when the run has none. */
  nothingToPurge?: string | undefined
}

/** Targets a capability made, and for each one it added (`type target`), the file it came from. */
export interface MadeTargets {
  targets: PurgeTargets
  sources: Map<string, string>
}

/** Where a section stands in the summary: before the targets, beside their failures, or after. */
export type Slot = 'lead' | 'beside' | 'after'

export interface Capability<Part> {
  /** Parses its inputs into its settings. */
  inputs: InputPart
  /** Before the plan: targets made from what the run's settings name, and its part. */
  targets?(settings: Settings, deps: StageDeps): Promise<StageEnd<Part> & { made?: MadeTargets }>
  /** At plan time: a notice for each thing that looks wrong in what it was asked. */
  notices?(settings: Settings, targets: PurgeTargets, guard: Guard): string[]
  /** In a dry run: what it would do, with the URLs it would fetch. */
  planned?(settings: Settings, targets: PurgeTargets, guard: Guard): Promise<PlannedStage[]>
  /** Before the purge, which it may hold. */
  before?(run: Ongoing<Part>, deps: StageDeps): Promise<StageEnd<Part>>
  /** After the purge. */
  after?(run: Ongoing<Part>, purge: PurgeRun, deps: StageDeps): Promise<StageEnd<Part>>
  /** What an unexpected error left it, when it expected to run but did not get to. */
  notJudged?(run: Ongoing<Part>, results: Results, why: string): Partial<Part>
  /** Its step outputs; set in every run, empty when it did not run. */
  outputs?(record: Seen<Part>, io: OutputWriter): Promise<void>
  /** Its sections of the job summary, each in its slot. */
  sections?: Partial<Record<Slot, (record: Seen<Part>, budget: Budget, guard: Guard) => string[]>>
  /** What it says of the run: one verdict, or one per thing it judged, in the order they count. */
  verdict?(record: Seen<Part>, guard: Guard): Verdict | Verdict[]
  /** Once the report is written (`reported`: outputs and summary both). */
  finish?(record: Seen<Part>, reported: boolean, deps: StageDeps): Promise<void>
}
