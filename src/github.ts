/** The GitHub API as the stages see it: plain answers, handed in by the runner door, which alone knows Octokit. */

/** The part of a workflow run's event that names commits. */
export interface RunEvent {
  eventName: string
  /** GITHUB_SHA: the commit the run is for. */
  sha: string
  payload: Readonly<Record<string, unknown>>
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
  /** The SHAs of this page's commits, oldest first. */
  commits: string[]
  /** GitHub lists files on the first page only, and may leave them out. */
  files: FileEntry[] | undefined
  hasNextPage: boolean
}

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
}

/** Opens the run's repository with this token: the GitHub client loads only when this is called. */
export type OpenGitHub = (token: string) => Promise<GitHubRepository>
