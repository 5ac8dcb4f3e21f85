/** Unit tests of the retry policy: what is retried, and never sooner than the server asked. */
import { describe, expect, it } from '@jest/globals'
import {
  backoffMs,
  isRetryableNetworkCode,
  isRetryableStatus,
  MAX_SERVER_WAIT_MS,
  serverRequestedWaitMs
} from '../src/http/retry-policy.js'

/** A fixed "now" (ms epoch), on a whole second. */
const NOW = Date.UTC(2025, 5, 1, 12, 0, 0)
const epochSeconds = (ms: number): string => String(Math.floor(ms / 1000))

describe('serverRequestedWaitMs', () => {
  it('reads Retry-After in seconds', () => {
    expect(serverRequestedWaitMs(429, { 'retry-after': '7' }, NOW)).toBe(7000)
    expect(serverRequestedWaitMs(503, { 'retry-after': '120' }, NOW)).toBe(120_000)
  })

  it('reads Retry-After 0 as no wait', () => {
    expect(serverRequestedWaitMs(503, { 'retry-after': '0' }, NOW)).toBe(0)
  })

  it('tolerates spaces around the Retry-After value', () => {
    expect(serverRequestedWaitMs(429, { 'retry-after': ' 5 ' }, NOW)).toBe(5000)
  })

  it('reads Retry-After as an HTTP date', () => {
    const date = new Date(NOW + 90_000).toUTCString()
    expect(serverRequestedWaitMs(503, { 'retry-after': date }, NOW)).toBe(90_000)
  })

  it('reads an HTTP date already past as no wait, never a negative one', () => {
    const date = new Date(NOW - 60_000).toUTCString()
    expect(serverRequestedWaitMs(503, { 'retry-after': date }, NOW)).toBe(0)
  })

  it('ignores a fractional Retry-After instead of reading it as a date', () => {
    expect(serverRequestedWaitMs(503, { 'retry-after': '1.5' }, NOW)).toBeUndefined()
  })

  it('ignores an unreadable Retry-After', () => {
    expect(serverRequestedWaitMs(503, { 'retry-after': 'soon' }, NOW)).toBeUndefined()
    expect(serverRequestedWaitMs(503, { 'retry-after': '' }, NOW)).toBeUndefined()
  })

  it('says nothing when the server said nothing', () => {
    expect(serverRequestedWaitMs(429, {}, NOW)).toBeUndefined()
    expect(serverRequestedWaitMs(503, { 'content-type': 'application/json' }, NOW)).toBeUndefined()
  })

  it.each([
    'edge-ratelimit-reset',
    'fastly-ratelimit-reset',
    'x-ratelimit-reset',
    'my-cdn-ratelimit-reset'
  ])('on 429, honours %s as UTC epoch seconds', (name) => {
    const headers = { [name]: epochSeconds(NOW + 45_000) }
    expect(serverRequestedWaitMs(429, headers, NOW)).toBe(45_000)
  })

  it('on 429, reads a reset time already past as no wait', () => {
    const headers = { 'edge-ratelimit-reset': epochSeconds(NOW - 10_000) }
    expect(serverRequestedWaitMs(429, headers, NOW)).toBe(0)
  })

  it.each([200, 500, 502, 503, 504])(
    'ignores a rate-limit reset header on %i: there it describes the hourly window, not a wait',
    (status) => {
      const headers = { 'edge-ratelimit-reset': epochSeconds(NOW + 3_000_000) }
      expect(serverRequestedWaitMs(status, headers, NOW)).toBeUndefined()
    }
  )

  it('ignores a rate-limit reset header that is not epoch seconds', () => {
    expect(serverRequestedWaitMs(429, { 'edge-ratelimit-reset': 'later' }, NOW)).toBeUndefined()
  })

  it('does not take the rate-limit remaining count for a reset time', () => {
    expect(serverRequestedWaitMs(429, { 'edge-ratelimit-remaining': '0' }, NOW)).toBeUndefined()
  })

  it('takes the longer of Retry-After and the reset time: never sooner than asked', () => {
    const resetLater = {
      'retry-after': '5',
      'edge-ratelimit-reset': epochSeconds(NOW + 30_000)
    }
    expect(serverRequestedWaitMs(429, resetLater, NOW)).toBe(30_000)
    const retryAfterLater = {
      'retry-after': '60',
      'edge-ratelimit-reset': epochSeconds(NOW + 30_000)
    }
    expect(serverRequestedWaitMs(429, retryAfterLater, NOW)).toBe(60_000)
  })

  it('reports waits beyond the limit as they are, so the caller can refuse them', () => {
    const headers = { 'edge-ratelimit-reset': epochSeconds(NOW + 3_600_000) }
    const wait = serverRequestedWaitMs(429, headers, NOW)
    expect(wait).toBe(3_600_000)
    expect(wait).toBeGreaterThan(MAX_SERVER_WAIT_MS)
    expect(MAX_SERVER_WAIT_MS).toBe(120_000)
  })
})

describe('backoffMs', () => {
  const low = (): number => 0
  const high = (): number => 0.999999

  it('grows exponentially from one second', () => {
    const floors = [1, 2, 3, 4, 5].map((attempt) => backoffMs(attempt, low))
    expect(floors).toEqual([500, 1000, 2000, 4000, 8000])
    const ceilings = [1, 2, 3, 4, 5].map((attempt) => backoffMs(attempt, high))
    ceilings.forEach((ceiling, index) => {
      expect(ceiling).toBeCloseTo(1000 * 2 ** index, -1)
    })
  })

  it('stays within [ceiling/2, ceiling] for any random value', () => {
    for (let attempt = 1; attempt <= 10; attempt += 1) {
      const ceiling = Math.min(20_000, 1000 * 2 ** (attempt - 1))
      for (const value of [0, 0.1, 0.5, 0.9, 0.999999]) {
        const wait = backoffMs(attempt, () => value)
        expect(wait).toBeGreaterThanOrEqual(ceiling / 2)
        expect(wait).toBeLessThanOrEqual(ceiling)
      }
    }
  })

  it('is capped at 20 seconds however many attempts were made', () => {
    for (const attempt of [6, 7, 10, 20, 100]) {
      expect(backoffMs(attempt, high)).toBeLessThanOrEqual(20_000)
      expect(backoffMs(attempt, low)).toBe(10_000)
    }
  })

  it('spreads retries: different random values give different waits', () => {
    expect(backoffMs(3, () => 0.2)).not.toBe(backoffMs(3, () => 0.8))
  })

  it('uses Math.random by default and stays in range', () => {
    for (let index = 0; index < 50; index += 1) {
      const wait = backoffMs(2)
      expect(wait).toBeGreaterThanOrEqual(1000)
      expect(wait).toBeLessThanOrEqual(2000)
    }
  })
})

describe('isRetryableStatus', () => {
  it.each([429, 500, 502, 503, 504])('retries %i', (status) => {
    expect(isRetryableStatus(status)).toBe(true)
  })

  it.each([200, 301, 400, 401, 403, 404, 405, 409, 413, 422, 501])(
    'does not retry %i',
    (status) => {
      expect(isRetryableStatus(status)).toBe(false)
    }
  )
})

describe('isRetryableNetworkCode', () => {
  it.each([
    'ECONNREFUSED',
    'ECONNRESET',
    'EPIPE',
    'ETIMEDOUT',
    'EAI_AGAIN',
    'EHOSTUNREACH',
    'ENETUNREACH'
  ])('retries %s', (code) => {
    expect(isRetryableNetworkCode(code)).toBe(true)
  })

  it.each(['ENOTFOUND', 'CERT_HAS_EXPIRED', 'ERR_TLS_CERT_ALTNAME_INVALID', 'EPROTO'])(
    'does not retry %s: another attempt would fail the same way',
    (code) => {
      expect(isRetryableNetworkCode(code)).toBe(false)
    }
  )

  it('does not retry an error without a code', () => {
    expect(isRetryableNetworkCode(undefined)).toBe(false)
  })
})
