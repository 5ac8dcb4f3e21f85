/**
 * The head of the summary: the run's answer in its first line, why it ended early, its scope, and
 * which run it was.
 */
import type { RunContext } from '../../record/index.js'
import { counted } from '../../text/counted.js'
import type { Guard } from '../../text/guard.js'
import type { Cause } from '../causes.js'
import { code } from '../../report-kit/budget.js'
import type { SummaryFacts } from './facts.js'

/** What the targets came to: a count each way, the whole service for purge-all, the one cause. */
function outcome(facts: SummaryFacts, causes: Cause[], guard: Guard): string {
  const { counts, results, settings } = facts
  const [only] = causes
  // When nothing was sent, the headline says why once, after the counts.
  const cause =
    causes.length === 1 && only !== undefined && facts.notSent === undefined
      ? `: ${guard.summaryText(only.brief, 200)}`
      : ''
  if (!settings.purgeAll) return `${counts.purged} purged, ${counts.failed} failed${cause}`
  const purged: string[] = []
  const failed: string[] = []
  for (const { status, target } of results) (status === 'purged' ? purged : failed).push(target)
  const ids = (list: string[]): string => guard.summaryText(list.join(', '), 200)
  return [
    purged.length > 0 ? `everything in ${ids(purged)} purged` : undefined,
    failed.length > 0 ? `${ids(failed)} not purged${cause}` : undefined
  ]
    .filter((part) => part !== undefined)
    .join('; ')
}

/** The run's answer, in the first line: what was purged, what failed, what visitors still get stale. */
function heading(facts: SummaryFacts, causes: Cause[], guard: Guard): string {
  const { counts, settings, verdicts, notSent } = facts
  const services = settings.services.map((service) => service.id).join(', ')
  const title = services === '' ? 'Edge purge' : `Edge purge of ${guard.summaryText(services)}`
  const nothing = verdicts.find((verdict) => verdict.nothingToPurge !== undefined)?.nothingToPurge
  if (counts.total === 0 && nothing !== undefined) {
    return `${title}: nothing to purge: ${guard.summaryText(nothing)}`
  }
  if (settings.dryRun) {
    const planned = settings.purgeAll ? 'everything planned' : `${counts.planned} planned`
    return `${title} (dry run): ${planned}, nothing sent`
  }
  const bold = verdicts.flatMap((verdict) => verdict.headline ?? [])
  return (
    `${title}: ${outcome(facts, causes, guard)}` +
    bold.map((part) => `, <b>${part}</b>`).join('') +
    (notSent === undefined ? '' : `, <b>nothing sent</b>: ${notSent}`)
  )
}

function scopeLine(facts: SummaryFacts): string {
  const { counts, calls } = facts
  const { repeatAfterMs, dryRun, purgeAll } = facts.settings
  const sent = dryRun || facts.notSent !== undefined ? ' planned, none sent' : ''
  const what = purgeAll
    ? `purge-all of ${counted(counts.total, 'service')}`
    : counted(counts.total, 'target')
  return [
    `${what} in ${counted(calls.length, 'call')}${sent}`,
    repeatAfterMs > 0
      ? `purged twice, ${repeatAfterMs / 1000} s apart (repeat-after): a target counts as purged only when both passes purged it`
      : undefined
  ]
    .filter((part) => part !== undefined)
    .join(' · ')
}

/** Event, repository, commit, workflow and run: whichever the runner set (all of them, in a real run). */
function contextLine(context: RunContext, guard: Guard): string {
  const where = context.sha === '' ? '' : ` at ${code(guard, context.sha.slice(0, 7), 7)}`
  const parts = [
    `${guard.summaryText(context.event || 'run')} on ${code(guard, context.repository)}${where}`,
    context.workflow === '' ? undefined : `workflow <b>${guard.summaryText(context.workflow)}</b>`,
    Number.isInteger(context.runNumber) && context.runNumber > 0
      ? runLink(context.runNumber, context.runUrl, guard)
      : undefined
  ]
  return parts.filter((part) => part !== undefined).join(', ')
}

/** An empty `runUrl` means the runner gave no usable run id: an `href=""` would link this page. */
function runLink(runNumber: number, runUrl: string, guard: Guard): string {
  return runUrl === ''
    ? `run ${runNumber}`
    : `<a href="${guard.summaryText(runUrl)}">run ${runNumber}</a>`
}

/** The head's lines; the first is the answer, so it must stay the `<h2>` alone on its line. */
export function headLines(facts: SummaryFacts, causes: Cause[], guard: Guard): string[] {
  const lines = [`<h2>${heading(facts, causes, guard)}</h2>`]
  for (const early of [facts.stopped, facts.unexpectedError]) {
    if (early !== undefined) lines.push(`<p><b>${guard.summaryText(early)}</b></p>`)
  }
  // With nothing to purge, the headline says why: no scope of 0 targets in 0 calls.
  if (facts.counts.total > 0) lines.push(`<p>${scopeLine(facts)}</p>`)
  if (facts.context !== undefined) lines.push(`<p>${contextLine(facts.context, guard)}</p>`)
  return lines
}
