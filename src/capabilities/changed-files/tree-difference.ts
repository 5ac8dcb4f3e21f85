/**
 * The files that differ between two commits, read from their whole trees: 2 calls, whatever the
 * number of commits between them or whether one contains the other. What a push of 300 files or
 * more and a base the head does not contain are both compared by.
 */
import { InputError } from '../../config/input-error.js'
import { statusOf, type GitHubRepository } from '../../github.js'
import { apiError } from './api-error.js'
import { shortRef } from './range.js'

/** How a failure to read the trees is told to the user. */
export interface TreeTerms {
  /** The input the files are for, first in each message: `changed-files`. */
  input: string
  /** What GitHub not knowing the base commit means. */
  baseUnknown: string
  /** What to do when the trees cannot tell: `purge everything with mode: all`. */
  instead: string
}

/** Paths added, removed or changed from `base`'s tree to `head`'s; a file changed back is not different. */
export async function treeDifference(
  github: GitHubRepository,
  base: string,
  head: string,
  terms: TreeTerms
): Promise<string[]> {
  const before = await wholeTree(github, base, terms.baseUnknown, terms)
  const headUnknown = `GitHub does not know this run's commit ${shortRef(head)}`
  const after = await wholeTree(github, head, headUnknown, terms)
  // A path only one tree has reads as undefined in the other, so it differs too.
  const paths = new Set([...before.keys(), ...after.keys()])
  return [...paths].filter((path) => before.get(path) !== after.get(path)).sort()
}

/**
 * A commit's files by path → content SHA. A tree GitHub lists only in part (over 100,000 entries
 * or 7 MB) fails: a file it left out would stay stale without anyone knowing.
 */
async function wholeTree(
  github: GitHubRepository,
  sha: string,
  unknown: string,
  { input, instead }: TreeTerms
): Promise<Map<string, string>> {
  const tree = await github.tree(sha).catch((error: unknown): never => {
    const status = statusOf(error)
    if (status === 404 || status === 409 || status === 422) {
      throw new InputError(
        `${input}: ${unknown} (${status}), so what changed since cannot be known; ${instead}`
      )
    }
    throw apiError(error, github, `read the tree of ${shortRef(sha)}`)
  })
  if (tree.truncated) {
    throw new InputError(
      `${input}: GitHub lists the tree of ${shortRef(sha)} only in part (over 100,000 entries or 7 MB), so the changed files cannot all be known; ${instead}`
    )
  }
  return new Map(tree.entries.map((entry) => [entry.path, entry.sha]))
}
