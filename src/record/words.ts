/** What the log, annotations and summary say of a run record's parts, in a few words. Pure. */
import type { WaitSettings } from '../config/settings.js'
import { counted } from '../text/counted.js'
import type { Guard } from '../text/guard.js'
import { quoted, shownUrl } from '../text/shown.js'
import type { ChangedFilesReport, PurgeCall, UrlWait } from './index.js'

/** URLs and file paths: long enough for any a CDN or a repository holds in practice, shown whole. */
const SHOWN_ADDRESS_CHARS = 2000

/** A call in one line of the log: method, address, how many keys, soft. */
export function describeCall(call: PurgeCall, guard: Guard): string {
  const count = call.targets.length
  const what = call.operation === 'batch' ? ` (${counted(count, 'key')})` : ''
  return `${call.method} ${guard.oneLine(call.url, SHOWN_ADDRESS_CHARS)}${what}${call.soft ? ' soft' : ''}`
}

/** What the wait asked of each URL. */
export type WaitAwaited = Pick<WaitSettings, 'text' | 'passes'>

export function awaited(settings: WaitAwaited, guard: Guard): string {
  const what = settings.text === undefined ? 'answer 2xx' : `show ${quoted(guard, settings.text)}`
  return settings.passes > 1 ? `${what} ${settings.passes} times in a row` : what
}

/** What each URL still waiting did last, for the log and the job summary. */
export function describeUrlWait(
  { url, checks, last }: UrlWait,
  settings: WaitAwaited,
  guard: Guard
): string {
  const history =
    checks === 0 ? 'no check was made' : `last answer: ${last}, after ${counted(checks, 'check')}`
  return `${shownUrl(guard, url)} did not ${awaited(settings, guard)} (${history})`
}

/** Why changed files gave nothing to purge: none changed, or none matched a map. */
export function nothingToPurge(
  { files, ranges, description }: ChangedFilesReport,
  guard: Guard
): string {
  if (files.length > 0) {
    return `${counted(files.length, 'file')} changed in ${guard.oneLine(description)}, none matched url-map or key-map`
  }
  const [only] = ranges
  const where =
    ranges.length === 1 && only !== undefined
      ? `between ${only.baseSha.slice(0, 7)} and ${only.head.slice(0, 7)}`
      : `in ${guard.oneLine(description)}`
  return `no files changed ${where}`
}
