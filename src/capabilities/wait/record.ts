/** The wait's part of the record: how each URL stood, and how the wait ended. */
import type { Failure } from '../../record/failure.js'

export interface UrlWait {
  url: string
  checks: number
  passedInARow: number
  /** The last answer in a few words (`HTTP 200, did not show "abc1234"`), or `not checked`. */
  last: string
}

export interface WaitOutcome {
  /** Every URL passed: the purge may go ahead. */
  done: boolean
  cancelled: boolean
  /**
   * A proxy's refusal or a certificate problem ended the wait at the first check that met it:
   * `failure` names it and its fix.
   */
  blocked: boolean
  elapsedMs: number
  urls: UrlWait[]
  /**
   * Why the wait failed, in one short sentence: how many URLs were not ready when the time ran
   * out, or the block that ended it.
   */
  failure: Failure | undefined
}

export interface WaitPart {
  /** The wait for the origin, when there was one. */
  wait: WaitOutcome
}

/** A wait that ended without saying why, which only a bug makes. */
export const NOT_READY: Failure = { what: 'the origin was not ready' }
