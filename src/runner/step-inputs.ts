/** The inputs, read from the runner's `INPUT_<NAME>` variables; the tokens masked before anything else. */
import * as core from '@actions/core'
import {
  refuseMisspelled,
  undeclaredInputs,
  unknownInputWarning,
  type UnknownInput
} from '../config/input-names.js'
import {
  INPUT_NAMES,
  parseSettings,
  SECRET_INPUTS,
  type InputPart,
  type RawInputs
} from '../config/parse-settings.js'
import { readListFile } from '../config/list-files.js'
import type { Settings } from '../config/settings.js'
import type { StepLog } from '../log.js'
import type { Voice } from './voice.js'
import { guardAgainst, type Guard } from '../text/guard.js'

/** A token input, masked before anything else can print it. */
function secretInput(name: (typeof SECRET_INPUTS)[number]): string {
  const value = core.getInput(name).trim()
  if (value !== '') core.setSecret(value)
  return value
}

/** The tokens, which only the connections that send them hold: never the settings. */
export interface Tokens {
  api: string
  github: string
}

/**
 * The tokens, read and masked before any other input, and the run's guard, which hides both: from
 * here on no line, output or summary can show either.
 */
export function readTokens(): { tokens: Tokens; guard: Guard } {
  const tokens = { api: secretInput('api-token'), github: secretInput('github-token') }
  return { tokens, guard: guardAgainst([tokens.api, tokens.github]) }
}

/**
 * The inputs the runner passed that action.yml does not declare: a warning for each unknown one,
 * then the refusal of a misspelled one, before the other inputs are judged (a misspelled
 * `service_id` would otherwise read as a missing `service-id`).
 */
function checkInputNames(log: StepLog, guard: Guard): UnknownInput[] {
  const { misspelled, unknown } = undeclaredInputs(Object.keys(process.env), INPUT_NAMES)
  for (const input of unknown) log.warning(unknownInputWarning(input, guard))
  refuseMisspelled(misspelled, guard)
  return unknown
}

/**
 * The settings of this run: every input but the tokens, which `readTokens` has read; `parts`, the
 * capabilities' inputs.
 */
export function readSettings(
  tokens: Tokens,
  { log, guard }: Voice,
  parts: readonly InputPart[]
): Settings {
  const raw = { 'api-token': tokens.api, 'github-token': tokens.github } as RawInputs
  for (const name of INPUT_NAMES) raw[name] ??= core.getInput(name).trim()
  return parseSettings(
    raw,
    { readFile: (path) => readListFile(path, guard), guard, parts },
    checkInputNames(log, guard)
  )
}
