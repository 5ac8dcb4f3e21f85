/** The GitHub API as the stages see it: plain answers, handed in by the runner door, which alone knows Octokit. */

/** The part of a workflow run's event that names commits. */
export interface RunEvent {
  eventName: string
  /** GITHUB_SHA: the commit the run is for. */
  sha: string
  payload: Readonly<Record<string, unknown>>
  /** GITHUB_RUN_ID, and the run's page on GitHub: where a record of the purge points. */
  runId: string
  runUrl: string
}

/** A file as a comparison or a commit lists it. */
export interface FileEntry {
  filename: string
  status: string
  previous_filename?: string
}

/** One page of the comparison `base...head`. */
export interface ComparisonPage {
  /** `ahead` or `identical` when base is an ancestor of head; `behind` or `diverged` otherwise. */
  status: string
  totalCommits: number
  /** The full SHA of the base, which may have been given as a branch or tag. */
  baseSha: string
  /** The SHAs of this page's commits, oldest first. */
  commits: string[]
  /** GitHub lists files on the first page only, and may leave them out. */
  files: FileEntry[] | undefined
  hasNextPage: boolean
}

/** A file or submodule of a commit's whole tree, with the SHA of its content. */
export interface TreeEntry {
  path: string
  sha: string
}

/** A commit's whole tree; `truncated` when GitHub left entries out (over 100,000 or 7 MB). */
export interface CommitTree {
  entries: TreeEntry[]
  truncated: boolean
}

/** A deployment as the record of a purge reads it. */
export interface DeploymentEntry {
  id: number
  /** The commit it was made for. */
  sha: string
  payload: unknown
}

/** What a new deployment says: the fields a purge record sets. */
export interface NewDeployment {
  sha: string
  environment: string
  task: string
  description: string
  payload: Record<string, string>
}

export type DeploymentState = 'in_progress' | 'success' | 'failure'

/**
 * The repository a run belongs to. Every call rejects with an error whose `status` is the HTTP
 * status GitHub answered (404 for an unknown commit, 401 or 403 for a refused token).
 */
export interface GitHubRepository {
  owner: string
  repo: string
  /** The event that started the run. */
  event: RunEvent
  compare(base: string, head: string, page: number): Promise<ComparisonPage>
  /** One page of the files a commit changed. */
  commitFiles(sha: string, page: number): Promise<{ files: FileEntry[]; hasNextPage: boolean }>
  /** Every release of the repository, as GitHub describes them. */
  releases(): Promise<unknown[]>
  /** A commit's whole tree, every file listed by path. */
  tree(sha: string): Promise<CommitTree>
  /** One page of an environment's deployments, newest first. */
  deployments(
    environment: string,
    page: number
  ): Promise<{ deployments: DeploymentEntry[]; hasNextPage: boolean }>
  /** A deployment's latest status (`success`, `failure`, `inactive`…), `undefined` when it has none. */
  latestDeploymentState(id: number): Promise<string | undefined>
  /** Creates a deployment; resolves to its id. */
  createDeployment(deployment: NewDeployment): Promise<number>
  /** Adds a status to a deployment; `logUrl` is the run's page. */
  setDeploymentState(
    id: number,
    state: DeploymentState,
    status: { description: string; logUrl: string }
  ): Promise<void>
}

/** Opens the run's repository with this token: the GitHub client loads only when this is called. */
export type OpenGitHub = (token: string) => Promise<GitHubRepository>

/** The HTTP status a failed GitHub call answered, when it got an answer. */
export function statusOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null || !('status' in error)) return undefined
  return typeof error.status === 'number' ? error.status : undefined
}
