/**
 * Inputs the runner passed that action.yml does not declare (pure). The runner passes every `with:`
 * entry as `INPUT_<NAME>`, upper-cased, spaces as `_`, and only warns "Unexpected input" about an
 * undeclared one; the action would then run without it, so `dry_run: true` would purge for real.
 *
 * - A name that is a declared input once case is ignored and `_` or a space is read as `-`
 *   (`INPUT_DRY_RUN`) is misspelled: the step is refused before anything is sent.
 * - Any other name is unknown: a warning, naming the closest declared input when one is close.
 *   Close means the fewest edits (Levenshtein), at most 2 and at most half the name's length so
 *   a short name is not matched to anything (`key` → `keys`, `moed` → `mode`; the first in
 *   action.yml's order on a tie); failing that, the one declared name it begins, when it has at
 *   least 3 characters (`service` → `service-id`; `wait` begins four, so names none).
 *
 * The declared names are handed in (INPUT_NAMES): importing them here would close an import
 * cycle through inputs.ts, which hands the note "Nothing to purge" adds to the mode check.
 */
import type { InputName } from './parse-settings.js'
import { InputError } from './input-error.js'
import type { Guard } from '../text/guard.js'
import { shorten } from '../text/shown.js'

/** A declared input under the runner's spelling of another name: the step is refused. */
export interface MisspelledInput {
  /** As the runner passed it, lower-cased: `dry_run`. */
  given: string
  meant: InputName
}

/** Any other undeclared name: a warning. */
export interface UnknownInput {
  /** As the runner passed it, lower-cased: `key`. */
  given: string
  /** The declared input it most likely stands for, when one is close. */
  closest: InputName | undefined
}

export interface UndeclaredInputs {
  misspelled: MisspelledInput[]
  unknown: UnknownInput[]
}

const PREFIX = 'INPUT_'
const MAX_EDITS = 2
const MIN_PREFIX_CHARS = 3

/** Reads a name as the runner's spelling of an input could have been meant. */
const normalized = (name: string): string => name.toLowerCase().replace(/[_ ]/g, '-')

/** The `INPUT_*` names among the environment's variables that no declared input is passed as. */
export function undeclaredInputs(
  variables: readonly string[],
  declared: readonly InputName[]
): UndeclaredInputs {
  const passedAs = new Set(declared.map((name) => `${PREFIX}${name.toUpperCase()}`))
  const found: UndeclaredInputs = { misspelled: [], unknown: [] }
  const names = variables.filter((name) => name.startsWith(PREFIX) && !passedAs.has(name))
  for (const given of names.map((name) => name.slice(PREFIX.length).toLowerCase()).sort()) {
    if (given === '') continue
    const meant = declared.find((name) => name === normalized(given))
    if (meant !== undefined) found.misspelled.push({ given, meant })
    else found.unknown.push({ given, closest: closestInput(normalized(given), declared) })
  }
  return found
}

/** The name among `declared` that `name` most likely stands for, when one is close (see above). */
export function closestInput<Name extends string>(
  name: string,
  declared: readonly Name[]
): Name | undefined {
  const allowed = Math.min(MAX_EDITS, name.length / 2)
  const edits = declared.map((candidate) => editDistance(name, candidate))
  const fewest = Math.min(...edits)
  // The first declared on a tie.
  if (fewest <= allowed) return declared[edits.indexOf(fewest)]
  const begun = declared.filter((candidate) => candidate.startsWith(name))
  return name.length >= MIN_PREFIX_CHARS && begun.length === 1 ? begun[0] : undefined
}

/**
 * Levenshtein distance, one row at a time. Written here: none of the action's dependencies offers
 * one, and a package for twenty lines would be one more thing in the bundle to trust.
 */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index)
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i]
    for (let j = 1; j <= b.length; j += 1) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1)
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution))
    }
    previous = current
  }
  return previous[b.length] ?? 0
}

/** Refuses the run when any input is misspelled, naming each as given and as declared. */
export function refuseMisspelled(misspelled: readonly MisspelledInput[], guard: Guard): void {
  if (misspelled.length === 0) return
  const renames = misspelled.map(({ given, meant }) => `${shorten(guard, given)} to ${meant}`)
  const one = misspelled.length === 1
  throw new InputError(
    `Misspelled input${one ? '' : 's'}: rename ${renames.join(', ')}; as spelled, this action would ignore ${one ? 'it' : 'them'}, so nothing was sent`
  )
}

/** `"key" (did you mean keys?)`, or `"foo"` when no declared input is close. */
function shownUnknown({ given, closest }: UnknownInput, guard: Guard): string {
  return `${shorten(guard, given)}${closest === undefined ? '' : ` (did you mean ${closest}?)`}`
}

/** The warning for one unknown input. */
export function unknownInputWarning({ given, closest }: UnknownInput, guard: Guard): string {
  const guess = closest === undefined ? '' : `; did you mean ${closest}?`
  return `This action ignores input ${shorten(guard, given)}: it has no input of that name${guess}`
}

/** What "Nothing to purge" adds when inputs were ignored: a typo may have meant the targets. */
export function unknownInputsNote(unknown: readonly UnknownInput[], guard: Guard): string {
  if (unknown.length === 0) return ''
  const one = unknown.length === 1
  return `; note the warning${one ? '' : 's'} above: this action ignores input${one ? '' : 's'} ${unknown.map((input) => shownUnknown(input, guard)).join(', ')}`
}
