/**
 * What a dry run shows besides its planned targets: the stages it would run (the wait, the edge
 * check) with their URLs, and each call it would send, as the step log lists them.
 */
import { type PlannedStage, type PurgeCall } from '../../record/index.js'
import { describeCall } from '../../record/words.js'
import type { Guard } from '../../text/guard.js'
import {
  code,
  list,
  SECTION_BYTES,
  SHOWN_ERROR_CHARS,
  SHOWN_TARGET_CHARS,
  table,
  type Budget
} from '../../report-kit/budget.js'

/** A dry run: each URL it would wait for and check at the edge, as the log lists each call. */
export function plannedSection(stages: PlannedStage[], budget: Budget, guard: Guard): string[] {
  return stages.flatMap(({ sentence, urls }) => [
    `<p>${guard.summaryText(sentence, 2 * SHOWN_ERROR_CHARS)}</p>`,
    ...(urls.length === 0
      ? []
      : list(
          urls.map((url) => code(guard, url, SHOWN_TARGET_CHARS)),
          budget,
          SECTION_BYTES.planned / Math.max(1, stages.length),
          'the step log lists every one'
        ))
  ])
}

/** A dry run's calls: what would be sent where, one row each. */
export function callsSection(calls: readonly PurgeCall[], budget: Budget, guard: Guard): string[] {
  if (calls.length === 0) return []
  const { lines } = table(
    ['Call'],
    calls,
    (call) => [code(guard, describeCall(call, guard))],
    budget,
    SECTION_BYTES.calls,
    (shown) => `Showing ${shown} of ${calls.length} calls; the step log lists every one.`
  )
  return ['<h3>Planned calls</h3>', ...lines]
}
