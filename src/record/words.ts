/** What the log, annotations and summary say of a run record's parts, in a few words. Pure. */
import type { WaitSettings } from '../config/settings.js'
import { counted } from '../text/counted.js'
import { oneLine } from '../text/guard.js'
import { quoted, shownUrl } from '../text/shown.js'
import type { ChangedFilesReport, PurgeCall, UrlWait } from './index.js'

/** URLs and file paths: long enough for any a CDN or a repository holds in practice, shown whole. */
const SHOWN_ADDRESS_CHARS = 2000

/** A call in one line of the log: method, address, how many keys, soft. */
export function describeCall(call: PurgeCall): string {
  const count = call.targets.length
  const what = call.operation === 'batch' ? ` (${counted(count, 'key')})` : ''
  return `${call.method} ${oneLine(call.url, SHOWN_ADDRESS_CHARS)}${what}${call.soft ? ' soft' : ''}`
}

export const NOT_SENT_CANCELLED = 'not sent: the run was cancelled'

/** What an earlier answer stops: the calls to its address, permission, host, or proxy. */
export type StopScope = 'unauthorized' | 'forbidden' | 'host' | 'proxy'

/** Why a call was stopped by an earlier answer: a knock-on, never the cause. */
export type KnockOn =
  | { scope: StopScope }
  /** `failures` calls to `host` in a row failed for a transient cause. */
  | { scope: 'outage'; host: string; failures: number }

/**
 * How a knock-on's reason continues after how far its call got, by what stopped it. The reason
 * ends with the cause, quoted whole, so the report groups it with the calls that met it.
 */
function knockOnLead(knockOn: KnockOn): string {
  switch (knockOn.scope) {
    case 'unauthorized':
      return ': an earlier call to the same address got '
    case 'forbidden':
      return ': an earlier call needing the same permission found that '
    case 'host':
      return ' after an earlier call to the same host: '
    case 'proxy':
      return ' after an earlier call through the same proxy: '
    case 'outage':
      return `: ${knockOn.host} failed ${knockOn.failures} calls in a row; the last: `
  }
}

/**
 * The reason of a call stopped because of an earlier answer with `cause`: `not sent` when it had
 * made no attempt, `stopped after N attempts` when it was stopped between its retries.
 */
export function stoppedBy(knockOn: KnockOn, cause: string, attempts: number): string {
  const far = attempts === 0 ? 'not sent' : `stopped after ${counted(attempts, 'attempt')}`
  return `${far}${knockOnLead(knockOn)}${cause}`
}

/** Every knock-on's beginning: how far its call got, then one of `knockOnLead`'s. */
const KNOCK_ON =
  /^(not sent|stopped after \d+ attempts?)(: an earlier call to the same address got |: an earlier call needing the same permission found that | after an earlier call to the same host: | after an earlier call through the same proxy: |: \S+ failed \d+ calls in a row; the last: )/

/** What a failure's reason comes down to (see `failureCauses`). */
export interface CauseOf {
  /** The answer a knock-on was stopped by, or the reason itself. */
  cause: string
  /** Stopped by an earlier answer: before its first attempt, or between its retries. */
  knockOn: 'not sent' | 'stopped' | undefined
}

/**
 * What a failure's reason comes down to: the answer a knock-on was stopped by, or the reason
 * itself. A rejected token is one cause of 600 failures, not two.
 */
export function causeOf(reason: string): CauseOf {
  const lead = KNOCK_ON.exec(reason)
  if (lead === null) return { cause: reason, knockOn: undefined }
  const cause = reason.slice(lead[0].length)
  return { cause, knockOn: lead[1] === 'not sent' ? 'not sent' : 'stopped' }
}

/** What the wait asked of each URL. */
export type WaitAwaited = Pick<WaitSettings, 'text' | 'passes'>

export function awaited(settings: WaitAwaited): string {
  const what = settings.text === undefined ? 'answer 2xx' : `show ${quoted(settings.text)}`
  return settings.passes > 1 ? `${what} ${settings.passes} times in a row` : what
}

/** What each URL still waiting did last, for the log and the job summary. */
export function describeUrlWait({ url, checks, last }: UrlWait, settings: WaitAwaited): string {
  const history =
    checks === 0 ? 'no check was made' : `last answer: ${last}, after ${counted(checks, 'check')}`
  return `${shownUrl(url)} did not ${awaited(settings)} (${history})`
}

/** Why changed files gave nothing to purge: none changed, or none matched a map. */
export function nothingToPurge({ files, ranges, description }: ChangedFilesReport): string {
  if (files.length > 0) {
    return `${counted(files.length, 'file')} changed in ${oneLine(description)}, none matched url-map or key-map`
  }
  const [only] = ranges
  const where =
    ranges.length === 1 && only !== undefined
      ? `between ${only.baseSha.slice(0, 7)} and ${only.head.slice(0, 7)}`
      : `in ${oneLine(description)}`
  return `no files changed ${where}`
}
