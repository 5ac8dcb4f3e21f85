/**
 * `changed-since: last-purge`: the files that differ between what each service was last purged for
 * completely and this run's head. A base the head contains is compared as a range; any other base
 * (history rewritten, a purge mark from another branch) by the two commits' whole trees, so files
 * only dropped commits changed are not missed.
 */
import { InputError } from '../../config/input-error.js'
import type { GitHubRepository } from '../../github.js'
import type { StepLog } from '../../log.js'
import type { ComparedRange, LastPurge, RecalledPurges } from './record.js'
import { ownRange } from './choose-range.js'
import { shortRef } from './range.js'
import { compare, filesOfRange, listsEveryFile } from './range-files.js'
import { treeDifference } from './tree-difference.js'

const HOW_TO_BEGIN =
  'Begin the record with a run of mode: all and changed-since: last-purge (in the release workflow or a manual purge): its complete purge records where the site is fresh from'

/** One range per distinct base: services marked at the same commit share one comparison. */
export async function changedSinceLastPurge(
  github: GitHubRepository,
  recalled: RecalledPurges,
  serviceIds: string[],
  log: StepLog
): Promise<ComparedRange[]> {
  const unmarked = serviceIds.filter((service) => !recalled.last.has(service))
  const byBase = new Map<string, { last: LastPurge; services: string[] }>()
  for (const service of serviceIds) {
    const last = recalled.last.get(service)
    if (last === undefined) continue
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
  const names = services.join(', ')
  const run = last.runId === '' ? '' : `, run ${last.runId}`
  const label = `last complete purge of ${names}: ${shortRef(last.sha)}${run}`
  const comparison = await compare(github, last.sha, head)
  if (comparison.kind === 'ancestor' && listsEveryFile(comparison.page)) {
    const range = { base: last.sha, head, origin: 'record' as const, label, notes: [] }
    return filesOfRange(github, { ...range, comparison: comparison.page })
  }
  const files = await treeDifference(github, last.sha, head, {
    input: 'changed-since: last-purge',
    baseUnknown: `the last complete purge of ${names} was for ${shortRef(last.sha)}, a commit GitHub no longer has`,
    instead: `purge everything with mode: all and changed-since: last-purge, which resets the record of ${names}`
  })
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
