/** Targets from the files this run's commits changed: the one stage that reads GitHub before the plan. */
import type { ChangedFilesSettings, Settings } from '../../config/settings.js'
import { mergeUnique, purgeUrl } from '../../config/keys-and-urls.js'
import type { GitHubRepository } from '../../github.js'
import type { OpenLocalGit } from '../../git.js'
import type { MadeTargets, StageDeps, StageEnd } from '../capability.js'
import type {
  ChangedFilesPart,
  ChangedFilesReport,
  ComparedRange,
  RecalledPurges
} from './record.js'
import { showDerivation } from './summary.js'
import { counted } from '../../text/counted.js'
import { findChangedFiles } from './choose-range.js'
import { deriveTargets } from './derive.js'
import { changedSinceLastPurge } from './since-last-purge.js'
import { localChangedFiles } from './local-range.js'

/**
 * Where the stage reads the changed files: local git when the door hands one in (the command),
 * else the run's GitHub repository; and what `last-purge` recalled, which GitHub always reads.
 */
export interface ChangedFilesDeps extends Pick<StageDeps, 'log' | 'guard' | 'signal' | 'limits'> {
  github: () => Promise<GitHubRepository>
  localGit: OpenLocalGit | undefined
  /** With `changed-since: last-purge`: each service's last complete purge. */
  recalled: RecalledPurges | undefined
}

/** How results find their source: the same `type target` key `withSources` looks up. */
const targetId = (type: string, target: string): string => `${type} ${target}`

/**
 * The keys and URLs given, then those derived from the changed files, and where each came from;
 * the log's changed-files group shows them.
 */
export async function applyChangedFiles(
  settings: Settings,
  changed: ChangedFilesSettings,
  deps: ChangedFilesDeps
): Promise<StageEnd<ChangedFilesPart> & { made: MadeTargets }> {
  const { recalled, log, guard } = deps
  const services = settings.lastPurge?.serviceIds ?? []
  const ranges =
    recalled !== undefined
      ? await changedSinceLastPurge(await deps.github(), recalled, services, log)
      : [await rangeOf(changed.changedSince, deps)]
  // Several ranges (services marked at different commits) make one report: their files united.
  const report: ChangedFilesReport = {
    files: [...new Set(ranges.flatMap((range) => range.files))].sort(),
    ranges,
    description: ranges.map((range) => range.description).join('; '),
    notes: ranges.flatMap((range) => range.notes)
  }
  for (const note of report.notes) log.notice(guard.oneLine(note, 1000))
  const targets = deriveTargets(report.files, changed.urlMap, changed.keyMap)
  const how = ranges.map(
    (range) => `${guard.oneLine(range.description)} (${METHODS[range.method]})`
  )
  log.info(
    `${counted(report.files.length, 'changed file')} in ${how.join('; ')} → ${counted(targets.length, 'target')}`
  )

  const explicit = new Set([
    ...settings.keys.map((key) => targetId('key', key)),
    ...settings.urls.map((url) => targetId('url', url.target))
  ])
  const sources = new Map<string, string>()
  for (const { type, target, file } of targets) {
    if (!explicit.has(targetId(type, target))) sources.set(targetId(type, target), file)
  }
  // Derived targets pass the same checks as given ones: url-map prefixes are checked URLs and
  // key-map keys checked keys, but the joined URL is parsed again rather than trusted.
  const urls = targets
    .filter((derived) => derived.type === 'url')
    .map(({ target }) => purgeUrl(target, 'url-map', guard))
  const keys = targets.filter((derived) => derived.type === 'key').map(({ target }) => target)
  const made = {
    keys: mergeUnique([settings.keys, keys], (key) => key),
    urls: mergeUnique([settings.urls, urls], (entry) => entry.address)
  }
  const derivation = { report, targets, sources }
  await showDerivation(derivation, made.keys.length + made.urls.length === 0, deps)
  return { part: { recalled, derivation }, made: { targets: made, sources } }
}

/** The one range of a run without `last-purge`: from local git when there is one, else GitHub. */
async function rangeOf(changedSince: string | undefined, deps: ChangedFilesDeps) {
  const { localGit, limits, signal } = deps
  if (localGit === undefined) return findChangedFiles(await deps.github(), changedSince, deps)
  const gitLimits = { timeoutMs: limits.requestTimeoutMs, signal }
  return localChangedFiles(localGit, changedSince, { ...deps, ...gitLimits })
}

const METHODS: Record<ComparedRange['method'], string> = {
  compare: 'from the comparison',
  trees: 'from the two trees',
  git: 'from git diff'
}
