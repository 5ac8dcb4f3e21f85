/**
 * `changed-since: last-purge`: the files that differ between what each service was last purged for
 * completely and this run's head. A base the head contains is compared as a range; any other base
 * (history rewritten, a purge mark from another branch) by the two commits' whole trees, so files
 * only dropped commits changed are not missed.
 */
import { InputError } from '../../config/input-error.js'
import { statusOf, type GitHubRepository, type TreeEntry } from '../../github.js'
import type { StepLog } from '../../log.js'
import type { ComparedRange, LastPurge, RecalledPurges } from '../../record/index.js'
import { ownRange } from './choose-range.js'
import { shortRef, type CommitRange } from './range.js'
import { apiError, compare, filesOfRange, listsEveryFile } from './range-files.js'

const HOW_TO_BEGIN =
  'Begin the record with a run of mode: all and changed-since: last-purge (in the release workflow or a manual purge): its complete purge records where the site is fresh from'

/** One range per distinct base: services marked at the same commit share one comparison. */
export async function changedSinceLastPurge(
  github: GitHubRepository,
  recalled: RecalledPurges,
  serviceIds: string[],
  log: StepLog
): Promise<ComparedRange[]> {
  const byBase = new Map<string, { last: LastPurge; services: string[] }>()
  const unmarked: string[] = []
  for (const service of serviceIds) {
    const last = recalled.last.get(service)
    if (last === undefined) {
      unmarked.push(service)
      continue
    }
    const group = byBase.get(last.sha) ?? { last, services: [] }
    group.services.push(service)
    byBase.set(last.sha, group)
  }
  const ranges: ComparedRange[] = []
  if (unmarked.length > 0) ranges.push(await withoutMark(github, unmarked, log))
  for (const { last, services } of byBase.values()) {
    ranges.push(await sinceMark(github, last, services, recalled.head))
  }
  return ranges
}

/** Services with no complete purge marked yet: the event's own range, when it has a usable one. */
async function withoutMark(
  github: GitHubRepository,
  services: string[],
  log: StepLog
): Promise<ComparedRange> {
  const names = services.join(', ')
  const own = await ownRange(github)
  if (own.kind !== 'usable') {
    const why =
      own.kind === 'unusable'
        ? own.problem
        : `this ${github.event.eventName || 'run'} event has no range of its own to compare`
    throw new InputError(
      `changed-since: last-purge: no complete purge of ${names} is recorded yet, and ${why}. ${HOW_TO_BEGIN}`
    )
  }
  const what = own.range.origin === 'release' ? 'this release' : 'this push'
  log.notice(
    `No complete purge of ${names} is recorded yet: comparing ${what}'s own range. This run records one when its purge is complete`
  )
  return filesOfRange(github, own.range)
}

/** The files that differ between the marked commit and the head. */
async function sinceMark(
  github: GitHubRepository,
  last: LastPurge,
  services: string[],
  head: string
): Promise<ComparedRange> {
  const run = last.runId === '' ? '' : `, run ${last.runId}`
  const label = `last complete purge of ${services.join(', ')}: ${shortRef(last.sha)}${run}`
  const comparison = await compare(github, last.sha, head)
  if (comparison.kind === 'ancestor' && listsEveryFile(comparison.page)) {
    const range: CommitRange = {
      base: last.sha,
      head,
      origin: 'record',
      label,
      notes: [],
      comparison: comparison.page
    }
    return filesOfRange(github, range)
  }
  const files = await treeDifference(github, last, head, services)
  // The log adds how the files were found ("from the two trees"); this says why.
  const how = comparison.kind === 'ancestor' ? '300 files or more' : 'not its ancestor'
  return {
    files,
    commits: undefined,
    method: 'trees',
    base: last.sha,
    baseSha: last.sha,
    head,
    source: 'record',
    description: `${label} → ${shortRef(head)} (${how})`,
    notes: []
  }
}

/** Paths added, removed or changed between two commits' trees; a file changed back is not different. */
async function treeDifference(
  github: GitHubRepository,
  last: LastPurge,
  head: string,
  services: string[]
): Promise<string[]> {
  const reset = `purge everything with mode: all and changed-since: last-purge, which resets the record of ${services.join(', ')}`
  const gone = `the last complete purge of ${services.join(', ')} was for ${shortRef(last.sha)}, a commit GitHub no longer has`
  const before = await wholeTree(github, last.sha, gone, reset)
  const after = await wholeTree(
    github,
    head,
    `GitHub does not know this run's commit ${shortRef(head)}`,
    reset
  )
  const changed = new Set<string>()
  for (const [path, sha] of after) if (before.get(path) !== sha) changed.add(path)
  for (const path of before.keys()) if (!after.has(path)) changed.add(path)
  return [...changed].sort()
}

/** A commit's files by path → content SHA; `unknown` says what a missing commit means, `reset` what to do. */
async function wholeTree(
  github: GitHubRepository,
  sha: string,
  unknown: string,
  reset: string
): Promise<Map<string, string>> {
  let entries: TreeEntry[]
  try {
    const tree = await github.tree(sha)
    if (tree.truncated) {
      throw new InputError(
        `changed-since: last-purge: GitHub lists the tree of ${shortRef(sha)} only in part (over 100,000 entries or 7 MB), so the changed files cannot all be known; ${reset}`
      )
    }
    entries = tree.entries
  } catch (error) {
    if (error instanceof InputError) throw error
    const status = statusOf(error)
    if (status === 404 || status === 409 || status === 422) {
      throw new InputError(
        `changed-since: last-purge: ${unknown} (${status}), so what changed since cannot be known; ${reset}`
      )
    }
    throw apiError(error, github, `read the tree of ${shortRef(sha)}`)
  }
  return new Map(entries.map((entry) => [entry.path, entry.sha]))
}
