/** Unit tests of the inputs the runner passed that action.yml does not declare: refused or warned. */
import { describe, expect, it } from '@jest/globals'
import {
  refuseMisspelled,
  undeclaredInputs,
  unknownInputsNote,
  unknownInputWarning
} from '../src/config/input-names.js'
import { InputError } from '../src/config/input-error.js'
import { INPUT_NAMES } from '../src/config/parse-settings.js'
import { NO_SECRETS } from './support/guard.js'

/** The variables the runner sets for every declared input, as @actions/core reads them. */
const DECLARED = INPUT_NAMES.map((name) => `INPUT_${name.toUpperCase()}`)

const undeclared = (...variables: string[]) =>
  undeclaredInputs([...DECLARED, 'PATH', 'GITHUB_OUTPUT', ...variables], INPUT_NAMES)

/** The closest declared input named for one unknown name, or undefined. */
const closestTo = (given: string) => undeclared(`INPUT_${given.toUpperCase()}`).unknown[0]?.closest

describe('undeclaredInputs', () => {
  it('finds none when the runner passed only the declared inputs', () => {
    expect(undeclared()).toEqual({ misspelled: [], unknown: [] })
  })

  it.each([
    ['INPUT_DRY_RUN', 'dry_run', 'dry-run'],
    ['INPUT_SERVICE_ID', 'service_id', 'service-id'],
    ['INPUT_Keys-File', 'keys-file', 'keys-file'],
    ['INPUT_WAIT FOR_URL', 'wait for_url', 'wait-for-url']
  ])('reads %s as a misspelling, named as given and as declared', (variable, given, meant) => {
    expect(undeclared(variable)).toEqual({ misspelled: [{ given, meant }], unknown: [] })
  })

  it('finds every unknown name, in order, beside the misspelled ones', () => {
    const found = undeclared('INPUT_KEY', 'INPUT_DRY_RUN', 'INPUT_COLOUR')
    expect(found.misspelled.map(({ given }) => given)).toEqual(['dry_run'])
    expect(found.unknown).toEqual([
      { given: 'colour', closest: undefined },
      { given: 'key', closest: 'keys' }
    ])
  })

  it('ignores variables that are not inputs, and INPUT_ with no name', () => {
    expect(undeclared('INPUTS', 'MY_INPUT_KEY', 'INPUT_')).toEqual({ misspelled: [], unknown: [] })
  })

  it.each([
    ['key', 'keys'],
    ['url', 'urls'],
    ['moed', 'mode'],
    ['tiemout', 'timeout'],
    ['key-file', 'keys-file'],
    ['verify_url', 'verify-urls'],
    ['concurrent', 'concurrency'],
    ['service', 'service-id'],
    ['api', 'api-token']
  ])('names the closest declared input for %s: %s', (given, closest) => {
    expect(closestTo(given)).toBe(closest)
  })

  it.each([
    ['foo', 'more edits than half its length'],
    ['ab', 'two characters'],
    ['wait', 'begins four inputs'],
    ['batch', 'begins two inputs'],
    ['token', 'ends two inputs'],
    ['purge-everything', 'close to nothing']
  ])('names none for %s (%s)', (given) => {
    expect(closestTo(given)).toBeUndefined()
  })
})

describe('what the user is told', () => {
  it('refuses a misspelled input, naming it as given and the declared name', () => {
    const refuse = () => refuseMisspelled([{ given: 'dry_run', meant: 'dry-run' }], NO_SECRETS)
    expect(refuse).toThrow(InputError)
    expect(refuse).toThrow(
      'Misspelled input: rename "dry_run" to dry-run; as spelled, this action would ignore it, so nothing was sent'
    )
  })

  it('names every misspelled input in one refusal', () => {
    const refuse = () =>
      refuseMisspelled(
        [
          { given: 'dry_run', meant: 'dry-run' },
          { given: 'service_id', meant: 'service-id' }
        ],
        NO_SECRETS
      )
    expect(refuse).toThrow(/^Misspelled inputs: rename "dry_run" to dry-run, "service_id" to /)
  })

  it('refuses nothing when nothing is misspelled', () => {
    expect(() => refuseMisspelled([], NO_SECRETS)).not.toThrow()
  })

  it('warns of an unknown input, with the closest declared one when there is one', () => {
    expect(unknownInputWarning({ given: 'key', closest: 'keys' }, NO_SECRETS)).toBe(
      'This action ignores input "key": it has no input of that name; did you mean keys?'
    )
    expect(unknownInputWarning({ given: 'colour', closest: undefined }, NO_SECRETS)).toBe(
      'This action ignores input "colour": it has no input of that name'
    )
  })

  it('words the note "Nothing to purge" adds, and adds none without unknown inputs', () => {
    expect(unknownInputsNote([{ given: 'key', closest: 'keys' }], NO_SECRETS)).toBe(
      '; note the warning above: this action ignores input "key" (did you mean keys?)'
    )
    const two = [
      { given: 'colour', closest: undefined },
      { given: 'key', closest: 'keys' as const }
    ]
    expect(unknownInputsNote(two, NO_SECRETS)).toBe(
      '; note the warnings above: this action ignores inputs "colour", "key" (did you mean keys?)'
    )
    expect(unknownInputsNote([], NO_SECRETS)).toBe('')
  })

  it('shows a name through the guard: a line break in it cannot start a runner command', () => {
    const given = 'a\n::add-mask::b'
    const warning = unknownInputWarning({ given, closest: undefined }, NO_SECRETS)
    expect(warning).not.toMatch(/[\r\n]/)
    // Shown as JSON shows it: quoted, the line break escaped.
    expect(warning).toContain(JSON.stringify(given))
  })
})
