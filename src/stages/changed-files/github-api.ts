/**
 * The files a run's commits changed, read through the GitHub API the runner door hands in: which
 * commits to compare for the run's event, and every file they changed.
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
import type { StepLog } from '../../log.js'
import type { BaseSource, ComparedRange } from '../../record.js'
import { InputError } from '../../config/targets.js'
import { redact } from '../../text/guard.js'
import { shorten } from '../../text/shown.js'
import {
  describeRange,
  eventRange,
  previousRelease,
  releaseInfo,
  shortRef,
  type ReleaseInfo
} from './range.js'
import { messageOf } from '../../text/message.js'

/** GitHub lists at most this many files for a whole comparison; a list this long may be cut. */
export const COMPARE_FILE_LIMIT = 300
/** GitHub lists at most this many files of one commit, across all pages. */
export const COMMIT_FILE_LIMIT = 3000
/** Files per page of a commit, as the client asks: 3,000 files fill 10 pages. */
const COMMIT_FILE_PAGES = 10
/** The most commits a range's files are gathered from one by one: a call each, and 3 pages of them. */
export const MOST_COMMITS = 250
const COMMIT_PAGES = 3
/** Releases read to find the one before this run's: 10 pages of 100, newest first. */
const RELEASE_PAGES = 10

/** The commits to take changed files from: `base...head`, base an ancestor of head. */
export interface CommitRange {
  base: string
  head: string
  origin: BaseSource
  /** The release's tag, when origin is `release`; which record, when origin is `record`. */
  label?: string
  /** Why the event's own range was not used, or other things the log should say. */
  notes: string[]
  comparison: ComparisonPage
}

/** The files a range changed: what the report says besides the range itself. */
type ChangedFiles = Pick<ComparedRange, 'files' | 'commits' | 'method'>

/** Resolves the run's range, then lists the files it changed: the one call a run needs. */
export async function findChangedFiles(
  github: GitHubRepository,
  changedSince: string,
  log: StepLog
): Promise<ComparedRange> {
  const range = await resolveRange(github, changedSince)
  // No commit between base and head: GitHub compares them as identical.
  if (range.comparison.totalCommits === 0) log.warning(sameCommitWarning(range))
  return filesOfRange(github, range)
}

/** The files a resolved range changed, and how the log describes it. */
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
 * A range from a commit to itself lists no file, so nothing would be purged for it without a word:
 * typically `changed-since` naming the branch this run deploys, which already points at its head.
 */
function sameCommitWarning(range: CommitRange): string {
  const head = shortRef(range.head)
  if (range.origin === 'input') {
    return `changed-files: changed-since ${shorten(range.base)} is the same commit as this run's ${head}, so comparing them finds no changed file and nothing is purged for changed files. Set changed-since to a commit before this deploy (the last one deployed), not to a branch this run has already moved`
  }
  const base =
    range.origin === 'release'
      ? `the previous release ${range.base}`
      : `this push's before ${shortRef(range.base)}`
  return `changed-files: ${base} is the same commit as ${head}, so comparing them finds no changed file and nothing is purged for changed files`
}

export type Comparison =
  | { kind: 'ancestor'; page: ComparisonPage }
  | { kind: 'unrelated'; status: string }
  | { kind: 'unknown' }

/**
 * Which commits to compare. The event's own range comes first (`push`: `before...after`, the whole
 * push; `release`: the previous release's tag); `changed-since` is used when the event has none or
 * its base is unusable (a new branch, a force-push, a first release), and is required then. The
 * base must be an ancestor of the head: otherwise the comparison would start at their merge base
 * and miss files changed only on the base's side, so this fails instead.
 */
export async function resolveRange(
  github: GitHubRepository,
  changedSince: string
): Promise<CommitRange> {
  const own = await ownRange(github)
  if (own.kind === 'usable') {
    const unused = `changed-since (${shorten(changedSince)}) is used only when the event's own range cannot be, so it was not needed`
    return changedSince === '' ? own.range : { ...own.range, notes: [unused] }
  }
  const { eventName } = github.event
  if (changedSince === '') {
    throw new InputError(
      own.kind === 'none'
        ? `changed-since is required for ${eventName === '' ? 'runs outside a workflow event' : `${eventName} events`}: the commits to compare are found automatically only for push (its before) and release (the previous release) events. ${HOW_TO_SET_CHANGED_SINCE}`
        : `changed-since: ${own.problem}. ${HOW_TO_SET_CHANGED_SINCE}`
    )
  }
  const problem = own.kind === 'unusable' ? own.problem : undefined
  return fromChangedSince(github, changedSince, own.head, problem)
}

const HOW_TO_SET_CHANGED_SINCE =
  'Set changed-since to the commit, branch or tag the site was last deployed from, or purge everything with mode: all'

/** The event's own range: usable, unusable and why, or none (an event that names no commits). */
export type OwnRange =
  | { kind: 'usable'; range: CommitRange }
  | { kind: 'unusable'; head: string; problem: string }
  | { kind: 'none'; head: string }

export async function ownRange(github: GitHubRepository): Promise<OwnRange> {
  const own = eventRange(github.event)
  switch (own.kind) {
    case 'deleted-branch':
      throw new InputError(
        `changed-files: this push deleted ${own.ref || 'the branch'}; it has no new commit to take changed files from`
      )
    case 'push': {
      const comparison = await compare(github, own.base, own.head)
      if (comparison.kind === 'ancestor') {
        const range = { base: own.base, head: own.head, origin: 'push' as const, notes: [] }
        return { kind: 'usable', range: { ...range, comparison: comparison.page } }
      }
      const problem = pushProblem(own.base, own.head, own.forced, comparison)
      return { kind: 'unusable', head: own.head, problem }
    }
    case 'new-branch':
      return {
        kind: 'unusable',
        head: own.head,
        problem: `this push created ${own.ref || 'the branch'} (its before is 0000000), so the branch has no earlier commit to compare against`
      }
    case 'release':
      return releaseRange(github, own.release, own.head)
    case 'none':
      return { kind: 'none', head: own.head }
  }
}

/** A release is compared against the release published before it. */
async function releaseRange(
  github: GitHubRepository,
  release: ReleaseInfo,
  head: string
): Promise<OwnRange> {
  const tag = release.tagName
  const previous = await findPreviousRelease(github, release)
  if (previous === undefined) {
    const problem = `${tag} is the first published release, so there is no earlier release to compare against`
    return { kind: 'unusable', head, problem }
  }
  const comparison = await compare(github, previous.tagName, head)
  if (comparison.kind === 'ancestor') {
    const range = {
      base: previous.tagName,
      head,
      origin: 'release' as const,
      label: tag,
      notes: []
    }
    return { kind: 'usable', range: { ...range, comparison: comparison.page } }
  }
  const problem =
    comparison.kind === 'unknown'
      ? `the previous release's tag ${previous.tagName} is unknown to GitHub`
      : `the previous release ${previous.tagName} is not an ancestor of ${tag} (GitHub compares them as ${comparison.status})`
  return { kind: 'unusable', head, problem }
}

/** `changed-since...head`; `problem` says why the event's own range could not be used. */
async function fromChangedSince(
  github: GitHubRepository,
  changedSince: string,
  head: string,
  problem: string | undefined
): Promise<CommitRange> {
  const notes =
    problem === undefined
      ? []
      : [`${capitalize(problem)}; comparing against changed-since ${shorten(changedSince)} instead`]
  const comparison = await compare(github, changedSince, head)
  const why = problem === undefined ? '' : ` (needed because ${problem})`
  if (comparison.kind === 'unknown') {
    throw new InputError(
      `changed-since: ${shorten(changedSince)} is not a commit, branch or tag GitHub knows in ${github.owner}/${github.repo}${why}; give a full commit SHA, branch or tag, or use mode: all`
    )
  }
  if (comparison.kind === 'unrelated') {
    throw new InputError(
      `changed-since: ${shorten(changedSince)} is not an ancestor of ${shortRef(head)} (GitHub compares them as ${comparison.status}), so files changed only on its side would be missed${why}; give a commit that ${shortRef(head)} contains, or use mode: all`
    )
  }
  return { base: changedSince, head, origin: 'input', notes, comparison: comparison.page }
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

async function findPreviousRelease(
  github: GitHubRepository,
  current: ReleaseInfo
): Promise<ReleaseInfo | undefined> {
  const known: ReleaseInfo[] = []
  try {
    await walkPages(
      (page) => github.releases(page),
      RELEASE_PAGES,
      'releases',
      ({ items }) => {
        for (const release of items) {
          const info = releaseInfo(release)
          if (info !== undefined) known.push(info)
        }
        return false
      }
    )
  } catch (error) {
    throw apiError(error, github, 'list releases')
  }
  return previousRelease(known, current)
}

/**
 * Lists the files the range changed. The comparison's own list is used when it is shorter than
 * 300 files; at 300 it may be cut, so the files are gathered commit by commit instead (each commit
 * lists up to 3,000) and united. A commit at 3,000 fails: its list may be cut, and a missed file
 * would stay stale without anyone knowing.
 */
export async function listChangedFiles(
  github: GitHubRepository,
  range: CommitRange
): Promise<ChangedFiles> {
  const { files, totalCommits } = range.comparison
  if (files !== undefined && files.length < COMPARE_FILE_LIMIT) {
    return { files: sortedNames(files), commits: totalCommits, method: 'compare' }
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

function capitalize(sentence: string): string {
  return sentence.charAt(0).toUpperCase() + sentence.slice(1)
}
