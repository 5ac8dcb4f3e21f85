/**
 * The files a run's commits changed, read from GitHub's REST API. `@actions/github` is imported on
 * demand, never statically: it pulls in Octokit, most of the bundle, and only `changed-files` runs
 * need it. It reaches the API at GITHUB_API_URL (GitHub Enterprise, or a fake in tests).
 */
import * as core from '@actions/core'
import type { getOctokit } from '@actions/github'
import {
  describeRange,
  eventRange,
  previousRelease,
  releaseInfo,
  shortRef,
  type RangeOrigin,
  type ReleaseInfo,
  type RunEvent
} from './range.js'
import { redactor } from '../../text/secrets.js'
import { InputError } from '../../config/targets.js'
import { shorten } from '../../text/shown.js'

type Octokit = ReturnType<typeof getOctokit>

/** The repository to read and the token to read it with (the caller masks the token). */
export interface GitHubAccess {
  githubToken: string
  owner: string
  repo: string
}

/** GitHub lists at most this many files for a whole comparison; a list this long may be cut. */
export const COMPARE_FILE_LIMIT = 300
/** GitHub lists at most this many files of one commit, across all pages. */
export const COMMIT_FILE_LIMIT = 3000
const COMMITS_PER_PAGE = 100
const FILES_PER_PAGE = 300

/** A file entry as the compare and commit endpoints list it. */
interface FileEntry {
  filename: string
  status: string
  previous_filename?: string
}

/** The first page of a comparison: resolving a range reads it anyway, to check ancestry. */
export interface ComparisonPage {
  totalCommits: number
  /** Absent when GitHub left the file list out. */
  files: FileEntry[] | undefined
}

/** The commits to take changed files from: `base...head`, base an ancestor of head. */
export interface CommitRange {
  base: string
  head: string
  origin: RangeOrigin
  /** The release's tag, when origin is `release`. */
  label?: string
  /** Why the event's own range was not used, or other things the log should say. */
  notes: string[]
  comparison: ComparisonPage
}

export interface ChangedFiles {
  /** Every path added, modified, removed or renamed (old and new name), sorted, each once. */
  files: string[]
  commits: number
  /** `per-commit` when the comparison listed 300 files and the list may have been cut. */
  method: 'compare' | 'per-commit'
}

export interface ChangedFilesReport extends ChangedFiles {
  base: string
  head: string
  origin: RangeOrigin
  /** For logs: `push abc1234...def5678 (3 commits)`. */
  description: string
  notes: string[]
}

/** The run's event and repository, as `@actions/github` reads them from the runner. */
export async function readRunEvent(): Promise<{ event: RunEvent; owner: string; repo: string }> {
  const { context } = await import('@actions/github')
  const { owner, repo } = context.repo
  // Typed as strings, but unset outside a real workflow run.
  const event: RunEvent = {
    eventName: context.eventName ?? '',
    sha: context.sha ?? '',
    payload: context.payload
  }
  return { event, owner, repo }
}

/** Resolves the run's range, then lists the files it changed: the one call a run needs. */
export async function findChangedFiles(
  access: GitHubAccess,
  event: RunEvent,
  changedSince: string
): Promise<ChangedFilesReport> {
  const range = await resolveRange(access, event, changedSince)
  // No commit between base and head: GitHub compares them as identical.
  if (range.comparison.totalCommits === 0) core.warning(sameCommitWarning(range))
  const listed = await listChangedFiles(access, range)
  return {
    ...listed,
    base: range.base,
    head: range.head,
    origin: range.origin,
    description: describeRange(range.origin, range.base, range.head, listed.commits, range.label),
    notes: range.notes
  }
}

/**
 * A range from a commit to itself lists no file, so nothing would be purged for it without a word:
 * typically `changed-since` naming the branch this run deploys, which already points at its head.
 */
function sameCommitWarning(range: CommitRange): string {
  const head = shortRef(range.head)
  if (range.origin === 'changed-since') {
    return `changed-files: changed-since ${shorten(range.base)} is the same commit as this run's ${head}, so comparing them finds no changed file and nothing is purged for changed files. Set changed-since to a commit before this deploy (the last one deployed), not to a branch this run has already moved`
  }
  const base =
    range.origin === 'release'
      ? `the previous release ${range.base}`
      : `this push's before ${shortRef(range.base)}`
  return `changed-files: ${base} is the same commit as ${head}, so comparing them finds no changed file and nothing is purged for changed files`
}

type Comparison =
  | { kind: 'ancestor'; page: ComparisonPage }
  | { kind: 'unrelated'; status: string }
  | { kind: 'unknown' }

/**
 * Which commits to compare. The event's own range comes first (`push`: `before...after`, the whole
 * push; `release`: the previous release's tag); `changed-since` is used when the event has none or
 * its base is unusable (a new branch, a force-push, a first release), and is required for every
 * other event. The base must be an ancestor of the head: otherwise the comparison would start at
 * their merge base and miss files changed only on the base's side, so this fails instead.
 */
export async function resolveRange(
  access: GitHubAccess,
  event: RunEvent,
  changedSince: string
): Promise<CommitRange> {
  const octokit = await connect(access)
  const own = eventRange(event)
  const notes: string[] = []
  const unused = `changed-since (${shorten(changedSince)}) is used only when the event's own range cannot be, so it was not needed`
  let problem: string
  if (own.kind === 'deleted-branch') {
    throw new InputError(
      `changed-files: this push deleted ${own.ref || 'the branch'}; it has no new commit to take changed files from`
    )
  } else if (own.kind === 'push') {
    const comparison = await compare(octokit, access, own.base, own.head)
    if (comparison.kind === 'ancestor') {
      if (changedSince !== '') notes.push(unused)
      return { base: own.base, head: own.head, origin: 'push', notes, comparison: comparison.page }
    }
    problem = pushProblem(own.base, own.head, own.forced, comparison)
  } else if (own.kind === 'new-branch') {
    problem = `this push created ${own.ref || 'the branch'} (its before is 0000000), so the branch has no earlier commit to compare against`
  } else if (own.kind === 'release') {
    const tag = own.release.tagName
    const previous = await findPreviousRelease(octokit, access, own.release)
    if (previous === undefined) {
      problem = `${tag} is the first published release, so there is no earlier release to compare against`
    } else {
      const comparison = await compare(octokit, access, previous.tagName, own.head)
      if (comparison.kind === 'ancestor') {
        if (changedSince !== '') notes.push(unused)
        const base = previous.tagName
        const range = { base, head: own.head, origin: 'release' as const, label: tag, notes }
        return { ...range, comparison: comparison.page }
      }
      problem =
        comparison.kind === 'unknown'
          ? `the previous release's tag ${previous.tagName} is unknown to GitHub`
          : `the previous release ${previous.tagName} is not an ancestor of ${tag} (GitHub compares them as ${comparison.status})`
    }
  } else {
    if (changedSince === '') {
      throw new InputError(
        `changed-since is required for ${event.eventName === '' ? 'runs outside a workflow event' : `${event.eventName} events`}: the commits to compare are found automatically only for push (its before) and release (the previous release) events. Set changed-since to the commit, branch or tag the site was last deployed from, or purge everything with mode: all`
      )
    }
    return fromChangedSince(octokit, access, changedSince, own.head, notes, undefined)
  }
  if (changedSince === '') {
    throw new InputError(
      `changed-since: ${problem}. Set changed-since to the commit, branch or tag the site was last deployed from, or purge everything with mode: all`
    )
  }
  notes.push(
    `${capitalize(problem)}; comparing against changed-since ${shorten(changedSince)} instead`
  )
  return fromChangedSince(octokit, access, changedSince, own.head, notes, problem)
}

async function fromChangedSince(
  octokit: Octokit,
  access: GitHubAccess,
  changedSince: string,
  head: string,
  notes: string[],
  problem: string | undefined
): Promise<CommitRange> {
  const comparison = await compare(octokit, access, changedSince, head)
  const why = problem === undefined ? '' : ` (needed because ${problem})`
  if (comparison.kind === 'unknown') {
    throw new InputError(
      `changed-since: ${shorten(changedSince)} is not a commit, branch or tag GitHub knows in ${access.owner}/${access.repo}${why}; give a full commit SHA, branch or tag, or use mode: all`
    )
  }
  if (comparison.kind === 'unrelated') {
    throw new InputError(
      `changed-since: ${shorten(changedSince)} is not an ancestor of ${shortRef(head)} (GitHub compares them as ${comparison.status}), so files changed only on its side would be missed${why}; give a commit that ${shortRef(head)} contains, or use mode: all`
    )
  }
  return { base: changedSince, head, origin: 'changed-since', notes, comparison: comparison.page }
}

function pushProblem(
  before: string,
  after: string,
  forced: boolean,
  comparison: Exclude<Comparison, { kind: 'ancestor' }>
): string {
  const push = forced ? 'this push was forced: its' : "this push's"
  if (comparison.kind === 'unknown') {
    return `${push} before ${shortRef(before)} is unknown to GitHub (a force-push can leave it unreachable), so the files the push replaced cannot be listed`
  }
  const how =
    comparison.status === 'behind'
      ? `the push moved the branch back (GitHub compares them as behind)`
      : `GitHub compares them as ${comparison.status}`
  return `${push} before ${shortRef(before)} is not an ancestor of its after ${shortRef(after)} (${how}), so the files the push replaced cannot be listed`
}

/** Compares `base...head`, reading the first page: files come only there. */
async function compare(
  octokit: Octokit,
  access: GitHubAccess,
  base: string,
  head: string
): Promise<Comparison> {
  try {
    const { data } = await octokit.request('GET /repos/{owner}/{repo}/compare/{basehead}', {
      owner: access.owner,
      repo: access.repo,
      basehead: `${base}...${head}`,
      per_page: COMMITS_PER_PAGE,
      page: 1
    })
    if (data.status !== 'ahead' && data.status !== 'identical') {
      return { kind: 'unrelated', status: data.status }
    }
    return { kind: 'ancestor', page: { totalCommits: data.total_commits, files: data.files } }
  } catch (error) {
    if (statusOf(error) === 404) return { kind: 'unknown' }
    throw apiError(error, access, `compare ${shortRef(base)}...${shortRef(head)}`)
  }
}

async function findPreviousRelease(
  octokit: Octokit,
  access: GitHubAccess,
  current: ReleaseInfo
): Promise<ReleaseInfo | undefined> {
  try {
    const releases = await octokit.paginate('GET /repos/{owner}/{repo}/releases', {
      owner: access.owner,
      repo: access.repo,
      per_page: 100
    })
    const known = releases
      .map((release) => releaseInfo(release))
      .filter((release): release is ReleaseInfo => release !== undefined)
    return previousRelease(known, current)
  } catch (error) {
    throw apiError(error, access, 'list releases')
  }
}

/**
 * Lists the files the range changed. The comparison's own list is used when it is shorter than
 * 300 files; at 300 it may be cut, so the files are gathered commit by commit instead (each commit
 * lists up to 3,000) and united. A commit at 3,000 fails: its list may be cut, and a missed file
 * would stay stale without anyone knowing.
 */
export async function listChangedFiles(
  access: GitHubAccess,
  range: CommitRange
): Promise<ChangedFiles> {
  const { files, totalCommits } = range.comparison
  if (files !== undefined && files.length < COMPARE_FILE_LIMIT) {
    return { files: sortedNames(files), commits: totalCommits, method: 'compare' }
  }
  const octokit = await connect(access)
  const shas = await comparisonCommits(octokit, access, range)
  if (shas.length !== totalCommits) {
    throw new Error(
      `GitHub listed ${shas.length} of the ${totalCommits} commits in ${shortRef(range.base)}...${shortRef(range.head)}, so the changed files cannot all be known; purge everything with mode: all`
    )
  }
  const entries: FileEntry[] = []
  // One request at a time, as GitHub asks of API clients to stay clear of secondary rate limits.
  for (const sha of shas) entries.push(...(await commitFiles(octokit, access, sha)))
  return { files: sortedNames(entries), commits: totalCommits, method: 'per-commit' }
}

/** Every commit of the comparison, oldest first, page by page. */
async function comparisonCommits(
  octokit: Octokit,
  access: GitHubAccess,
  range: CommitRange
): Promise<string[]> {
  const shas: string[] = []
  try {
    await eachPage(
      (page) =>
        octokit.request('GET /repos/{owner}/{repo}/compare/{basehead}', {
          owner: access.owner,
          repo: access.repo,
          basehead: `${range.base}...${range.head}`,
          per_page: COMMITS_PER_PAGE,
          page
        }),
      (data) => shas.push(...data.commits.map((commit) => commit.sha))
    )
  } catch (error) {
    const what = `list the commits of ${shortRef(range.base)}...${shortRef(range.head)}`
    throw apiError(error, access, what)
  }
  return shas
}

/** One commit's file entries, across its pages; fails when GitHub's 3,000-file cap is reached. */
async function commitFiles(
  octokit: Octokit,
  access: GitHubAccess,
  sha: string
): Promise<FileEntry[]> {
  const entries: FileEntry[] = []
  try {
    await eachPage(
      (page) =>
        octokit.request('GET /repos/{owner}/{repo}/commits/{ref}', {
          owner: access.owner,
          repo: access.repo,
          ref: sha,
          per_page: FILES_PER_PAGE,
          page
        }),
      (data) => entries.push(...(data.files ?? []))
    )
  } catch (error) {
    throw apiError(error, access, `read commit ${shortRef(sha)}`)
  }
  if (entries.length >= COMMIT_FILE_LIMIT) {
    throw new InputError(
      `changed-files: commit ${shortRef(sha)} changes at least ${count(COMMIT_FILE_LIMIT)} files, the most GitHub lists for one commit, so the files this deploy changed cannot all be known. Purge everything with mode: all instead`
    )
  }
  return entries
}

/**
 * Requests page 1, 2, ... while GitHub's `Link` header names a next page. Not `octokit.paginate`:
 * its types assume these two endpoints' answers are bare lists, which they are not.
 */
async function eachPage<T>(
  request: (page: number) => Promise<{ data: T; headers: { link?: string } }>,
  visit: (data: T) => void
): Promise<void> {
  for (let page = 1; ; page += 1) {
    const response = await request(page)
    visit(response.data)
    if (!/<[^<>]+>;\s*rel="next"/.test(response.headers.link ?? '')) return
  }
}

/** The paths of file entries, a rename under its old name and its new one, sorted, each once. */
function sortedNames(entries: FileEntry[]): string[] {
  const names = new Set<string>()
  for (const entry of entries) {
    names.add(entry.filename)
    if (entry.status === 'renamed' && entry.previous_filename !== undefined) {
      names.add(entry.previous_filename)
    }
  }
  return [...names].sort()
}

async function connect(access: GitHubAccess): Promise<Octokit> {
  const { getOctokit } = await import('@actions/github')
  // Read now rather than when @actions/github was first loaded, so a changed GITHUB_API_URL is used.
  const baseUrl = process.env.GITHUB_API_URL || 'https://api.github.com'
  return getOctokit(access.githubToken, { baseUrl })
}

function statusOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null || !('status' in error)) return undefined
  return typeof error.status === 'number' ? error.status : undefined
}

/** An API failure as a message naming what was attempted; a refused token is the user's to fix. */
function apiError(error: unknown, access: GitHubAccess, what: string): Error {
  const status = statusOf(error)
  // A server (or a proxy before it) can echo the token back, in any spelling.
  const reason = redactor([access.githubToken])(
    error instanceof Error ? error.message : String(error)
  )
  const repository = `${access.owner}/${access.repo}`
  if (status === 401) {
    return new InputError(`github-token: GitHub rejected the token (401: ${reason})`)
  }
  if (status === 403) {
    return new InputError(
      `github-token: GitHub refused to ${what} in ${repository} (403: ${reason}); the token needs contents: read`
    )
  }
  return new Error(`GitHub API: could not ${what} in ${repository}: ${reason}`)
}

function count(value: number): string {
  return value.toLocaleString('en-US')
}

function capitalize(sentence: string): string {
  return sentence.charAt(0).toUpperCase() + sentence.slice(1)
}
