/** The changed files' part of the record: what was compared, what it gave, the purge marks. */
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
  /**
   * `trees` when the two commits' trees were compared (the comparison listed 300 files, or none);
   * `git` when local git listed them.
   */
  method: 'compare' | 'trees' | 'git'
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

/** A service's purge mark while the purge runs: the deployment, or why GitHub would not make it. */
export interface OpenMark {
  service: string
  sha: string
  deploymentId: number | undefined
  refusal: string | undefined
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

export interface ChangedFilesPart {
  /** The targets derived from the changed files, when `changed-files` is on. */
  derivation: Derivation
  /** What `changed-since: last-purge` read before planning. */
  recalled: RecalledPurges
  /** With `changed-since: last-purge`, outside a dry run: each service's purge mark, opened. */
  marks: OpenMark[]
}
