/** Targets from the files this run's commits changed: the one I/O step between settings and plan. */
import * as core from '@actions/core'
import { deriveTargets, type DerivedTarget } from '../../config/maps.js'
import { findChangedFiles, readRunEvent, type ChangedFilesReport } from './github-api.js'
import { mergeUnique, purgeUrl } from '../../config/targets.js'
import { counted } from '../../text/counted.js'
import { oneLine } from '../../text/guard.js'
import type { Settings } from '../../config/settings.js'

export interface Derivation {
  report: ChangedFilesReport
  /** Every target the changed files produced, each with the first file that caused it. */
  targets: DerivedTarget[]
  /** `type target` → file, for the derived targets that were not also given explicitly. */
  sources: Map<string, string>
}

/** How results find their source: the same `type target` key `withSources` looks up. */
const targetId = (type: string, target: string): string => `${type} ${target}`

/** The settings with derived keys and URLs after the explicit ones; unchanged without changed-files. */
export async function applyChangedFiles(
  settings: Settings
): Promise<{ settings: Settings; derivation: Derivation | undefined }> {
  const changed = settings.changedFiles
  if (changed === undefined) return { settings, derivation: undefined }

  const { event, owner, repo } = await readRunEvent()
  const report = await findChangedFiles(
    { githubToken: changed.githubToken, owner, repo },
    event,
    changed.changedSince
  )
  for (const note of report.notes) core.notice(oneLine(note, 1000))
  const targets = deriveTargets(report.files, changed.urlMap, changed.keyMap)
  core.info(
    `${counted(report.files.length, 'changed file')} in ${oneLine(report.description)} ` +
      `(${report.method === 'compare' ? 'from the comparison' : 'gathered commit by commit'}) → ${counted(targets.length, 'target')}`
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
    .map(({ target }) => purgeUrl(target, 'url-map'))
  const keys = targets.filter((derived) => derived.type === 'key').map(({ target }) => target)
  return {
    settings: {
      ...settings,
      keys: mergeUnique([settings.keys, keys], (key) => key),
      urls: mergeUnique([settings.urls, urls], (entry) => entry.address)
    },
    derivation: { report, targets, sources }
  }
}
