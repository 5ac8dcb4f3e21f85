/** The GitHub API as the stages see it: plain answers, handed in by the runner door, which alone knows Octokit. */
import type { Clock } from './clock.js'

/** The part of a workflow run's event that names commits. */
export interface RunEvent {
  eventName: string
  /** GITHUB_SHA: the commit the run is for. */
  sha: string
  payload: Readonly<Record<string, unknown>>
  /** GITHUB_RUN_ID, and the run's page on GitHub: where a purge mark points. */
  runId: string
  runUrl: string
}

/** A full commit SHA, as GitHub writes them. */
const FULL_SHA = /^[0-9a-f]{40}$/i

/**
 * The commit a run deploys, which its purge marks name and its ranges end at. GITHUB_SHA is not
 * always it: on `workflow_run` it is the default branch's newest commit, which may be newer than
 * the one the triggering workflow built; on a pull request it is the merge commit GitHub makes for
 * the run, rebuilt on every push and soon forgotten, so the pull request's head is named instead.
 */
export function deployedCommit(event: Pick<RunEvent, 'eventName' | 'sha' | 'payload'>): string {
  const { payload } = event
  if (event.eventName === 'workflow_run') {
    const ranOn = (payload.workflow_run as { head_sha?: unknown } | undefined)?.head_sha
    // Only a full SHA goes into a purge mark: any other would be a base no later compare can use.
    return typeof ranOn === 'string' && FULL_SHA.test(ranOn) ? ranOn : event.sha
  }
  const pullRequest = payload.pull_request as { head?: { sha?: unknown } } | undefined
  const head = pullRequest?.head?.sha
  if (typeof head === 'string' && head !== '') return head
  const after = payload.after
  if (event.eventName === 'push' && typeof after === 'string' && after !== '') return after
  return event.sha
}

/** A file as a comparison lists it. */
export interface FileEntry {
  filename: string
  status: string
  previous_filename?: string
}

/** The first page of the comparison `base...head`: the only one that lists files. */
export interface ComparisonPage {
  /** `ahead` or `identical` when base is an ancestor of head; `behind` or `diverged` otherwise. */
  status: string
  totalCommits: number
  /** The full SHA of the base, which may have been given as a branch or tag. */
  baseSha: string
  /** At most 300 for the whole comparison; GitHub may leave them out. */
  files: FileEntry[] | undefined
}

/** One page of a list, and the page GitHub's `Link` names next (`undefined` on the last page). */
export interface Page<T> {
  items: T[]
  nextPage: number | undefined
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

/** A deployment as the purge marks' reader sees it. */
export interface DeploymentEntry {
  id: number
  /** The commit it was made for. */
  sha: string
  payload: unknown
}

/** What a new deployment says: the fields a purge mark sets. */
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
  compare(base: string, head: string): Promise<ComparisonPage>
  /** One page of the repository's releases, as GitHub describes them. */
  releases(page: number): Promise<Page<unknown>>
  /** A commit's whole tree, every file listed by path. */
  tree(sha: string): Promise<CommitTree>
  /** One page of an environment's deployments, newest first. */
  deployments(environment: string, page: number): Promise<Page<DeploymentEntry>>
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

/**
 * The bounds every GitHub call keeps, as every purge call does: `max-attempts` attempts, each ended
 * at `timeout` or at the run's cancel, and waits no longer than a purge call would wait.
 */
export interface GitHubLimits {
  maxAttempts: number
  timeoutMs: number
  clock: Clock
  /** The run's cancel: it ends the attempt in flight and every wait. */
  signal: AbortSignal
  /** Where a retried call is told. */
  log: { info(line: string): void }
  /** The run's guard: GitHub's words reach the stages with its secrets hidden. */
  guard: { redact(text: string): string }
}

/**
 * Opens the run's repository with the token the runner door holds: the GitHub client loads only
 * when this is called.
 */
export type OpenGitHub = (limits: GitHubLimits) => Promise<GitHubRepository>

/**
 * A GitHub call that failed after its attempts: GitHub's status and message, or why no answer
 * came. `rateLimited` when GitHub refused it for a rate limit, which no permission fixes;
 * `inTheWay` when something between the runner and GitHub (a proxy, a certificate, a sign-in page)
 * failed it, which a re-run alone does not get past.
 */
export class GitHubCallError extends Error {
  override name = 'GitHubCallError'
  constructor(
    message: string,
    readonly status: number | undefined,
    readonly rateLimited: boolean,
    readonly inTheWay = false
  ) {
    super(message)
  }
}

/** The HTTP status a failed GitHub call answered, when it got an answer. */
export function statusOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null || !('status' in error)) return undefined
  return typeof error.status === 'number' ? error.status : undefined
}

/** What GitHub answered a failed call: its status and message, or why no answer came. */
export function answerOf(error: unknown, message: string): string {
  const status = statusOf(error)
  return status === undefined || isRateLimited(error) ? message : `${status}: ${message}`
}

/** Whether the call failed on something in the way of GitHub, to fix before a re-run can pass. */
export function isInTheWay(error: unknown): boolean {
  return error instanceof GitHubCallError && error.inTheWay
}

/** Whether GitHub refused the call for a rate limit: its 403 is then no missing permission. */
export function isRateLimited(error: unknown): boolean {
  return error instanceof GitHubCallError && error.rateLimited
}

/**
 * Reads page 1 and each page GitHub names next, handing each to `visit` until it returns true.
 * A `Link` that names a page already read ends the walk; a walk that would read more than
 * `mostPages` fails, so a list that never ends is neither followed for ever nor taken as whole.
 */
export async function walkPages<T extends { nextPage: number | undefined }>(
  read: (page: number) => Promise<T>,
  mostPages: number,
  what: string,
  visit: (answer: T) => boolean | Promise<boolean>
): Promise<void> {
  const pagesRead = new Set<number>()
  for (let page: number | undefined = 1; page !== undefined && !pagesRead.has(page);) {
    if (pagesRead.size === mostPages) {
      throw new Error(`GitHub names more than ${mostPages} pages of ${what}, more than a run reads`)
    }
    pagesRead.add(page)
    const answer = await read(page)
    if (await visit(answer)) return
    page = answer.nextPage
  }
}
