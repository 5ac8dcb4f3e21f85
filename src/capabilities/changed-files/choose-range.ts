/**
 * Which commits a run compares, chosen with GitHub's answers: the event's own range (a push's
 * before...after, a release against the release before it) or else changed-since, the base always
 * an ancestor of the head. `findChangedFiles` then lists the chosen range's files: the stage's call
 * for every changed-since but last-purge.
 */
import { walkPages, type GitHubRepository, type Page } from '../../github.js'
import type { StepLog } from '../../log.js'
import type { ComparedRange } from './record.js'
import { InputError } from '../../config/input-error.js'
import { shorten } from '../../text/shown.js'
import {
  eventRange,
  previousRelease,
  releaseInfo,
  shortRef,
  type CommitRange,
  type EventRange,
  type ReleaseInfo
} from './range.js'
import type { Guard } from '../../text/guard.js'
import { apiError } from './api-error.js'
import { compare, filesOfRange, type Comparison } from './range-files.js'

/** Releases read to find the one before this run's: 10 pages of 100, newest first. */
const RELEASE_PAGES = 10

/** Resolves the run's range, then lists the files it changed: the one call a run needs. */
export async function findChangedFiles(
  github: GitHubRepository,
  changedSince: string | undefined,
  { log, guard }: { log: StepLog; guard: Guard }
): Promise<ComparedRange> {
  const range = await resolveRange(github, changedSince, guard)
  // No commit between base and head: GitHub compares them as identical.
  if (range.comparison.totalCommits === 0) log.warning(sameCommitWarning(range, guard))
  return filesOfRange(github, range)
}

/**
 * A range from a commit to itself lists no file, so nothing would be purged for it without a word:
 * typically `changed-since` naming the branch this run deploys, which already points at its head.
 */
export function sameCommitWarning(
  range: Pick<CommitRange, 'origin' | 'base' | 'head'>,
  guard: Guard
): string {
  const head = shortRef(range.head)
  if (range.origin === 'input') {
    return `changed-files: changed-since ${shorten(guard, range.base)} is the same commit as this run's ${head}, so comparing them finds no changed file and nothing is purged for changed files. Set changed-since to a commit before this deploy (the last one deployed), not to a branch this run has already moved`
  }
  const base =
    range.origin === 'release'
      ? `the previous release ${range.base}`
      : `this push's before ${shortRef(range.base)}`
  return `changed-files: ${base} is the same commit as ${head}, so comparing them finds no changed file and nothing is purged for changed files`
}

/**
 * Which commits to compare. The event's own range comes first (`push`: `before...after`, the whole
 * push; `release`: the previous release's tag); `changed-since` is used when the event has none or
 * its base is unusable (a new branch, a force-push, a first release), and is required then. The
 * base must be an ancestor of the head: otherwise the comparison would start at their merge base
 * and miss files changed only on the base's side, so this fails instead.
 */
async function resolveRange(
  github: GitHubRepository,
  changedSince: string | undefined,
  guard: Guard
): Promise<CommitRange> {
  const own = await ownRange(github)
  if (own.kind === 'usable') {
    if (changedSince === undefined) return own.range
    const unused = `changed-since (${shorten(guard, changedSince)}) is used only when the event's own range cannot be, so it was not needed`
    return { ...own.range, notes: [unused] }
  }
  const { eventName } = github.event
  if (changedSince === undefined) {
    throw new InputError(
      own.kind === 'none'
        ? `changed-since is required for ${eventName === '' ? 'runs outside a workflow event' : `${eventName} events`}: the commits to compare are found automatically only for push (its before) and release (the previous release) events. ${HOW_TO_SET_CHANGED_SINCE}`
        : `changed-since: ${own.problem}. ${HOW_TO_SET_CHANGED_SINCE}`
    )
  }
  const problem = own.kind === 'unusable' ? own.problem : undefined
  return fromChangedSince(github, changedSince, own.head, problem, guard)
}

const HOW_TO_SET_CHANGED_SINCE =
  'Set changed-since to the commit, branch or tag the site was last deployed from, or purge everything with mode: all'

/** The event's own range: usable, unusable and why, or none (an event that names no commits). */
export type OwnRange =
  | { kind: 'usable'; range: CommitRange }
  | { kind: 'unusable'; head: string; problem: string }
  | { kind: 'none'; head: string }

/**
 * The range the run's event names itself, checked against GitHub: a push's `before...after`, or a
 * release against the release published before it; usable when its base is an ancestor of its
 * head. Fails for a push that deleted its branch, which has no new commit to take files from.
 */
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
      return { kind: 'unusable', head: own.head, problem: pushProblem(own, comparison) }
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
    const range = { base: previous.tagName, head, origin: 'release' as const, label: tag }
    return { kind: 'usable', range: { ...range, notes: [], comparison: comparison.page } }
  }
  const problem =
    comparison.kind === 'unknown'
      ? `the previous release's tag ${previous.tagName} is unknown to GitHub`
      : `the previous release ${previous.tagName} is not an ancestor of ${tag} (GitHub compares them as ${comparison.status})`
  return { kind: 'unusable', head, problem }
}

/** The release published before `current`, among the newest 1,000 GitHub lists. */
async function findPreviousRelease(
  github: GitHubRepository,
  current: ReleaseInfo
): Promise<ReleaseInfo | undefined> {
  const known: ReleaseInfo[] = []
  const visit = ({ items }: Page<unknown>): boolean => {
    known.push(...items.flatMap((release) => releaseInfo(release) ?? []))
    return false
  }
  try {
    await walkPages((page) => github.releases(page), RELEASE_PAGES, 'releases', visit)
  } catch (error) {
    throw apiError(error, github, 'list releases')
  }
  return previousRelease(known, current)
}

/** `changed-since...head`; `problem` says why the event's own range could not be used. */
async function fromChangedSince(
  github: GitHubRepository,
  changedSince: string,
  head: string,
  problem: string | undefined,
  guard: Guard
): Promise<CommitRange> {
  const instead = `comparing against changed-since ${shorten(guard, changedSince)} instead`
  const notes = problem === undefined ? [] : [`${capitalize(problem)}; ${instead}`]
  const comparison = await compare(github, changedSince, head)
  const why = problem === undefined ? '' : ` (needed because ${problem})`
  if (comparison.kind === 'unknown') {
    throw new InputError(
      `changed-since: ${shorten(guard, changedSince)} is not a commit, branch or tag GitHub knows in ${github.owner}/${github.repo}${why}; give a full commit SHA, branch or tag, or use mode: all`
    )
  }
  if (comparison.kind === 'unrelated') {
    throw new InputError(
      `changed-since: ${shorten(guard, changedSince)} is not an ancestor of ${shortRef(head)} (GitHub compares them as ${comparison.status}), so files changed only on its side would be missed${why}; give a commit that ${shortRef(head)} contains, or use mode: all`
    )
  }
  return { base: changedSince, head, origin: 'input', notes, comparison: comparison.page }
}

function pushProblem(
  { base, head, forced }: Extract<EventRange, { kind: 'push' }>,
  comparison: Exclude<Comparison, { kind: 'ancestor' }>
): string {
  const push = forced ? 'this push was forced: its' : "this push's"
  if (comparison.kind === 'unknown') {
    return `${push} before ${shortRef(base)} is unknown to GitHub (a force-push can leave it unreachable), so the files the push replaced cannot be listed`
  }
  const how =
    comparison.status === 'behind'
      ? `the push moved the branch back (GitHub compares them as behind)`
      : `GitHub compares them as ${comparison.status}`
  return `${push} before ${shortRef(base)} is not an ancestor of its after ${shortRef(head)} (${how}), so the files the push replaced cannot be listed`
}

function capitalize(sentence: string): string {
  return sentence.charAt(0).toUpperCase() + sentence.slice(1)
}
