/**
 * The command's changed files, read from the git repository it runs in: `--changed-since...HEAD`,
 * or a GitLab push's before...after. Git has none of GitHub's limits: no token, no 300-file list,
 * no page per commit.
 */
import { InputError } from '../../config/input-error.js'
import type { GitLimits, LocalGit, OpenLocalGit } from '../../git.js'
import type { StepLog } from '../../log.js'
import type { Guard } from '../../text/guard.js'
import { shorten } from '../../text/shown.js'
import { sameCommitWarning } from './choose-range.js'
import { describeRange, shortRef, type CommitRange } from './range.js'
import type { ComparedRange } from './record.js'

const PASS_CHANGED_SINCE =
  'Pass --changed-since with the commit, branch or tag the site was last deployed from, or purge everything with mode: all'

const ZERO_SHA = /^0+$/

/** Where the range's base comes from, and what the messages call it. */
type LocalRange = Pick<CommitRange, 'base' | 'head' | 'origin'> & { named: string }

/** The files the range changed, listed by `git diff --name-status -M`. */
export async function localChangedFiles(
  open: OpenLocalGit,
  changedSince: string | undefined,
  { log, guard, ...limits }: GitLimits & { log: StepLog; guard: Guard }
): Promise<ComparedRange> {
  const git = await open({ ...limits, guard })
  const range = chooseRange(git, changedSince, guard)
  const head = await git.commitOf(range.head)
  if (head === undefined) {
    throw new InputError(`changed-files: git knows no commit ${shorten(guard, range.head)} here`)
  }
  const baseSha = await git.commitOf(range.base)
  if (baseSha === undefined) throw new InputError(unknownBase(git, range))
  if (!(await git.isAncestor(baseSha, head))) {
    throw new InputError(
      `${range.named} is not an ancestor of ${shortRef(head)}, so files changed only on its side would be missed. ${PASS_CHANGED_SINCE}`
    )
  }
  const commits = await git.commitsBetween(baseSha, head)
  const compared = { ...range, head }
  if (commits === 0) log.warning(sameCommitWarning(compared, guard))
  return {
    files: await git.changedPaths(baseSha, head),
    commits,
    method: 'git',
    base: range.base,
    baseSha,
    head,
    source: range.origin,
    description: describeRange(compared, commits),
    notes: []
  }
}

/**
 * `--changed-since` when given, else a GitLab push's own range; a new branch has no commit before
 * it, and any other pipeline names none.
 */
function chooseRange(git: LocalGit, changedSince: string | undefined, guard: Guard): LocalRange {
  if (changedSince !== undefined) {
    const named = `changed-since: ${shorten(guard, changedSince)}`
    return { base: changedSince, head: 'HEAD', origin: 'input', named }
  }
  const { pipeline } = git
  if (pipeline?.source !== 'push') {
    const where =
      pipeline === undefined
        ? 'outside a GitLab push pipeline'
        : `in a ${pipeline.system} pipeline started by ${shorten(guard, pipeline.source || 'an unnamed source')}`
    throw new InputError(
      `changed-since is required ${where}: the commits to compare are found by themselves only in a GitLab push pipeline (CI_COMMIT_BEFORE_SHA...CI_COMMIT_SHA). ${PASS_CHANGED_SINCE}`
    )
  }
  if (ZERO_SHA.test(pipeline.before)) {
    throw new InputError(
      `changed-files: this push created its branch (CI_COMMIT_BEFORE_SHA is 0000000), so the branch has no earlier commit to compare against. ${PASS_CHANGED_SINCE}`
    )
  }
  const named = `changed-files: this push's before ${shorten(guard, shortRef(pipeline.before))} (CI_COMMIT_BEFORE_SHA)`
  return { base: pipeline.before, head: pipeline.after || 'HEAD', origin: 'push', named }
}

/** A base git does not know: a shallow clone may simply not reach back to it. */
function unknownBase(git: LocalGit, range: LocalRange): string {
  const what = `${range.named} is not a commit, branch or tag git knows in this repository`
  if (!git.shallow) return `${what}. ${PASS_CHANGED_SINCE}`
  return `${what}: the clone is shallow and may not reach back to it. Fetch more history (GitLab: GIT_DEPTH: 0; git fetch --unshallow), or ${PASS_CHANGED_SINCE.charAt(0).toLowerCase()}${PASS_CHANGED_SINCE.slice(1)}`
}
