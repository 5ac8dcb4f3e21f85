/**
 * The freshness rule (pure): what one observed answer says about whether visitors get content
 * produced after the purge began, and a one-sentence reason fit for the log and summary.
 */
import type { Observation } from '../../http/observation.js'
import type { Guard } from '../../text/guard.js'
import { quoted } from '../../text/shown.js'

type FreshnessRule = { text: string } | { purgeStartedMs: number; nowMs: number }

export interface Judgement {
  fresh: boolean
  evidence: string
}

export function judge(observation: Observation, rule: FreshnessRule, guard: Guard): Judgement {
  const { status, age, malformedAge, undecodable, cacheStatus, failure } = observation
  const via = cacheStatus === undefined ? '' : ` (${cacheStatus})`
  if (status === null) return { fresh: false, evidence: failure ?? 'no answer' }
  if (status >= 500) return { fresh: false, evidence: `HTTP ${status}${via}` }
  // `HTTP 404, ` for answers other than 2xx: a fresh 404 or a 301 is worth a second look.
  const prefix = status >= 200 && status < 300 ? '' : `HTTP ${status}, `
  if (undecodable !== undefined) return { fresh: false, evidence: `${prefix}${undecodable}${via}` }
  if ('text' in rule) {
    const fresh = observation.textSeen === true
    const evidence = `${prefix}${fresh ? 'showed' : 'did not show'} ${quoted(guard, rule.text)}${via}`
    return { fresh, evidence }
  }
  const elapsedS = Math.max(0, rule.nowMs - rule.purgeStartedMs) / 1000
  const began = `${Math.floor(elapsedS)} s ago`
  if (malformedAge !== undefined) {
    return { fresh: false, evidence: `${prefix}${malformedAge}${via}` }
  }
  if (age === null) return { fresh: true, evidence: `${prefix}no Age header${via}` }
  // `Age` has whole seconds and the purge time is ours: a second of slack keeps a copy made just
  // after the first call from looking older than it.
  return age <= elapsedS + 1
    ? { fresh: true, evidence: `${prefix}Age ${age} s, purge began ${began}${via}` }
    : { fresh: false, evidence: `${prefix}Age ${age} s, but the purge began ${began}${via}` }
}
