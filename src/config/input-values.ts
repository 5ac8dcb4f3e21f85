/** One input's text read as the value it stands for: a boolean, a choice, a count, seconds. Pure. */
import type { InputName, RawInputs, RunInputs, SECRET_INPUTS } from './parse-settings.js'
import { InputError } from './input-error.js'
import { shorten } from '../text/shown.js'

const TRUE_VALUES = ['true', 'True', 'TRUE']
const FALSE_VALUES = ['false', 'False', 'FALSE']

export function parseBoolean({ raw, guard }: RunInputs, name: InputName): boolean {
  const value = raw[name]
  if (TRUE_VALUES.includes(value)) return true
  if (FALSE_VALUES.includes(value)) return false
  throw new InputError(`${name} must be true or false, got ${shorten(guard, value)}`)
}

export function parseChoice<T extends string>(
  { raw, guard }: RunInputs,
  name: InputName,
  allowed: readonly T[]
): T {
  const value = raw[name]
  const choice = allowed.find((option) => option === value)
  if (choice === undefined) {
    const shown = allowed.filter((option) => option !== '').join(', ')
    throw new InputError(
      `${name} must be one of ${shown}${allowed.includes('' as T) ? ' (or empty)' : ''}, got ${shorten(guard, value)}`
    )
  }
  return choice
}

export function parseInteger(inputs: RunInputs, name: InputName, min: number, max: number): number {
  const value = inputs.raw[name]
  const number = /^\d+$/.test(value) ? Number(value) : NaN
  if (!(number >= min && number <= max)) {
    throw new InputError(
      `${name} must be a whole number from ${min} to ${max}, got ${shorten(inputs.guard, value)}`
    )
  }
  return number
}

export function parseSeconds({ raw, guard }: RunInputs, name: InputName, max: number): number {
  const value = raw[name]
  const seconds = /^\d+(\.\d+)?$/.test(value) ? Number(value) : NaN
  if (!(seconds > 0 && seconds <= max)) {
    throw new InputError(
      `${name} must be a number of seconds above 0 and at most ${max}, got ${shorten(guard, value)}`
    )
  }
  return seconds
}

/**
 * A token travels in an HTTP header, which cannot carry line breaks, other control characters or
 * non-ASCII text; refused here rather than by the HTTP client mid-run. The value is never shown.
 */
export function requireHeaderSafe(raw: RawInputs, name: (typeof SECRET_INPUTS)[number]): void {
  // The first UTF-16 unit outside printable ASCII, which every character a header cannot carry has.
  const code = /[^\x20-\x7e]/.exec(raw[name])?.[0].charCodeAt(0)
  if (code === undefined) return
  const problem =
    code === 0x0a || code === 0x0d
      ? 'a line break'
      : code < 0x20 || code === 0x7f
        ? 'a control character'
        : 'a non-ASCII character'
  throw new InputError(
    `${name} holds ${problem}, which an HTTP header cannot carry; check the secret behind ${name} (its value is not shown)`
  )
}
