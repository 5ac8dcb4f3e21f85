/** The inputs, read from the runner's `INPUT_<NAME>` variables; the tokens masked before anything else. */
import * as core from '@actions/core'
import {
  refuseMisspelled,
  undeclaredInputs,
  unknownInputWarning,
  type UnknownInput
} from '../config/input-names.js'
import { INPUT_NAMES, parseSettings, SECRET_INPUTS, type RawInputs } from '../config/inputs.js'
import { readListFile } from '../config/list-files.js'
import type { Settings } from '../config/settings.js'
import { hideSecrets } from '../text/guard.js'
import { runnerLog } from './log.js'

/** Reads every input, masking the tokens before anything else can print them. */
function readInputs(): RawInputs {
  const raw = {} as RawInputs
  for (const name of SECRET_INPUTS) {
    raw[name] = core.getInput(name).trim()
    if (raw[name] !== '') core.setSecret(raw[name])
  }
  for (const name of INPUT_NAMES) raw[name] ??= core.getInput(name).trim()
  return raw
}

/**
 * The inputs the runner passed that action.yml does not declare: a warning for each unknown one,
 * then the refusal of a misspelled one, before the other inputs are judged (a misspelled
 * `service_id` would otherwise read as a missing `service-id`).
 */
function checkInputNames(): UnknownInput[] {
  const { misspelled, unknown } = undeclaredInputs(Object.keys(process.env), INPUT_NAMES)
  for (const input of unknown) runnerLog.warning(unknownInputWarning(input))
  refuseMisspelled(misspelled)
  return unknown
}

/** The tokens, which only the connections that send them hold: never the settings. */
export interface Tokens {
  api: string
  github: string
}

/**
 * The settings of this run, and its tokens apart. The guard learns both tokens before any outside
 * text is read, so from here on no line, output or summary can show either.
 */
export function readSettings(): { settings: Settings; tokens: Tokens } {
  const raw = readInputs()
  const tokens = { api: raw['api-token'], github: raw['github-token'] }
  hideSecrets([tokens.api, tokens.github])
  const ignored = checkInputNames()
  return { settings: parseSettings(raw, readListFile, ignored), tokens }
}
