/**
 * The command line and the environment, read into the action's raw inputs (pure but for the token
 * files): every input of action.yml is `--name value`, `--name=value` or `EDGE_PURGE_<NAME>`, an
 * option winning over its variable; the tokens come only from a variable or a file.
 */
import { readFileSync, statSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { closestInput } from '../config/input-names.js'
import {
  INPUT_NAMES,
  SECRET_INPUTS,
  type InputName,
  type RawInputs
} from '../config/parse-settings.js'
import { messageOf } from '../text/message.js'
import { ACTION_DEFAULTS } from './action-inputs.js'

/** A mistake on the command line: exit 2, nothing sent. Its message never holds a token. */
export class UsageError extends Error {
  override name = 'UsageError'
}

/** What the command was given: the inputs as the runner would pass them, and its own options. */
export interface CommandOptions {
  raw: RawInputs
  json: boolean
  /** Where the results file goes; `undefined`: a new file in the system's temporary folder. */
  resultsFile: string | undefined
}

type Secret = (typeof SECRET_INPUTS)[number]
export const isSecret = (name: string): name is Secret =>
  (SECRET_INPUTS as readonly string[]).includes(name)

/** Inputs that are true or false: `--name` is true, `--no-name` false, `--name=value` as given. */
const BOOLEANS = INPUT_NAMES.filter((name) => ['true', 'false'].includes(ACTION_DEFAULTS[name]))
const VALUED = INPUT_NAMES.filter((name) => !isSecret(name) && !BOOLEANS.includes(name))
const TOKEN_FILES = ['api-token-file', 'github-token-file'] as const
/** Every option the command knows, as spelled after `--`: the candidates for "did you mean". */
const KNOWN = [
  ...VALUED,
  ...BOOLEANS,
  ...BOOLEANS.map((name) => `no-${name}`),
  ...TOKEN_FILES,
  'json',
  'results-file',
  'help'
]

/** Whether the command is asked for its help (`--help` or `-h`), which wins over anything else. */
export const wantsHelp = (args: readonly string[]): boolean =>
  args.some((arg) => arg === '-h' || arg === '--help' || arg === '--help=true')

const PREFIX = 'EDGE_PURGE_'
/** `EDGE_PURGE_DRY_RUN` for `dry-run`. */
export const variableOf = (name: string): string =>
  `${PREFIX}${name.toUpperCase().replace(/-/g, '_')}`
/** A name past 60 characters is cut: it may be something pasted in the wrong place. */
const shortened = (name: string): string => (name.length > 60 ? `${name.slice(0, 60)}…` : name)

/** One `--name[=value]` argument, split; `undefined` for anything else. */
function optionOf(arg: string): { name: string; value: string | undefined } | undefined {
  const match = /^--([^=]+)(?:=([\s\S]*))?$/.exec(arg)
  return match === null ? undefined : { name: match[1] ?? '', value: match[2] }
}

/** The refusal of a token on the command line: which variable and option replace it; never the value. */
function tokenOnCommandLine(name: Secret): UsageError {
  return new UsageError(
    `--${name} is refused: a command line ends up in shell history and process lists. ` +
      `Give the token in ${variableOf(name)} or in a file named by --${name}-file`
  )
}

function unknownOption(name: string): UsageError {
  const closest = closestInput(name, KNOWN)
  const guess = closest === undefined ? '' : ` (did you mean --${closest}?)`
  return new UsageError(`Unknown option --${shortened(name)}${guess}`)
}

/**
 * Refuses an `EDGE_PURGE_*` variable that no input is read from, naming the closest input's, as an
 * unknown option is: `EDGE_PURGE_DRY_RN` would otherwise purge for real. An empty one is unset.
 */
function refuseUnknownVariables(env: NodeJS.ProcessEnv): void {
  const known = INPUT_NAMES.map(variableOf)
  for (const variable of Object.keys(env).sort()) {
    if (!variable.startsWith(PREFIX) || known.includes(variable) || !env[variable]) continue
    const name = variable.slice(PREFIX.length).toLowerCase().replace(/_/g, '-')
    const closest = closestInput(name, INPUT_NAMES)
    const guess = closest === undefined ? '' : ` (did you mean ${variableOf(closest)}?)`
    throw new UsageError(`Unknown variable ${shortened(variable)}: it names no input${guess}`)
  }
}

/** The options given, by name (the last of a repeated one wins); the token options refused. */
function givenOptions(args: readonly string[]): Map<string, string> {
  const given = new Map<string, string>()
  for (let at = 0; at < args.length; at += 1) {
    const arg = args[at] ?? ''
    const option = optionOf(arg)
    if (option === undefined) {
      throw new UsageError(
        `This command takes options only (--name value); ${arg.startsWith('-') ? 'short options are' : 'an argument is'} not one`
      )
    }
    const { name, value } = option
    if (isSecret(name)) throw tokenOnCommandLine(name)
    const negated = name.startsWith('no-') ? name.slice(3) : undefined
    if (negated !== undefined && BOOLEANS.includes(negated as InputName)) {
      if (value !== undefined) throw new UsageError(`--${name} takes no value`)
      given.set(negated, 'false')
    } else if (BOOLEANS.includes(name as InputName) || name === 'json' || name === 'help') {
      given.set(name, value ?? 'true')
    } else if (KNOWN.includes(name)) {
      const next = value ?? args[(at += 1)]
      if (next === undefined) throw new UsageError(`--${name} needs a value`)
      given.set(name, next)
    } else {
      throw unknownOption(name)
    }
  }
  return given
}

/** A token: from its variable or from the file its option names, never both; trimmed. */
function tokenOf(name: Secret, given: Map<string, string>, env: NodeJS.ProcessEnv): string {
  const variable = variableOf(name)
  const fromVariable = env[variable] ?? ''
  const file = given.get(`${name}-file`)
  if (file === undefined) return fromVariable.trim()
  if (fromVariable !== '') {
    throw new UsageError(
      `Both ${variable} and --${name}-file give the ${name}: ambiguous, give only one`
    )
  }
  try {
    return readFileSync(file, 'utf8').trim()
  } catch (error) {
    throw new UsageError(
      `Could not read --${name}-file ${JSON.stringify(file)}: ${messageOf(error).replace(/\s+/g, ' ')}`
    )
  }
}

/**
 * Reads `args` (without node and the script) and `env`: each input from its option, else its
 * variable (an empty one counts as unset), else action.yml's default; the tokens' defaults never
 * apply (github-token's is an expression only the runner evaluates).
 */
export function readOptions(args: readonly string[], env: NodeJS.ProcessEnv): CommandOptions {
  const given = givenOptions(args[0] === '--' ? args.slice(1) : args)
  refuseUnknownVariables(env)
  const raw = {} as RawInputs
  for (const name of INPUT_NAMES) {
    if (isSecret(name)) raw[name] = tokenOf(name, given, env)
    else raw[name] = (given.get(name) ?? (env[variableOf(name)] || ACTION_DEFAULTS[name])).trim()
  }
  const json = given.get('json') ?? 'false'
  if (json !== 'true' && json !== 'false') throw new UsageError('--json takes true or false')
  return { raw, json: json === 'true', resultsFile: resultsFileOf(given.get('results-file')) }
}

/** A results file the user asked for goes where asked, or nothing is sent. */
function resultsFileOf(path: string | undefined): string | undefined {
  if (path === undefined) return undefined
  const folder = dirname(resolve(path))
  if (!statSync(folder, { throwIfNoEntry: false })?.isDirectory()) {
    // Quoted as JSON: a path is the user's text, and no newline in it may start a line of its own.
    throw new UsageError(
      `--results-file ${JSON.stringify(path)}: the folder ${JSON.stringify(folder)} does not exist`
    )
  }
  return path
}
