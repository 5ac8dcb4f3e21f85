/** Inputs parsed as the action parses them, for the unit tests of inputs and of list files. */
import { expect } from '@jest/globals'
import { INPUT_PARTS } from '../../src/capabilities/index.js'
import { parseSettings, type RawInputs } from '../../src/config/parse-settings.js'
import { InputError } from '../../src/config/input-error.js'
import type { FileReader } from '../../src/config/list-files.js'
import type { Settings } from '../../src/config/settings.js'
import { DEFAULT_INPUTS } from '../../tools/defaults.js'
import { NO_SECRETS } from './guard.js'

/** The API token of the inputs every test starts from. */
export const TOKEN = 'tok-4f9c2e7a'
export const API: Partial<RawInputs> = {
  'api-token': TOKEN,
  'base-url': 'https://api.example-cdn.com',
  'service-id': 'svc123'
}

function raw(overrides: Partial<RawInputs>): RawInputs {
  return { ...DEFAULT_INPUTS, ...overrides }
}

/** A reader for a run without files: any read is a failure of the test's setup. */
export const noFiles: FileReader = (path) => {
  throw new Error(`unexpected read of ${path}`)
}

/** A reader over an in-memory directory; a missing path fails as readFileSync does. */
export function files(contents: Record<string, string>): FileReader {
  return (path) => {
    const text = contents[path]
    if (text === undefined) {
      throw new Error(`ENOENT: no such file or directory, open '${path}'`)
    }
    return text
  }
}

export function settingsOf(
  overrides: Partial<RawInputs>,
  readFile: FileReader = noFiles
): Settings {
  return parseSettings(raw(overrides), { readFile, guard: NO_SECRETS, parts: INPUT_PARTS })
}

/** The refusal parseSettings throws for these inputs. */
export function refusalOf(
  overrides: Partial<RawInputs>,
  readFile: FileReader = noFiles
): InputError {
  try {
    parseSettings(raw(overrides), { readFile, guard: NO_SECRETS, parts: INPUT_PARTS })
  } catch (error) {
    if (error instanceof InputError) return error
    throw error
  }
  throw new Error(`expected ${JSON.stringify(overrides)} to be refused`)
}

/**
 * The refusal of these inputs: an input error that begins with the input it blames and names the
 * others it concerns.
 */
export function refusalNaming(
  inputs: Partial<RawInputs>,
  [blamed, ...others]: [string, ...string[]],
  readFile: FileReader = noFiles
): string {
  const { message } = refusalOf(inputs, readFile)
  expect(message).toMatch(new RegExp(`^${blamed}(?![\\w-])`))
  for (const name of others) expect(message).toContain(name)
  return message
}
