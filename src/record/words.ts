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

/**
 * How the reason of a call stopped by an earlier answer begins, by what that answer stopped: a
 * knock-on, never the cause. An outage's lead says how many calls failed in a row before it.
 */
const KNOCK_ON_LEADS = {
  unauthorized: 'not sent: an earlier call to the same address got ',
  forbidden: 'not sent: an earlier call needing the same permission found that ',
  host: 'not sent after an earlier call to the same host: ',
  proxy: 'not sent after an earlier call through the same proxy: '
} as const

/** What an earlier answer stops: the calls to its address, permission, host, or proxy. */
export type StopScope = keyof typeof KNOCK_ON_LEADS

const OUTAGE_LEAD = /^not sent: \S+ failed \d+ calls in a row; the last: /

/** The reason of a call not sent because an earlier one was refused (or failed) with `cause`. */
export function notSentAfter(stop: StopScope, cause: string): string {
  return KNOCK_ON_LEADS[stop] + cause
}

/** The reason of a call not sent because `failures` calls to `host` in a row failed, the last with `cause`. */
export function notSentAfterOutage(host: string, failures: number, cause: string): string {
  return `not sent: ${host} failed ${failures} calls in a row; the last: ${cause}`
}

/**
 * What a failure's reason comes down to: the refusal a knock-on was stopped by, or the reason
 * itself. A rejected token is one cause of 600 failures, not two.
 */
export function causeOf(reason: string): { cause: string; knockOn: boolean } {
  for (const lead of Object.values(KNOCK_ON_LEADS)) {
    if (reason.startsWith(lead)) return { cause: reason.slice(lead.length), knockOn: true }
  }
  const outage = OUTAGE_LEAD.exec(reason)
  if (outage !== null) return { cause: reason.slice(outage[0].length), knockOn: true }
  return { cause: reason, knockOn: false }
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
