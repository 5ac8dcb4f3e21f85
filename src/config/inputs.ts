/** The inputs as the runner gives them, parsed into one typed, validated `Settings` (pure). */
import type { FileReader } from './list-files.js'
import type {
  ChangedFilesSettings,
  LastPurgeSettings,
  Service,
  Settings,
  VerifySettings,
  WaitSettings
} from './settings.js'
import { parseKeyMap, parseUrlMap } from './maps.js'
import { InputError, isLoopbackHost, parseHttpUrl } from './targets.js'
import { listItems, parseKeys, parseUrls } from './lists.js'
import { shorten } from '../text/shown.js'
import { messageOf } from '../text/message.js'

/** Every input declared in action.yml, by its exact name. */
export const INPUT_NAMES = [
  'api-token',
  'base-url',
  'service-id',
  'mode',
  'keys',
  'keys-file',
  'urls',
  'urls-file',
  'soft',
  'batch-format',
  'batch-size',
  'concurrency',
  'max-attempts',
  'timeout',
  'url-purge-auth',
  'dry-run',
  'summary',
  'fail-on-error',
  'repeat-after',
  'changed-files',
  'url-map',
  'key-map',
  'changed-since',
  'github-token',
  'wait-for-url',
  'wait-for-text',
  'wait-passes',
  'wait-timeout',
  'verify',
  'verify-urls',
  'verify-text',
  'verify-timeout'
] as const

export type InputName = (typeof INPUT_NAMES)[number]
export type RawInputs = Record<InputName, string>

export const SECRET_INPUTS = ['api-token', 'github-token'] as const

/** Why an input fed from a secret or variable arrives empty, short of GitHub withholding it. */
const NOT_SET = 'may not be set in this repository, or only in an environment the job does not name'

/** Validates raw inputs into settings; throws `InputError` naming the input and what is allowed. */
export function parseSettings(raw: RawInputs, readFile: FileReader): Settings {
  for (const name of SECRET_INPUTS) requireHeaderSafe(raw, name)
  const soft = parseBoolean(raw, 'soft')
  const dryRun = parseBoolean(raw, 'dry-run')
  const urlPurgeAuth = parseBoolean(raw, 'url-purge-auth')
  const mode = parseChoice(raw, 'mode', ['', 'keys', 'urls', 'all'] as const)
  const keys = parseKeys(
    [raw.keys, 'keys'],
    [listFileText(raw, 'keys-file', readFile), 'keys-file']
  )
  const urls = parseUrls(
    [raw.urls, 'urls'],
    [listFileText(raw, 'urls-file', readFile), 'urls-file']
  )
  const changedFiles = parseChangedFiles(raw)
  const lastPurge = parseLastPurge(raw, changedFiles !== undefined, mode === 'all')
  if (changedFiles !== undefined && mode === 'all') {
    throw new InputError(
      'changed-files: true derives keys and URLs, and mode: all refuses them; use one or the other'
    )
  }
  // Keys and URLs a map may derive count as given: the run cannot know yet whether it will.
  const hasKeys = keys.length > 0 || (changedFiles?.keyMap.length ?? 0) > 0
  const hasUrls = urls.length > 0 || (changedFiles?.urlMap.length ?? 0) > 0
  checkMode(mode, hasKeys, hasUrls, soft)

  const purgeAll = mode === 'all'
  const needsService = purgeAll || hasKeys
  const sendsToken = !dryRun && (needsService || (urlPurgeAuth && hasUrls))
  if (sendsToken && raw['api-token'] === '') {
    throw new InputError(
      `api-token is required to purge ${purgeAll ? 'a whole service' : needsService ? 'surrogate keys' : 'URLs with url-purge-auth: true'}. It is empty: the secret behind it ${NOT_SET}, or this run gets no Actions secrets (runs triggered by a pull request from a fork or by Dependabot do not)`
    )
  }
  if (urlPurgeAuth) {
    for (const { url, target } of urls) requireSafeTransport(url, `urls: ${shorten(target)}`)
    for (const { urlPrefix, line } of changedFiles?.urlMap ?? []) {
      requireSafeTransport(new URL(urlPrefix), `url-map line ${line}`)
    }
  }

  return {
    apiToken: raw['api-token'],
    services: needsService ? parseServices(raw) : [],
    purgeAll,
    keys,
    urls,
    soft,
    batchFormat: parseChoice(raw, 'batch-format', ['json', 'header'] as const),
    batchSize: parseInteger(raw, 'batch-size', 1, 256),
    concurrency: parseInteger(raw, 'concurrency', 1, 64),
    maxAttempts: parseInteger(raw, 'max-attempts', 1, 20),
    timeoutMs: parseSeconds(raw, 'timeout', 600) * 1000,
    urlPurgeAuth,
    dryRun,
    summary: parseBoolean(raw, 'summary'),
    failOnError: parseBoolean(raw, 'fail-on-error'),
    repeatAfterMs: parseInteger(raw, 'repeat-after', 0, 300) * 1000,
    changedFiles,
    lastPurge,
    wait: parseWait(raw),
    verify: parseVerify(raw)
  }
}

/** Absolute http(s) URLs, each once. */
function parseCheckUrls(raw: RawInputs, name: 'wait-for-url' | 'verify-urls'): string[] {
  const urls = Array.from(listItems(raw[name], name), (item) => parseHttpUrl(item, name).href)
  return [...new Set(urls)]
}

function parseWait(raw: RawInputs): WaitSettings | undefined {
  const urls = parseCheckUrls(raw, 'wait-for-url')
  const text = raw['wait-for-text'] === '' ? undefined : raw['wait-for-text']
  const passes = parseInteger(raw, 'wait-passes', 1, 100)
  const timeoutMs = parseSeconds(raw, 'wait-timeout', 21_600) * 1000
  if (urls.length === 0) {
    if (text !== undefined) {
      throw new InputError('wait-for-text needs wait-for-url: the URLs that must show it')
    }
    return undefined
  }
  return { urls, text, passes, timeoutMs }
}

function parseVerify(raw: RawInputs): VerifySettings {
  const urls = parseCheckUrls(raw, 'verify-urls')
  const text = raw['verify-text'] === '' ? undefined : raw['verify-text']
  if (text !== undefined && urls.length === 0) {
    throw new InputError(
      'verify-text needs verify-urls: only the pages listed there are judged by the text (purged URLs are judged by Age)'
    )
  }
  return {
    purgedUrls: parseBoolean(raw, 'verify'),
    urls,
    text,
    timeoutMs: parseSeconds(raw, 'verify-timeout', 3600) * 1000
  }
}

function parseChangedFiles(raw: RawInputs): ChangedFilesSettings | undefined {
  if (!parseBoolean(raw, 'changed-files')) return undefined
  const urlMap = parseUrlMap(raw['url-map'])
  const keyMap = parseKeyMap(raw['key-map'])
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
  const changedSince = raw['changed-since'] === LAST_PURGE ? '' : raw['changed-since']
  return { urlMap, keyMap, changedSince, githubToken: raw['github-token'] }
}

/** The `changed-since` value that reads and writes the record of each service's last complete purge. */
const LAST_PURGE = 'last-purge'

function parseLastPurge(
  raw: RawInputs,
  changedFiles: boolean,
  purgeAll: boolean
): LastPurgeSettings | undefined {
  if (raw['changed-since'] !== LAST_PURGE) return undefined
  if (!changedFiles && !purgeAll) {
    throw new InputError(
      'changed-since: last-purge needs changed-files: true (to purge what changed since the last complete purge) or mode: all (to purge everything and start the record); a branch or tag named last-purge cannot be named here, give its commit SHA instead'
    )
  }
  if (raw['github-token'] === '') {
    throw new InputError(
      'github-token is required with changed-since: last-purge, which keeps its record as GitHub deployments (the default, github.token, is enough with permissions: deployments: write)'
    )
  }
  const serviceIds = parseServiceIds(raw)
  if (serviceIds.length === 0) {
    throw new InputError(
      'changed-since: last-purge keeps one record per service, named by service-id: set service-id'
    )
  }
  return { serviceIds, githubToken: raw['github-token'] }
}

function checkMode(mode: string, hasKeys: boolean, hasUrls: boolean, soft: boolean): void {
  if (mode === 'all') {
    if (hasKeys || hasUrls) {
      throw new InputError(
        'mode: all purges the whole service and refuses keys or URLs beside it; remove keys/keys-file/urls/urls-file, or leave mode empty to purge only those'
      )
    }
    if (soft) {
      throw new InputError(
        'soft: true cannot be used with mode: all: the purge API has no soft purge-all; purge surrogate keys softly instead, or set soft: false'
      )
    }
    return
  }
  if (mode === 'keys' && hasUrls) {
    throw new InputError(
      'mode: keys refuses URLs; remove urls/urls-file (and url-map), or leave mode empty to purge both'
    )
  }
  if (mode === 'urls' && hasKeys) {
    throw new InputError(
      'mode: urls refuses keys; remove keys/keys-file (and key-map), or leave mode empty to purge both'
    )
  }
  const wanted = mode === 'keys' ? hasKeys : mode === 'urls' ? hasUrls : hasKeys || hasUrls
  if (!wanted) {
    const what =
      mode === 'keys'
        ? 'keys or keys-file'
        : mode === 'urls'
          ? 'urls or urls-file'
          : 'keys, keys-file, urls or urls-file'
    throw new InputError(`Nothing to purge: give ${what}${mode === '' ? ', or set mode: all' : ''}`)
  }
}

/** One service id, or several separated by newlines or commas: keys and purge-all go to each. */
function parseServices(raw: RawInputs): Service[] {
  const ids = parseServiceIds(raw)
  if (ids.length === 0) {
    throw new InputError(
      `service-id is required to purge surrogate keys or a whole service. It is empty: the secret or variable behind it ${NOT_SET}, or this run gets none (a run triggered by a pull request from a fork gets no Actions secrets or variables; one triggered by Dependabot gets variables but no Actions secrets)`
    )
  }
  if (raw['base-url'] === '') {
    throw new InputError(
      'base-url is required to purge surrogate keys or a whole service, e.g. https://api.example-cdn.com'
    )
  }
  const base = parseHttpUrl(raw['base-url'], 'base-url')
  if (base.search !== '' || base.hash !== '') {
    throw new InputError('base-url: give the management address without a query or fragment')
  }
  if (base.pathname.split('/').includes('service')) {
    throw new InputError(
      `base-url: ${shorten(raw['base-url'])} holds /service/ in its path; give the management address only (e.g. https://api.example-cdn.com): the action appends /service/{service-id}/... itself`
    )
  }
  requireSafeTransport(base, 'base-url')
  const baseUrl = base.href.replace(/\/+$/, '')
  return ids.map((id) => ({ id, baseUrl }))
}

/** The service ids, each a safe path segment of printable ASCII; empty when none is given. */
function parseServiceIds(raw: RawInputs): string[] {
  const ids = new Set(listItems(raw['service-id'], 'service-id'))
  for (const id of ids) {
    if (id === '.' || id === '..') {
      throw new InputError(
        `service-id: ${shorten(id)} is not a service id: URLs read . and .. as path steps, so its calls would go to another address than a service's (.. would make {base-url}/purge_all)`
      )
    }
    if (!/^[\x21-\x7e]+$/.test(id)) {
      throw new InputError(
        `service-id: ${shorten(id)} is not a service id: give printable ASCII ids without spaces, separated by newlines or commas`
      )
    }
  }
  return [...ids]
}

/**
 * A token travels in an HTTP header, which cannot carry line breaks, other control characters or
 * non-ASCII text; refused here rather than by the HTTP client mid-run. The value is never shown.
 */
function requireHeaderSafe(raw: RawInputs, name: (typeof SECRET_INPUTS)[number]): void {
  for (const char of raw[name]) {
    const code = char.charCodeAt(0)
    const problem =
      code === 0x0a || code === 0x0d
        ? 'a line break'
        : code < 0x20 || code === 0x7f
          ? 'a control character'
          : code > 0x7e
            ? 'a non-ASCII character'
            : undefined
    if (problem !== undefined) {
      throw new InputError(
        `${name} holds ${problem}, which an HTTP header cannot carry; check the secret behind ${name} (its value is not shown)`
      )
    }
  }
}

/** The token must not cross the network in clear text; loopback is allowed for local test servers. */
function requireSafeTransport(url: URL, source: string): void {
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw new InputError(
      `${source}: http:// would send api-token unencrypted to ${url.host}; use https:// (http is allowed only for localhost, 127.0.0.0/8 and ::1)`
    )
  }
}

function listFileText(
  raw: RawInputs,
  name: 'keys-file' | 'urls-file',
  readFile: FileReader
): string {
  const path = raw[name]
  if (path === '') return ''
  try {
    return readFile(path).replace(/^\uFEFF/, '')
  } catch (error) {
    const reason = messageOf(error)
    throw new InputError(`${name}: cannot read ${shorten(path)}: ${reason}`)
  }
}

const TRUE_VALUES = ['true', 'True', 'TRUE']
const FALSE_VALUES = ['false', 'False', 'FALSE']

function parseBoolean(raw: RawInputs, name: InputName): boolean {
  const value = raw[name]
  if (TRUE_VALUES.includes(value)) return true
  if (FALSE_VALUES.includes(value)) return false
  throw new InputError(`${name} must be true or false, got ${shorten(value)}`)
}

function parseChoice<T extends string>(raw: RawInputs, name: InputName, allowed: readonly T[]): T {
  const value = raw[name]
  const choice = allowed.find((option) => option === value)
  if (choice === undefined) {
    const shown = allowed.filter((option) => option !== '').join(', ')
    throw new InputError(
      `${name} must be one of ${shown}${allowed.includes('' as T) ? ' (or empty)' : ''}, got ${shorten(value)}`
    )
  }
  return choice
}

function parseInteger(raw: RawInputs, name: InputName, min: number, max: number): number {
  const value = raw[name]
  const number = /^\d+$/.test(value) ? Number(value) : NaN
  if (!(number >= min && number <= max)) {
    throw new InputError(
      `${name} must be a whole number from ${min} to ${max}, got ${shorten(value)}`
    )
  }
  return number
}

function parseSeconds(raw: RawInputs, name: InputName, max: number): number {
  const value = raw[name]
  const seconds = /^\d+(\.\d+)?$/.test(value) ? Number(value) : NaN
  if (!(seconds > 0 && seconds <= max)) {
    throw new InputError(
      `${name} must be a number of seconds above 0 and at most ${max}, got ${shorten(value)}`
    )
  }
  return seconds
}
