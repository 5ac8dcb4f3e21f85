/** The inputs of the stages around the purge: changed-files, last-purge, wait and verify. Pure. */
import type { RunInputs } from './inputs.js'
import type {
  ChangedFilesSettings,
  LastPurgeSettings,
  EdgeCheckSettings,
  WaitSettings
} from './settings.js'
import { InputError } from './input-error.js'
import { parseBoolean, parseInteger, parseSeconds } from './input-values.js'
import { parseServiceIds } from './purge-api.js'
import { parseKeyMap, parseUrlMap } from './maps.js'
import { parseHttpUrl } from './keys-and-urls.js'
import { listItems } from './lists.js'

/** The `changed-since` value that reads and writes each service's purge marks. */
const LAST_PURGE = 'last-purge'

export function parseChangedFiles(inputs: RunInputs): ChangedFilesSettings | undefined {
  const { raw, guard } = inputs
  if (!parseBoolean(inputs, 'changed-files')) return undefined
  const urlMap = parseUrlMap(raw['url-map'], guard)
  const keyMap = parseKeyMap(raw['key-map'], guard)
  if (urlMap.length === 0 && keyMap.length === 0) {
    throw new InputError(
      'changed-files: true needs url-map (PATH_PREFIX => URL_PREFIX lines) or key-map (GLOB => KEY lines) to turn changed files into targets'
    )
  }
  if (raw['github-token'] === '') {
    throw new InputError(
      'github-token is required with changed-files: true (the default, github.token, is enough)'
    )
  }
  const given = raw['changed-since']
  const changedSince = given === LAST_PURGE || given === '' ? undefined : given
  return { urlMap, keyMap, changedSince }
}

export function parseLastPurge(
  inputs: RunInputs,
  changedFiles: boolean,
  purgeAll: boolean
): LastPurgeSettings | undefined {
  if (inputs.raw['changed-since'] !== LAST_PURGE) return undefined
  if (!changedFiles && !purgeAll) {
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

export function parseWait(inputs: RunInputs): WaitSettings | undefined {
  const urls = parseCheckUrls(inputs, 'wait-for-url')
  const text = inputs.raw['wait-for-text'] || undefined
  const passes = parseInteger(inputs, 'wait-passes', 1, 100)
  const timeoutMs = parseSeconds(inputs, 'wait-timeout', 21_600) * 1000
  if (urls.length === 0) {
    if (text !== undefined) {
      throw new InputError('wait-for-text needs wait-for-url: the URLs that must show it')
    }
    return undefined
  }
  return { urls, text, passes, timeoutMs }
}

export function parseEdgeCheck(inputs: RunInputs): EdgeCheckSettings {
  const urls = parseCheckUrls(inputs, 'verify-urls')
  const text = inputs.raw['verify-text'] || undefined
  if (text !== undefined && urls.length === 0) {
    throw new InputError(
      'verify-text needs verify-urls: only the pages listed there are judged by the text (purged URLs are judged by Age)'
    )
  }
  return {
    purgedUrls: parseBoolean(inputs, 'verify'),
    urls,
    text,
    timeoutMs: parseSeconds(inputs, 'verify-timeout', 3600) * 1000
  }
}

/** Absolute http(s) URLs, each once. */
function parseCheckUrls({ raw, guard }: RunInputs, name: 'wait-for-url' | 'verify-urls'): string[] {
  const urls = Array.from(
    listItems(raw[name], name, guard),
    (item) => parseHttpUrl(item, name, guard).href
  )
  return [...new Set(urls)]
}
