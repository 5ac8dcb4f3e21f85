/**
 * What one answer of a page shows (pure): status, the copy's `Age`, the cache status header,
 * whether a text was seen. Read by the wait for the origin and the edge check alike.
 */
import type { IncomingHttpHeaders } from 'node:http'
import type { Answer } from './agents.js'
import { headersShow, type PageReading } from './probe.js'
import { headerValue } from './retry-policy.js'
import { describeBlocked } from './blocked.js'
import type { Guard } from '../text/guard.js'
import { quoted } from '../text/shown.js'

export interface Observation {
  /** Null when no answer came: `failure` says why. */
  status: number | null
  /** The largest `Age` in whole seconds; null when absent or malformed. */
  age: number | null
  /** Why the `Age` header proves nothing, as evidence; undefined when absent or well-formed. */
  malformedAge: string | undefined
  /** Why the body could not be read (a coding edge-purge cannot undo): such a page is never fresh. */
  undecodable?: string
  /** Whether the body or a header value showed the text; unset when no text was asked for or no answer came. */
  textSeen?: boolean
  /** The first cache status header the CDN sent, as `Name: value`, cut short. */
  cacheStatus?: string
  failure?: string
}

/** Vendors' names for "hit or miss", in the order they are preferred when several are sent. */
const CACHE_STATUS_HEADERS = ['X-Cache', 'Cache-Status', 'CF-Cache-Status', 'X-Cache-Status']

/** Server text inside evidence: long enough to recognise, short enough for a table cell. */
const SHOWN_VALUE_CHARS = 80
const SHOWN_FAILURE_CHARS = 160
/**
 * A block's sentence is ours, around at most three host names (253 characters each): shown whole,
 * since its end is the fix.
 */
const SHOWN_BLOCKED_CHARS = 1000

/** RFC 9111 §1.2.2: a number of seconds too large to hold counts as 2^31. */
const MAX_AGE_S = 2 ** 31

/**
 * `Age` is one non-negative integer (RFC 9111 §5.1), but an intermediary may join two tiers' values
 * into a list or send a line each: the largest is the copy's age. Any other value proves nothing,
 * so it is never read as a young copy.
 */
function readAge(lines: string[], guard: Guard): Pick<Observation, 'age' | 'malformedAge'> {
  if (lines.length === 0) return { age: null, malformedAge: undefined }
  const values = lines
    .flatMap((line) => line.split(','))
    .map((value) => value.trim())
    .filter((value) => value !== '')
  if (values.length === 0 || !values.every((value) => /^\d+$/.test(value))) {
    const why = values.length === 0 ? 'empty' : 'not a whole number of seconds'
    return {
      age: null,
      malformedAge: `malformed Age header ${quoted(guard, lines.join(', '))}: ${why}`
    }
  }
  const largest = values.reduce((most, value) => Math.max(most, Number(value)), 0)
  return { age: Math.min(largest, MAX_AGE_S), malformedAge: undefined }
}

/** RFC 9211: a cache that served the answer lists the `hit` parameter. */
const CACHE_STATUS_HIT = /;\s*hit\s*(?=;|,|$)/i

/**
 * Whether a cache status header says a cache served the answer: `Cache-Status` by its `hit`
 * parameter, the vendors' headers by a value holding `HIT`, in any case.
 */
export function saysHit(headers: IncomingHttpHeaders): boolean {
  return CACHE_STATUS_HEADERS.some((name) => {
    const value = headerValue(headers, name.toLowerCase())
    if (value === undefined) return false
    return name === 'Cache-Status' ? CACHE_STATUS_HIT.test(value) : /hit/i.test(value)
  })
}

function cacheStatusOf(headers: IncomingHttpHeaders, guard: Guard): string | undefined {
  for (const name of CACHE_STATUS_HEADERS) {
    const value = headerValue(headers, name.toLowerCase())
    if (value !== undefined) return `${name}: ${guard.oneLine(value, SHOWN_VALUE_CHARS)}`
  }
  return undefined
}

/** What a page's answer showed; its words pass `guard`, the run's. */
export function observe(
  answer: Answer<PageReading>,
  text: string | undefined,
  guard: Guard
): Observation {
  switch (answer.kind) {
    case 'response': {
      const { headers, body } = answer
      const textSeen =
        text === undefined ? undefined : body.includes(text) || headersShow(headers, text)
      return {
        status: answer.status,
        ...readAge(answer.ageLines, guard),
        undecodable:
          answer.undecodable === undefined
            ? undefined
            : guard.oneLine(answer.undecodable, SHOWN_FAILURE_CHARS),
        textSeen,
        cacheStatus: cacheStatusOf(headers, guard)
      }
    }
    case 'network':
      return failed(`network error: ${guard.oneLine(answer.message, SHOWN_FAILURE_CHARS)}`)
    case 'blocked':
      return failed(guard.oneLine(describeBlocked(answer.blocked), SHOWN_BLOCKED_CHARS))
    case 'timeout':
      return failed(guard.oneLine(answer.message, SHOWN_FAILURE_CHARS))
    case 'cancelled':
      return failed('the run was cancelled')
  }
}

function failed(failure: string): Observation {
  return { status: null, age: null, malformedAge: undefined, failure }
}
