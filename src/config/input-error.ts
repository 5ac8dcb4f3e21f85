/** The one error for what the user gave: every check of an input, here or in a stage, throws it. */

/** A failure caused by what the user gave, reported before any request is sent. */
export class InputError extends Error {
  override name = 'InputError'
}
