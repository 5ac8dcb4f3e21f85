/**
 * The freshness rule (pure): what one answer says about whether visitors get content produced
 * after the purge began, and a one-sentence reason fit for the log and summary.
 */
import type { ProbeAnswer } from '../../http/probe.js'
import { oneLine } from '../../text/guard.js'

export interface Observation {
  /** Null when no answer came: `failure` says why. */
  status: number | null
  /** The largest `Age` in whole seconds; null when absent or malformed. */
  age: number | null
  /** Why the `Age` header proves nothing, as evidence; undefined when absent or well-formed. */
  malformedAge: string | undefined
  /** Why the body could not be read (a coding edge-purge cannot undo): such a page is never fresh. */
  undecodable: string | undefined
  /** Whether the body or a header value showed the text; undefined when no text was asked for or no answer came. */
  textSeen: boolean | undefined
  /** The first cache status header the CDN sent, as `Name: value`, cut short. */
  cacheStatus: string | undefined
  failure: string | undefined
}

export type FreshnessRule = { text: string } | { purgeStartedMs: number; nowMs: number }

export interface Judgement {
  fresh: boolean
  /** The answer says nothing about freshness (5xx, network error, timeout): worth asking again. */
  recheck: boolean
  evidence: string
}

/** Vendors' names for "hit or miss", in the order they are preferred when several are sent. */
const CACHE_STATUS_HEADERS = ['X-Cache', 'Cache-Status', 'CF-Cache-Status', 'X-Cache-Status']

/** Server and user text inside evidence: long enough to recognise, short enough for a table cell. */
const SHOWN_VALUE_CHARS = 80
const SHOWN_FAILURE_CHARS = 160

function headerValues(value: string | string[] | undefined): string[] {
  if (value === undefined) return []
  return Array.isArray(value) ? value : [value]
}

/** RFC 9111 §1.2.2: a number of seconds too large to hold counts as 2^31. */
const MAX_AGE_S = 2 ** 31

/**
 * `Age` is one non-negative integer (RFC 9111 §5.1), but an intermediary may join two tiers' values
 * into a list or send a line each: the largest is the copy's age. Any other value proves nothing,
 * so it is never read as a young copy.
 */
function readAge(lines: string[]): Pick<Observation, 'age' | 'malformedAge'> {
  if (lines.length === 0) return { age: null, malformedAge: undefined }
  const values = lines
    .flatMap((line) => line.split(','))
    .map((value) => value.trim())
    .filter((value) => value !== '')
  if (values.length === 0 || !values.every((value) => /^\d+$/.test(value))) {
    const why = values.length === 0 ? 'empty' : 'not a whole number of seconds'
    return { age: null, malformedAge: `malformed Age header ${quoted(lines.join(', '))}: ${why}` }
  }
  const largest = values.reduce((most, value) => Math.max(most, Number(value)), 0)
  return { age: Math.min(largest, MAX_AGE_S), malformedAge: undefined }
}

function cacheStatusOf(headers: Record<string, string | string[] | undefined>): string | undefined {
  for (const name of CACHE_STATUS_HEADERS) {
    const [value] = headerValues(headers[name.toLowerCase()])
    if (value !== undefined) return `${name}: ${oneLine(value, SHOWN_VALUE_CHARS)}`
  }
  return undefined
}

export function observe(answer: ProbeAnswer, text: string | undefined): Observation {
  switch (answer.kind) {
    case 'response': {
      const { headers, body } = answer
      const textSeen =
        text === undefined
          ? undefined
          : body.includes(text) ||
            Object.values(headers).some((value) =>
              headerValues(value).some((one) => one.includes(text))
            )
      return {
        status: answer.status,
        ...readAge(answer.ageLines),
        undecodable:
          answer.undecodable === undefined
            ? undefined
            : oneLine(answer.undecodable, SHOWN_FAILURE_CHARS),
        textSeen,
        cacheStatus: cacheStatusOf(headers),
        failure: undefined
      }
    }
    case 'network':
      return failed(`network error: ${oneLine(answer.message, SHOWN_FAILURE_CHARS)}`)
    case 'timeout':
      return failed(oneLine(answer.message, SHOWN_FAILURE_CHARS))
    case 'cancelled':
      return failed('the run was cancelled')
  }
}

function failed(failure: string): Observation {
  return {
    status: null,
    age: null,
    malformedAge: undefined,
    undecodable: undefined,
    textSeen: undefined,
    cacheStatus: undefined,
    failure
  }
}

export function quoted(text: string): string {
  return `"${oneLine(text, SHOWN_VALUE_CHARS)}"`
}

/** `HTTP 404, ` for answers other than 2xx: a fresh 404 or a 301 is worth a second look. */
function statusPrefix(status: number): string {
  return status >= 200 && status < 300 ? '' : `HTTP ${status}, `
}

export function judge(observation: Observation, rule: FreshnessRule): Judgement {
  const { status, age, malformedAge, undecodable, cacheStatus, failure } = observation
  const via = cacheStatus === undefined ? '' : ` (${cacheStatus})`
  if (status === null) {
    return { fresh: false, recheck: true, evidence: failure ?? 'no answer' }
  }
  if (status >= 500) return { fresh: false, recheck: true, evidence: `HTTP ${status}${via}` }
  const prefix = statusPrefix(status)
  if (undecodable !== undefined) {
    return { fresh: false, recheck: false, evidence: `${prefix}${undecodable}${via}` }
  }
  if ('text' in rule) {
    const fresh = observation.textSeen === true
    const evidence = `${prefix}${fresh ? 'showed' : 'did not show'} ${quoted(rule.text)}${via}`
    return { fresh, recheck: false, evidence }
  }
  const elapsedS = Math.max(0, rule.nowMs - rule.purgeStartedMs) / 1000
  const began = `${Math.floor(elapsedS)} s ago`
  if (malformedAge !== undefined) {
    return { fresh: false, recheck: false, evidence: `${prefix}${malformedAge}${via}` }
  }
  if (age === null) return { fresh: true, recheck: false, evidence: `${prefix}no Age header${via}` }
  // `Age` has whole seconds and the purge time is ours: a second of slack keeps a copy made just
  // after the first call from looking older than it.
  return age <= elapsedS + 1
    ? { fresh: true, recheck: false, evidence: `${prefix}Age ${age} s, purge began ${began}${via}` }
    : {
        fresh: false,
        recheck: false,
        evidence: `${prefix}Age ${age} s, but the purge began ${began}${via}`
      }
}
