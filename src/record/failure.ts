/**
 * Why a target failed, as data, from where it happened: what happened, what follows it, the
 * server's words, how the attempts ended, and for a knock-on what stopped it. Every sentence about
 * a failure (the result's `error`, the log, the summary, the annotations, the headline) is made
 * from it here; nothing reads a sentence back. Pure.
 */
import { counted } from '../text/counted.js'

/** What an earlier answer stops: the calls to its address, permission, host, or proxy. */
export type StopScope = 'unauthorized' | 'forbidden' | 'host' | 'proxy'

/** Why a call was stopped by an earlier answer: a knock-on, never the cause. */
export type KnockOn =
  | { scope: StopScope }
  /** `failures` calls to `host` in a row failed for a transient cause. */
  | { scope: 'outage'; host: string; failures: number }

export interface Failure {
  /** What happened, with its status: the headline names a cause by this alone. */
  what: string
  /** What follows it after `: `: the next step, or what was seen. */
  detail?: string | undefined
  /** The server's own words, already guarded. */
  serverSaid?: string | undefined
  /** The answer was cut off at this many MiB. */
  cutOffMiB?: number | undefined
  /** The server asked for a wait longer than the run takes, this many seconds being the most. */
  waitOverS?: number | undefined
  /** The call gave up after this many attempts. */
  gaveUpAfter?: number | undefined
  /** Nothing was sent for the whole run (the wait failed, a cancel came first). */
  notSent?: boolean | undefined
  /** A knock-on: the call was stopped because of an earlier answer, the rest of this being its cause. */
  stopped?: { by: KnockOn; attempts: number } | undefined
}

/**
 * The sentence of the cause a failure comes down to: its own, or, for a knock-on, the answer that
 * stopped it. Failures of one cause read the same, so the report groups them by it.
 */
export function causeText(failure: Failure): string {
  const { what, detail, serverSaid, cutOffMiB, waitOverS, gaveUpAfter, notSent } = failure
  const lead = `${notSent === true ? 'not sent: ' : ''}${what}${detail === undefined ? '' : `: ${detail}`}`
  const said = serverSaid === undefined ? '' : ` — server said: ${serverSaid}`
  const cut = cutOffMiB === undefined ? '' : ` (its answer was cut off at ${cutOffMiB} MiB)`
  const wait =
    waitOverS === undefined
      ? ''
      : `; the server asks to wait longer than the ${waitOverS} s edge-purge waits`
  const tries =
    gaveUpAfter === undefined ? '' : ` (gave up after ${counted(gaveUpAfter, 'attempt')})`
  return `${lead}${said}${cut}${wait}${tries}`
}

/**
 * How a knock-on's reason continues after how far its call got, by what stopped it. The reason
 * ends with the cause, whole.
 */
const KNOCK_ON_LEADS: Record<StopScope, string> = {
  unauthorized: ': an earlier call to the same address got ',
  forbidden: ': an earlier call needing the same permission found that ',
  host: ' after an earlier call to the same host: ',
  proxy: ' after an earlier call through the same proxy: '
}

function knockOnLead(knockOn: KnockOn): string {
  return knockOn.scope === 'outage'
    ? `: ${knockOn.host} failed ${knockOn.failures} calls in a row; the last: `
    : KNOCK_ON_LEADS[knockOn.scope]
}

/**
 * A failure as the results' `error` gives it. A knock-on reads `not sent` when its call had made
 * no attempt, `stopped after N attempts` when it was stopped between its retries, then what
 * stopped it and its cause.
 */
export function reasonOf(failure: Failure): string {
  const { stopped } = failure
  const cause = causeText(failure)
  if (stopped === undefined) return cause
  const far =
    stopped.attempts === 0 ? 'not sent' : `stopped after ${counted(stopped.attempts, 'attempt')}`
  return `${far}${knockOnLead(stopped.by)}${cause}`
}

/** A call's end that names no failure, which only a bug makes. */
export const FAILED: Failure = { what: 'failed' }

/** Every target of a run cancelled before its call was sent. */
export const NOT_SENT_CANCELLED: Failure = { what: 'the run was cancelled', notSent: true }
