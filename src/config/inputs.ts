/**
 * The inputs as the runner gives them, parsed into one typed, validated `Settings` (pure).
 * parseSettings holds the order of the checks; each part is parsed in the module named for it.
 */
import type { FileReader } from './list-files.js'
import type { UnknownInput } from './input-names.js'
import type { Settings } from './settings.js'
import { InputError } from './input-error.js'
import {
  parseBoolean,
  parseChoice,
  parseInteger,
  parseSeconds,
  requireHeaderSafe
} from './input-values.js'
import { parseServices, requireApiToken, requireSafeUrlPurges } from './purge-api.js'
import { checkMode, MODES } from './mode.js'
import { parseChangedFiles, parseLastPurge, parseEdgeCheck, parseWait } from './stage-inputs.js'
import { parseKeys, parseUrls } from './lists.js'
import type { Guard } from '../text/guard.js'
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

/**
 * Validates raw inputs into settings; throws `InputError` naming the input and what is allowed.
 * Values are shown through `guard`, the run's. `ignored`: the undeclared inputs the runner passed,
 * which "Nothing to purge" points at.
 */
export function parseSettings(
  raw: RawInputs,
  { readFile, guard }: { readFile: FileReader; guard: Guard },
  ignored: readonly UnknownInput[] = []
): Settings {
  for (const name of SECRET_INPUTS) requireHeaderSafe(raw, name)
  const soft = parseBoolean(raw, 'soft', guard)
  const dryRun = parseBoolean(raw, 'dry-run', guard)
  const urlPurgeAuth = parseBoolean(raw, 'url-purge-auth', guard)
  const mode = parseChoice(raw, 'mode', MODES, guard)
  const keys = parseKeys(
    guard,
    [raw.keys, 'keys'],
    [listFileText(raw, 'keys-file', readFile, guard), 'keys-file']
  )
  const urls = parseUrls(
    guard,
    [raw.urls, 'urls'],
    [listFileText(raw, 'urls-file', readFile, guard), 'urls-file']
  )
  const changedFiles = parseChangedFiles(raw, guard)
  const lastPurge = parseLastPurge(raw, changedFiles !== undefined, mode === 'all', guard)
  // Keys and URLs a map may derive count as given: the run cannot know yet whether it will.
  const hasKeys = keys.length > 0 || (changedFiles?.keyMap.length ?? 0) > 0
  const hasUrls = urls.length > 0 || (changedFiles?.urlMap.length ?? 0) > 0
  const given = { hasKeys, hasUrls, changedFiles: changedFiles !== undefined }
  checkMode(mode, given, soft, ignored, guard)

  const purgeAll = mode === 'all'
  const needsService = purgeAll || hasKeys
  const sendsToken = !dryRun && (needsService || (urlPurgeAuth && hasUrls))
  if (sendsToken) requireApiToken(raw, purgeAll, needsService)
  if (urlPurgeAuth) requireSafeUrlPurges(urls, changedFiles?.urlMap ?? [], guard)

  return {
    services: needsService ? parseServices(raw, guard) : [],
    purgeAll,
    keys,
    urls,
    soft,
    batchFormat: parseChoice(raw, 'batch-format', ['json', 'header'] as const, guard),
    batchSize: parseInteger(raw, 'batch-size', 1, 256, guard),
    concurrency: parseInteger(raw, 'concurrency', 1, 64, guard),
    maxAttempts: parseInteger(raw, 'max-attempts', 1, 20, guard),
    timeoutMs: parseSeconds(raw, 'timeout', 600, guard) * 1000,
    urlPurgeAuth,
    dryRun,
    summary: parseBoolean(raw, 'summary', guard),
    failOnError: parseBoolean(raw, 'fail-on-error', guard),
    repeatAfterMs: parseInteger(raw, 'repeat-after', 0, 300, guard) * 1000,
    changedFiles,
    lastPurge,
    wait: parseWait(raw, guard),
    edgeCheck: parseEdgeCheck(raw, guard)
  }
}

function listFileText(
  raw: RawInputs,
  name: 'keys-file' | 'urls-file',
  readFile: FileReader,
  guard: Guard
): string {
  const path = raw[name]
  if (path === '') return ''
  try {
    return readFile(path).replace(/^\uFEFF/, '')
  } catch (error) {
    throw new InputError(`${name}: cannot read ${shorten(guard, path)}: ${messageOf(error)}`)
  }
}
