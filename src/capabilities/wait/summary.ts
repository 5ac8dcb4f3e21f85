/** What the log and the summary say of the wait: what the origin showed, or why no purge call was sent. */
import type { WaitSettings } from '../../config/settings.js'
import { reasonOf } from '../../record/failure.js'
import { NOT_READY, type UrlWait, type WaitOutcome } from './record.js'
import { counted } from '../../text/counted.js'
import type { Guard } from '../../text/guard.js'
import { quoted, shownUrl } from '../../text/shown.js'
import {
  code,
  list,
  SECTION_BYTES,
  SHOWN_ERROR_CHARS,
  SHOWN_TARGET_CHARS,
  type Budget
} from '../../report-kit/budget.js'

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

/** The cut of the text the origin had to show. */
const SHOWN_TEXT_CHARS = 80

/** The wait: what the origin showed, or why no purge call was sent and what each URL answered. */
export function waitSection(
  { text, passes }: WaitSettings,
  outcome: WaitOutcome,
  budget: Budget,
  guard: Guard
): string[] {
  const seconds = Math.round(outcome.elapsedMs / 1000)
  const shown =
    text === undefined ? 'answered 2xx' : `showed ${code(guard, text, SHOWN_TEXT_CHARS)}`
  const checks = (item: WaitOutcome['urls'][number]): string =>
    `${counted(item.checks, 'check')} of ${code(guard, item.url, SHOWN_TARGET_CHARS)}`
  if (outcome.done || outcome.cancelled) {
    const lead = outcome.done
      ? `The origin ${shown} after ${seconds} s:`
      : `Waited ${seconds} s for the origin before the cancel:`
    const items = outcome.urls.map(checks)
    return [`<p>${lead}</p>`, ...list(items, budget, SECTION_BYTES.wait, 'the step log has each')]
  }
  const failure = reasonOf(outcome.failure ?? NOT_READY)
  const waiting = outcome.urls.filter((item) => item.passedInARow < passes)
  const items = waiting.map((item) =>
    guard.summaryText(describeUrlWait(item, { text, passes }, guard), SHOWN_ERROR_CHARS)
  )
  return [
    `<p><b>No purge call was sent:</b> ${guard.summaryText(failure, SHOWN_ERROR_CHARS)}.</p>`,
    ...list(items, budget, SECTION_BYTES.wait, 'the step log has each')
  ]
}
