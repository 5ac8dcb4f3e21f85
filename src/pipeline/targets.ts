/** What a run purges: the targets given and those its changed files gave, and what was read for them. */
import { unlessCancelled, type Clock } from '../clock.js'
import type { PurgeTargets, Settings } from '../config/settings.js'
import type { GitHubLimits, GitHubRepository, OpenGitHub } from '../github.js'
import type { StepLog } from '../log.js'
import type { Derivation, RecalledPurges } from '../record/index.js'
import type { Guard } from '../text/guard.js'

const changedFilesStage = () => import('../capabilities/changed-files/index.js')
const lastPurgeRecall = () => import('../capabilities/changed-files/last-purge/recall.js')

/** What reading the repository needs: the run's clock, cancel and log, and how to open GitHub. */
export interface RepositoryDeps {
  clock: Clock
  /** Aborted when the run is cancelled: no stage starts new work after it. */
  signal: AbortSignal
  log: StepLog
  /** Hides the run's secrets in what servers say, before anything cuts or shows it. */
  guard: Guard
  /** Opens the run's repository, for changed-files and last-purge: the GitHub client loads only then. */
  openGitHub: OpenGitHub
}

/** What to purge: the targets given and those changed files gave, and what was read to know it. */
export interface Targets {
  github: GitHubRepository | undefined
  recalled: RecalledPurges | undefined
  targets: PurgeTargets
  derivation: Derivation | undefined
}

export async function targetsOf(given: Settings, deps: RepositoryDeps): Promise<Targets> {
  const { signal, log, guard } = deps
  const github = await unlessCancelled(openRepository(given, deps), signal, cancelledBeforeTargets)
  const { lastPurge, changedFiles } = given
  const recalled =
    github === undefined || lastPurge === undefined
      ? undefined
      : await unlessCancelled(
          lastPurgeRecall().then(({ recallLastPurges }) =>
            recallLastPurges(github, lastPurge, changedFiles !== undefined, log)
          ),
          signal,
          cancelledBeforeTargets
        )
  const { targets, derivation } =
    changedFiles === undefined
      ? { targets: given, derivation: undefined }
      : await unlessCancelled(
          changedFilesStage().then(({ applyChangedFiles }) =>
            applyChangedFiles(given, { github, recalled, log, guard })
          ),
          signal,
          cancelledBeforeTargets
        )
  return { github, recalled, targets, derivation }
}

/** The changed-files group of the log, with a notice when nothing matched. */
export async function showChanges(
  derivation: Derivation,
  calls: number,
  deps: Pick<RepositoryDeps, 'log' | 'guard'>
): Promise<void> {
  const { showDerivation } = await changedFilesStage()
  await showDerivation(derivation, calls, deps)
}

/** The run's repository, when changed-files or last-purge needs it. */
async function openRepository(
  settings: Settings,
  deps: RepositoryDeps
): Promise<GitHubRepository | undefined> {
  const needed = settings.changedFiles !== undefined || settings.lastPurge !== undefined
  return needed ? deps.openGitHub(limitsOf(settings, deps)) : undefined
}

/** GitHub calls keep the bounds purge calls keep: `max-attempts`, `timeout`, the run's cancel. */
function limitsOf(settings: Settings, { clock, signal, log, guard }: RepositoryDeps): GitHubLimits {
  const { maxAttempts, timeoutMs } = settings
  return { maxAttempts, timeoutMs, clock, signal, log, guard }
}

/** A slow GitHub API cannot hold a cancelled job: the run ends before any purge call. */
function cancelledBeforeTargets(): never {
  throw new Error('Cancelled before the targets were known: nothing was sent')
}
