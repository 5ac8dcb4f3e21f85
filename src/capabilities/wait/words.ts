/** What the log and the summary say of the wait, URL by URL. Pure. */
import type { WaitSettings } from '../../config/settings.js'
import { counted } from '../../text/counted.js'
import type { Guard } from '../../text/guard.js'
import { quoted, shownUrl } from '../../text/shown.js'
import type { UrlWait } from './record.js'

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
