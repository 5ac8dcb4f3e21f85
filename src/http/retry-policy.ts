/** When a failed attempt may be retried, and how long to wait first. Pure. */
import type { IncomingHttpHeaders } from 'node:http'

/** Longer waits are not worth holding a CI job for: the call fails, saying when the limit resets. */
export const MAX_SERVER_WAIT_MS = 120_000

const RETRYABLE_STATUSES = new Set([429, 500, 502, 503, 504])

/** Connection failures that a later attempt can get past; ENOTFOUND (no such host) is not one. */
const RETRYABLE_NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'UND_ERR_SOCKET'
])

export function isRetryableStatus(status: number): boolean {
  return RETRYABLE_STATUSES.has(status)
}

export function isRetryableNetworkCode(code: string | undefined): boolean {
  return code !== undefined && RETRYABLE_NETWORK_CODES.has(code)
}

/** A header's (first) value; node gives repeated headers as arrays. */
export function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name]
  return Array.isArray(value) ? value[0] : value
}

/** `Retry-After` as seconds or an HTTP date, in ms from `now`. */
export function retryAfterMs(headers: IncomingHttpHeaders, now: number): number | undefined {
  const value = headerValue(headers, 'retry-after')?.trim()
  if (value === undefined || value === '') return undefined
  if (/^\d+$/.test(value)) return Number(value) * 1000
  // An HTTP date names its weekday and month; anything else (e.g. "1.5") is not one.
  if (!/[a-z]/i.test(value)) return undefined
  const date = Date.parse(value)
  return Number.isNaN(date) ? undefined : Math.max(0, date - now)
}

/** Any `<Vendor>-RateLimit-Reset` header: UTC epoch seconds at which the limit resets. */
export function rateLimitResetMs(headers: IncomingHttpHeaders, now: number): number | undefined {
  const name = Object.keys(headers).find((header) =>
    /^[a-z0-9]+(-[a-z0-9]+)*-ratelimit-reset$/.test(header)
  )
  const value = name === undefined ? undefined : headerValue(headers, name)?.trim()
  if (value === undefined || !/^\d+$/.test(value)) return undefined
  return Math.max(0, Number(value) * 1000 - now)
}

/**
 * How long the server asked us to wait before the next attempt. Reset headers count only on 429:
 * servers of this family send them on every answer, where they describe the hourly window, not a wait.
 */
export function serverRequestedWaitMs(
  status: number,
  headers: IncomingHttpHeaders,
  now: number
): number | undefined {
  const waits = [
    retryAfterMs(headers, now),
    status === 429 ? rateLimitResetMs(headers, now) : undefined
  ]
  const given = waits.filter((wait): wait is number => wait !== undefined)
  return given.length === 0 ? undefined : Math.max(...given)
}

/** The latest instant a JavaScript Date can hold. */
const MAX_DATE_MS = 8.64e15

/** When a wait of `waitMs` from `now` ends (ms epoch); undefined when no date can hold it. */
export function waitUntil(waitMs: number, now: number): number | undefined {
  const until = now + waitMs
  return until <= MAX_DATE_MS ? until : undefined
}

/** A server's wait in words: "until <time> (N s)", or only the seconds when no date can hold it. */
export function describeWait(waitMs: number, now: number): string {
  const seconds = `${Math.ceil(waitMs / 1000)} s`
  const until = waitUntil(waitMs, now)
  return until === undefined ? seconds : `until ${new Date(until).toISOString()} (${seconds})`
}

const BACKOFF_BASE_MS = 1000
const BACKOFF_CAP_MS = 20_000

/** Exponential backoff with jitter ("equal jitter": half fixed, half random) after `attempt` attempts. */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** (attempt - 1))
  return ceiling / 2 + random() * (ceiling / 2)
}
