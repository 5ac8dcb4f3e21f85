/**
 * The inputs as the runner gives them, parsed into one typed, validated `Settings` (pure).
 * parseSettings holds the order of the checks; each part is parsed in the module named for it.
 */
import type { FileReader } from './list-files.js'
import { unknownInputsNote, type UnknownInput } from './input-names.js'
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
import { checkMode, MODES, type Mode } from './mode.js'
import { parseKeys, parseUrls, type ListText } from './lists.js'
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
  'verify-timeout',
  'verify-assets'
] as const

export type InputName = (typeof INPUT_NAMES)[number]
export type RawInputs = Record<InputName, string>

export const SECRET_INPUTS = ['api-token', 'github-token'] as const

/** The run's raw inputs, and its guard, through which a refusal shows what the user gave. */
export interface RunInputs {
  raw: RawInputs
  guard: Guard
}

/** The settings a capability adds, each absent when the run does not use it. */
export type CapabilitySettings = Partial<
  Pick<Settings, 'changedFiles' | 'lastPurge' | 'wait' | 'edgeCheck'>
>

/** A capability's inputs, parsed into its settings. */
export interface InputPart {
  /** It makes targets: parsed before the mode is checked, so its maps count as targets given. */
  makesTargets?: true
  parse(inputs: RunInputs, mode: Mode): CapabilitySettings
}

/**
 * Validates raw inputs into settings; throws `InputError` naming the input and what is allowed.
 * Values are shown through `guard`, the run's; list files are read with `readFile`; `parts` are
 * the capabilities' inputs. `ignored`: the undeclared inputs the runner passed,
 * which "Nothing to purge" points at.
 */
export function parseSettings(
  raw: RawInputs,
  { readFile, guard, parts }: { readFile: FileReader; guard: Guard; parts: readonly InputPart[] },
  ignored: readonly UnknownInput[] = []
): Settings {
  const inputs: RunInputs = { raw, guard }
  for (const name of SECRET_INPUTS) requireHeaderSafe(raw, name)
  const soft = parseBoolean(inputs, 'soft')
  const dryRun = parseBoolean(inputs, 'dry-run')
  const urlPurgeAuth = parseBoolean(inputs, 'url-purge-auth')
  const mode = parseChoice(inputs, 'mode', MODES)
  const keys = parseKeys(guard, [raw.keys, 'keys'], listFile(inputs, 'keys-file', readFile))
  const urls = parseUrls(guard, [raw.urls, 'urls'], listFile(inputs, 'urls-file', readFile))
  // Capabilities that make targets are parsed before the mode is checked, the others after.
  const parsed = (makers: boolean): CapabilitySettings =>
    parts
      .filter((part) => (part.makesTargets ?? false) === makers)
      .reduce<CapabilitySettings>((all, part) => ({ ...all, ...part.parse(inputs, mode) }), {})
  const made = parsed(true)
  const { changedFiles } = made
  // Keys and URLs a map may derive count as given: the run cannot know yet whether it will.
  const hasKeys = keys.length > 0 || (changedFiles?.keyMap.length ?? 0) > 0
  const hasUrls = urls.length > 0 || (changedFiles?.urlMap.length ?? 0) > 0
  const given = { hasKeys, hasUrls, changedFiles: changedFiles !== undefined }
  checkMode(mode, given, soft, unknownInputsNote(ignored, guard))

  const purgeAll = mode === 'all'
  const needsService = purgeAll || hasKeys
  const sendsToken = !dryRun && (needsService || (urlPurgeAuth && hasUrls))
  if (sendsToken) requireApiToken(raw, purgeAll, needsService)
  if (urlPurgeAuth) requireSafeUrlPurges(urls, changedFiles?.urlMap ?? [], guard)

  return {
    services: needsService ? parseServices(inputs) : [],
    purgeAll,
    keys,
    urls,
    soft,
    batchFormat: parseChoice(inputs, 'batch-format', ['json', 'header'] as const),
    batchSize: parseInteger(inputs, 'batch-size', 1, 256),
    concurrency: parseInteger(inputs, 'concurrency', 1, 64),
    maxAttempts: parseInteger(inputs, 'max-attempts', 1, 20),
    timeoutMs: parseSeconds(inputs, 'timeout', 600) * 1000,
    urlPurgeAuth,
    dryRun,
    summary: parseBoolean(inputs, 'summary'),
    failOnError: parseBoolean(inputs, 'fail-on-error'),
    repeatAfterMs: parseInteger(inputs, 'repeat-after', 0, 300) * 1000,
    ...made,
    ...parsed(false)
  }
}

/** A list file's text and its name, as parseKeys and parseUrls read a list. */
function listFile(
  { raw, guard }: RunInputs,
  name: 'keys-file' | 'urls-file',
  readFile: FileReader
): ListText {
  const path = raw[name]
  if (path === '') return ['', name]
  try {
    return [readFile(path).replace(/^\uFEFF/, ''), name]
  } catch (error) {
    throw new InputError(`${name}: cannot read ${shorten(guard, path)}: ${messageOf(error)}`)
  }
}
