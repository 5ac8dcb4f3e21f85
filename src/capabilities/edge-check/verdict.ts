/** What the edge check says of a run: stale, unreachable or unchecked pages fail the step. */
import type { Verdict } from '../capability.js'
import { counted } from '../../text/counted.js'
import type { Guard } from '../../text/guard.js'
import { shorten } from '../../text/shown.js'
import { edgeCounts, notChecked, unreachable, type EdgeCheckEntry } from './record.js'

/** A server message is cut to 300 characters; this leaves room for what the action says around it. */
const SHOWN_REASON_CHARS = 400

/** A URL not known to be fresh, and why: stale, unreachable, or never checked. */
interface EdgeProblem {
  kind: 'stale' | 'unreachable' | 'unchecked'
  url: string
  reason: string
}

function edgeProblems(entries: EdgeCheckEntry[], guard: Guard): EdgeProblem[][] {
  const groups = new Map<string, EdgeProblem[]>()
  for (const entry of entries) {
    if (entry.fresh) continue
    const kind = notChecked(entry) ? 'unchecked' : unreachable(entry) ? 'unreachable' : 'stale'
    const id = `${kind} ${entry.evidence}`
    const group = groups.get(id) ?? []
    group.push({ kind, url: shorten(guard, entry.url), reason: entry.evidence })
    groups.set(id, group)
  }
  return [...groups.values()].sort((a, b) => b.length - a.length)
}

function edgeLine(group: EdgeProblem[], guard: Guard): string {
  const [first] = group as [EdgeProblem, ...EdgeProblem[]]
  const one = group.length === 1
  const which = one ? first.url : `${group.length} URLs`
  const verdict = {
    stale: `${one ? 'is' : 'are'} still stale at the edge after the purge`,
    unreachable: 'could not be reached at the edge, so not known to be fresh',
    unchecked: `${one ? 'is' : 'are'} not known to be fresh`
  }[first.kind]
  return `${which} ${verdict}: ${guard.oneLine(first.reason, SHOWN_REASON_CHARS)}`
}

/** The step's failure sentences, the summary's bold counts, an annotation per kind of problem. */
export function edgeCheckVerdict(entries: EdgeCheckEntry[], guard: Guard): Verdict {
  const { stale, unreachable, unchecked } = edgeCounts(entries)
  const urls = counted(entries.length, 'URL')
  const notFresh = stale + unreachable + unchecked
  return {
    headline: [
      stale > 0 ? `${counted(stale, 'page')} still stale` : undefined,
      unreachable > 0 ? `${counted(unreachable, 'page')} unreachable` : undefined,
      unchecked > 0 ? `${counted(unchecked, 'page')} not checked` : undefined
    ].filter((part) => part !== undefined),
    problems: [
      stale === 0
        ? undefined
        : `${stale} of ${urls} checked at the edge ${stale === 1 ? 'is' : 'are'} still stale after the purge; the job summary and the verification output give the evidence`,
      unreachable === 0
        ? undefined
        : `${unreachable} of ${urls} to check at the edge could not be reached, so ${unreachable === 1 ? 'it is' : 'they are'} not known to be fresh; the verification output says why`,
      unchecked === 0
        ? undefined
        : `${unchecked} of ${urls} to check at the edge ${unchecked === 1 ? 'was' : 'were'} not checked, so ${unchecked === 1 ? 'it is' : 'they are'} not known to be fresh; the verification output says why`
    ].filter((part) => part !== undefined),
    annotations: edgeProblems(entries, guard).map((group) => edgeLine(group, guard)),
    incomplete: notFresh > 0 ? `${counted(notFresh, 'page')} not fresh at the edge` : undefined
  }
}
