/** The inputs of changed files and of the last purge: the maps, the range, the purge marks. Pure. */
import type { InputPart } from '../../config/parse-settings.js'
import { InputError } from '../../config/input-error.js'
import { parseBoolean } from '../../config/input-values.js'
import { parseKeyMap, parseUrlMap } from '../../config/maps.js'
import type { Mode } from '../../config/mode.js'
import { parseServiceIds } from '../../config/purge-api.js'
import type { ChangedFilesSettings, LastPurgeSettings } from '../../config/settings.js'
import type { RunInputs } from '../../config/parse-settings.js'

/** The `changed-since` value that reads and writes each service's purge marks. */
const LAST_PURGE = 'last-purge'

function parseChangedFiles(inputs: RunInputs): ChangedFilesSettings | undefined {
  const { raw, guard } = inputs
  if (!parseBoolean(inputs, 'changed-files')) return undefined
  const urlMap = parseUrlMap(raw['url-map'], guard)
  const keyMap = parseKeyMap(raw['key-map'], guard)
  if (urlMap.length === 0 && keyMap.length === 0) {
    throw new InputError(
      'changed-files: true needs url-map (PATH_PREFIX => URL_PREFIX lines) or key-map (GLOB => KEY lines) to turn changed files into targets'
    )
  }
  const given = raw['changed-since']
  const changedSince = given === LAST_PURGE || given === '' ? undefined : given
  return { urlMap, keyMap, changedSince }
}

function parseLastPurge(
  inputs: RunInputs,
  changedFiles: boolean,
  mode: Mode
): LastPurgeSettings | undefined {
  if (inputs.raw['changed-since'] !== LAST_PURGE) return undefined
  if (!changedFiles && mode !== 'all') {
    throw new InputError(
      'changed-since: last-purge needs changed-files: true (to purge what changed since the last complete purge) or mode: all (to purge everything and start the record); a branch or tag named last-purge cannot be named here, give its commit SHA instead'
    )
  }
  if (inputs.raw['github-token'] === '') {
    throw new InputError(
      'github-token is required with changed-since: last-purge, which keeps its record as GitHub deployments (the default, github.token, is enough with permissions: deployments: write)'
    )
  }
  const serviceIds = parseServiceIds(inputs)
  if (serviceIds.length === 0) {
    throw new InputError(
      'changed-since: last-purge keeps one record per service, named by service-id: set service-id'
    )
  }
  return { serviceIds }
}

/** Parsed before the mode is checked: the maps count as targets given. */
export const changedFilesInputs: InputPart = {
  makesTargets: true,
  parse(inputs, mode) {
    const changedFiles = parseChangedFiles(inputs)
    return { changedFiles, lastPurge: parseLastPurge(inputs, changedFiles !== undefined, mode) }
  }
}
