/**
 * The files a range changed, listed through the GitHub API page by page: the comparison's own list
 * when it is whole, else every commit's files, united. Also how any changed-files call to GitHub
 * fails: one message naming what was attempted.
 */
import {
  answerOf,
  isRateLimited,
  statusOf,
  walkPages,
  type ComparisonPage,
  type FileEntry,
  type GitHubRepository
} from '../../github.js'
import type { ComparedRange } from '../../record/index.js'
import { InputError } from '../../config/input-error.js'
import { redact } from '../../text/guard.js'
import { messageOf } from '../../text/message.js'
import { describeRange, shortRef, type CommitRange } from './range.js'

/** GitHub lists at most this many files for a whole comparison; a list this long may be cut. */
const COMPARE_FILE_LIMIT = 300
/** GitHub lists at most this many files of one commit, across all pages. */
const COMMIT_FILE_LIMIT = 3000
/** Files per page of a commit, as the client asks: 3,000 files fill 10 pages. */
const COMMIT_FILE_PAGES = 10
/** The most commits a range's files are gathered from one by one: a call each, and 3 pages of them. */
const MOST_COMMITS = 250
const COMMIT_PAGES = 3

/** The files a range changed: what the report says besides the range itself. */
type ChangedFiles = Pick<ComparedRange, 'files' | 'commits' | 'method'>

/**
 * What comparing `base...head` found: base an ancestor of head (or head itself), with the first
 * page; histories that part (`behind`, `diverged`), with GitHub's status; or a base or head GitHub
 * does not know.
 */
export type Comparison =
  | { kind: 'ancestor'; page: ComparisonPage }
  | { kind: 'unrelated'; status: string }
  | { kind: 'unknown' }

/** Compares `base...head`, reading the first page: files come only there. */
export async function compare(
  github: GitHubRepository,
  base: string,
  head: string
): Promise<Comparison> {
  try {
    const page = await github.compare(base, head, 1)
    if (page.status !== 'ahead' && page.status !== 'identical') {
      return { kind: 'unrelated', status: page.status }
    }
    return { kind: 'ancestor', page }
  } catch (error) {
    if (statusOf(error) === 404) return { kind: 'unknown' }
    throw apiError(error, github, `compare ${shortRef(base)}...${shortRef(head)}`)
  }
}

/**
 * Whether a comparison's own file list holds every file it changed: GitHub lists at most 300, so a
 * list of 300 may be cut, and a missing list says nothing.
 */
export function listsEveryFile(
  page: ComparisonPage
): page is ComparisonPage & { files: FileEntry[] } {
  return page.files !== undefined && page.files.length < COMPARE_FILE_LIMIT
}

/** The files a range changed, and how the log describes it. */
export async function filesOfRange(
  github: GitHubRepository,
  range: CommitRange
): Promise<ComparedRange> {
  const listed = await listChangedFiles(github, range)
  return {
    ...listed,
    base: range.base,
    baseSha: range.comparison.baseSha,
    head: range.head,
    source: range.origin,
    description: describeRange(
      range.origin,
      range.base,
      range.head,
      range.comparison.totalCommits,
      range.label
    ),
    notes: range.notes
  }
}

/**
 * Lists the files the range changed. The comparison's own list is used when it is shorter than
 * 300 files; at 300 it may be cut, so the files are gathered commit by commit instead (each commit
 * lists up to 3,000) and united. A commit at 3,000 fails: its list may be cut, and a missed file
 * would stay stale without anyone knowing.
 */
async function listChangedFiles(
  github: GitHubRepository,
  range: CommitRange
): Promise<ChangedFiles> {
  const { comparison } = range
  const { totalCommits } = comparison
  if (listsEveryFile(comparison)) {
    return { files: sortedNames(comparison.files), commits: totalCommits, method: 'compare' }
  }
  if (totalCommits > MOST_COMMITS) {
    throw new InputError(
      `changed-files: ${shortRef(range.base)}...${shortRef(range.head)} changes ${COMPARE_FILE_LIMIT} files or more over ${count(totalCommits)} commits, and listing them commit by commit stops at ${MOST_COMMITS} commits (a GitHub call each); purge everything with mode: all`
    )
  }
  const shas = await comparisonCommits(github, range)
  if (shas.length !== totalCommits) {
    throw new Error(
      `GitHub listed ${shas.length} of the ${totalCommits} commits in ${shortRef(range.base)}...${shortRef(range.head)}, so the changed files cannot all be known; purge everything with mode: all`
    )
  }
  const entries: FileEntry[] = []
  // One request at a time, as GitHub asks of API clients to stay clear of secondary rate limits.
  for (const sha of shas) entries.push(...(await commitFiles(github, sha)))
  return { files: sortedNames(entries), commits: totalCommits, method: 'per-commit' }
}

/** Every commit of the comparison, oldest first, page by page. */
async function comparisonCommits(github: GitHubRepository, range: CommitRange): Promise<string[]> {
  const shas: string[] = []
  const what = `the commits of ${shortRef(range.base)}...${shortRef(range.head)}`
  try {
    await walkPages(
      (page) => github.compare(range.base, range.head, page),
      COMMIT_PAGES,
      what,
      (answer) => {
        shas.push(...answer.commits)
        return false
      }
    )
  } catch (error) {
    throw apiError(error, github, `list ${what}`)
  }
  return shas
}

/** One commit's file entries, across its pages; fails when GitHub's 3,000-file cap is reached. */
async function commitFiles(github: GitHubRepository, sha: string): Promise<FileEntry[]> {
  const entries: FileEntry[] = []
  try {
    await walkPages(
      (page) => github.commitFiles(sha, page),
      COMMIT_FILE_PAGES,
      `the files of commit ${shortRef(sha)}`,
      ({ items }) => {
        entries.push(...items)
        return entries.length >= COMMIT_FILE_LIMIT
      }
    )
  } catch (error) {
    throw apiError(error, github, `read commit ${shortRef(sha)}`)
  }
  if (entries.length >= COMMIT_FILE_LIMIT) {
    throw new InputError(
      `changed-files: commit ${shortRef(sha)} changes at least ${count(COMMIT_FILE_LIMIT)} files, the most GitHub lists for one commit, so the files this deploy changed cannot all be known. Purge everything with mode: all instead`
    )
  }
  return entries
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

/**
 * An API failure as a message naming what was attempted; a refused token is the user's to fix. A
 * server (or a proxy before it) can echo the token back: the guard hides it in every spelling.
 */
export function apiError(error: unknown, github: GitHubRepository, what: string): Error {
  const status = statusOf(error)
  const reason = redact(messageOf(error))
  const repository = `${github.owner}/${github.repo}`
  if (status === 401) {
    return new InputError(`github-token: GitHub rejected the token (401: ${reason})`)
  }
  if (status === 403 && !isRateLimited(error)) {
    return new InputError(
      `github-token: GitHub refused to ${what} in ${repository} (403: ${reason}); the token needs contents: read`
    )
  }
  return new Error(`GitHub API: could not ${what} in ${repository}: ${answerOf(error, reason)}`)
}

function count(value: number): string {
  return value.toLocaleString('en-US')
}
