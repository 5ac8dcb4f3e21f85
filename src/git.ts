/**
 * A git repository on this machine as the changed files read it: plain answers, handed in by the
 * command's door, which alone runs git. The runner's door hands in none: the action reads GitHub.
 */

/** The CI pipeline the command runs in, as its variables say. */
export interface CiPipeline {
  /** `GitLab`. */
  system: string
  /** What started it: `push`, `merge_request_event`, `schedule`… */
  source: string
  /** On a push: the commit before it (all zeros for a new branch), and the one it pushed. */
  before: string
  after: string
}

/**
 * The repository of the working directory. Every call fails with an `InputError` when git cannot
 * be run or the directory is in no repository, and with an `Error` naming git for anything else.
 */
export interface LocalGit {
  /** The pipeline the command runs in; `undefined` outside one it knows (Jenkins, a terminal). */
  pipeline: CiPipeline | undefined
  /** Whether the clone is shallow: a commit it lacks may exist beyond its history. */
  shallow: boolean
  /** The full SHA of a commit, branch or tag; `undefined` when the repository has no such commit. */
  commitOf(ref: string): Promise<string | undefined>
  /** Whether `base` is `head` or one of its ancestors. */
  isAncestor(base: string, head: string): Promise<boolean>
  /** How many commits `head` has that `base` has not. */
  commitsBetween(base: string, head: string): Promise<number>
  /**
   * Every path `git diff --name-status -M base head` lists: added, modified, removed, and a rename
   * under its old name and its new one; sorted, each once.
   */
  changedPaths(base: string, head: string): Promise<string[]>
}

/** The bounds every git call keeps, as every purge call does: `timeout`, and the run's cancel. */
export interface GitLimits {
  timeoutMs: number
  signal: AbortSignal
  /** The run's guard: git's words reach the stages with its secrets hidden. */
  guard: { redact(text: string): string }
}

/** Opens the repository of the working directory: fails when git cannot read one there. */
export type OpenLocalGit = (limits: GitLimits) => Promise<LocalGit>
