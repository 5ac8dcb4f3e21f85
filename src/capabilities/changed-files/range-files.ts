/**
 * The files a range changed, listed through the GitHub API: the comparison's own list when it is
 * whole, else the difference of the two commits' trees.
 */
import {
  statusOf,
  type ComparisonPage,
  type FileEntry,
  type GitHubRepository
} from '../../github.js'
import type { ComparedRange } from './record.js'
import { apiError } from './api-error.js'
import { describeRange, shortRef, type CommitRange } from './range.js'
import { treeDifference } from './tree-difference.js'

/** GitHub lists at most this many files for a whole comparison; a list this long may be cut. */
const COMPARE_FILE_LIMIT = 300

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
    const page = await github.compare(base, head)
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

/**
 * The files a range changed, and how the log describes it. The comparison's own list is used when
 * it is shorter than 300 files; at 300 it may be cut, so the two commits' trees are compared
 * instead: 2 calls, however many commits the range holds (a call per commit would spend the
 * token's 1,000 calls an hour).
 */
export async function filesOfRange(
  github: GitHubRepository,
  range: CommitRange
): Promise<ComparedRange> {
  const { base, head, origin, notes, comparison } = range
  const { baseSha, totalCommits: commits } = comparison
  const description = describeRange(range, commits)
  const described = { base, baseSha, head, source: origin, description, notes }
  if (listsEveryFile(comparison)) {
    return { files: sortedNames(comparison.files), commits, method: 'compare', ...described }
  }
  const files = await treeDifference(github, baseSha, head, {
    input: 'changed-files',
    baseUnknown: `GitHub does not know the base commit ${shortRef(baseSha)}`,
    instead: 'purge everything with mode: all'
  })
  return { files, commits, method: 'trees', ...described }
}

/** The paths of file entries, a rename under its old name and its new one, sorted, each once. */
function sortedNames(entries: FileEntry[]): string[] {
  const names = entries.flatMap(({ filename, status, previous_filename }) =>
    status === 'renamed' && previous_filename !== undefined
      ? [filename, previous_filename]
      : [filename]
  )
  return [...new Set(names)].sort()
}
