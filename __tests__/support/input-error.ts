/** The refusal a promise rejects with, for tests of what the user is told. */
import { expect } from '@jest/globals'
import { InputError } from '../../src/config/input-error.js'

/** The message of the InputError `promise` rejects with; fails the test on anything else. */
export async function inputError(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason
  )
  expect(error).toBeInstanceOf(InputError)
  return (error as InputError).message
}
