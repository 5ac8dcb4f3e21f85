/**
 * Which commits a run's event asks to compare (push before...after, a release and the one before
 * it), and the range changed files are taken from once a comparison settles it. Pure.
 */
import { deployedCommit, type ComparisonPage, type RunEvent } from '../../github.js'
import type { BaseSource } from './record.js'
import { counted } from '../../text/counted.js'

/** What a run's event offers as its own comparison, before any API call. */
export type EventRange =
  /** A push that moved a branch: `before...after`, the whole push. */
  | { kind: 'push'; base: string; head: string; ref: string; forced: boolean }
  /** A push that created the branch: there is no earlier commit of it. */
  | { kind: 'new-branch'; head: string; ref: string }
  /** A push that deleted the branch: there is nothing new to take files from. */
  | { kind: 'deleted-branch'; ref: string }
  /** A release: compared against the previous release's tag (found through the API). */
  | { kind: 'release'; head: string; release: ReleaseInfo }
  /** Any other event: only `changed-since` can say what to compare against. */
  | { kind: 'none'; head: string }

/** The commits to take changed files from: `base...head`, base an ancestor of head. */
export interface CommitRange {
  base: string
  head: string
  origin: BaseSource
  /** The release's tag, when origin is `release`; which purge mark, when origin is `record`. */
  label?: string
  /** Why the event's own range was not used, or other things the log should say. */
  notes: string[]
  /** The comparison's first page: the only one that lists files. */
  comparison: ComparisonPage
}

/** The fields of a release that decide which release came before it. */
export interface ReleaseInfo {
  id: number
  tagName: string
  draft: boolean
  /** ISO time; null for drafts. */
  publishedAt: string | null
}

const ZERO_SHA = /^0+$/

function text(value: unknown): string {
  return typeof value === 'string' ? value : ''
}

/** Reads what the event itself says to compare; `changed-since` is applied by the caller. */
export function eventRange(event: Pick<RunEvent, 'eventName' | 'sha' | 'payload'>): EventRange {
  const { payload } = event
  if (event.eventName === 'push') {
    const before = text(payload.before)
    const after = text(payload.after) || event.sha
    const ref = text(payload.ref)
    if (payload.deleted === true || ZERO_SHA.test(after)) return { kind: 'deleted-branch', ref }
    if (before === '' || ZERO_SHA.test(before)) return { kind: 'new-branch', head: after, ref }
    return { kind: 'push', base: before, head: after, ref, forced: payload.forced === true }
  }
  const release = releaseInfo(payload.release)
  if (event.eventName === 'release' && release !== undefined) {
    return { kind: 'release', head: event.sha || release.tagName, release }
  }
  return { kind: 'none', head: deployedCommit(event) }
}

/** A release object from the event payload or the releases API. */
export function releaseInfo(value: unknown): ReleaseInfo | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  const release = value as Record<string, unknown>
  if (typeof release.id !== 'number' || typeof release.tag_name !== 'string') return undefined
  return {
    id: release.id,
    tagName: release.tag_name,
    draft: release.draft === true,
    publishedAt: typeof release.published_at === 'string' ? release.published_at : null
  }
}

/**
 * The release published last before `current`: the one whose tag the site was deployed from when
 * each published release deploys. Drafts never deployed, so they are skipped; prereleases count,
 * since `release: published` runs for them too.
 */
export function previousRelease(
  releases: ReleaseInfo[],
  current: ReleaseInfo
): ReleaseInfo | undefined {
  // A release event for a draft has no publication time yet: every published release is older.
  const cutoff = current.publishedAt === null ? Infinity : Date.parse(current.publishedAt)
  const published = (release: ReleaseInfo): number =>
    release.publishedAt === null ? NaN : Date.parse(release.publishedAt)
  return releases
    .filter(
      (release) =>
        !release.draft &&
        release.id !== current.id &&
        release.tagName !== current.tagName &&
        published(release) < cutoff
    )
    .sort((a, b) => published(b) - published(a))[0]
}

/** A commit for messages: a full SHA shortened to 7 characters, a ref name as given. */
export function shortRef(ref: string): string {
  return /^[0-9a-f]{40}$/i.test(ref) ? ref.slice(0, 7) : ref
}

/**
 * The comparison for logs: `push abc1234...def5678 (3 commits)`; from a purge mark, its label then
 * the head: `last complete purge of svc123: abc1234, run 41 → def5678 (3 commits)`.
 */
export function describeRange(
  { origin, base, head, label }: Pick<CommitRange, 'origin' | 'base' | 'head' | 'label'>,
  commits: number
): string {
  const count = counted(commits, 'commit')
  if (origin === 'record') return `${label ?? shortRef(base)} → ${shortRef(head)} (${count})`
  const what =
    origin === 'release' && label !== undefined
      ? `release ${label}:`
      : origin === 'input'
        ? 'changed-since'
        : origin
  return `${what} ${shortRef(base)}...${shortRef(head)} (${count})`
}
