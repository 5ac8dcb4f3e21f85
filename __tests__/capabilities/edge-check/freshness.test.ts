/**
 * The freshness rule: Age against the purge's start (lists, repeated lines, malformed values),
 * text shown, bodies that cannot be decoded, 5xx and failures, evidence.
 */
import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import type { IncomingHttpHeaders } from 'node:http'
import { judge } from '../../../src/capabilities/edge-check/freshness.js'
import type { Answer } from '../../../src/http/agents.js'
import type { PageReading } from '../../../src/http/probe.js'
import { observe, type Observation } from '../../../src/http/observation.js'
import { page } from '../../../tools/scripted-prober.js'
import { NO_SECRETS } from '../../support/guard.js'

const STARTED = Date.UTC(2026, 0, 1)
const after = (seconds: number) => ({ purgeStartedMs: STARTED, nowMs: STARTED + seconds * 1000 })

/** A page as the prober gives it, with what `reading` says in place of its own reading. */
const answer = (
  status: number,
  headers: IncomingHttpHeaders = {},
  body = '',
  reading: Partial<PageReading> = {}
): Answer<PageReading> => ({ ...page(status, body, headers), ...reading })

const seen = (status: number, headers: IncomingHttpHeaders = {}, body = '', text?: string) =>
  observe(answer(status, headers, body), text, NO_SECRETS)

/** What the prober saw when the response carried these `Age` lines. */
const aged = (...ageLines: string[]) =>
  observe(answer(200, {}, '', { ageLines }), undefined, NO_SECRETS)

const UNDECODABLE = 'Content-Encoding "compress" is not one edge-purge can decode'

describe('observe', () => {
  it('reads Age as whole seconds, absent as null and not malformed', () => {
    expect(seen(200, { age: '42' })).toMatchObject({ age: 42, malformedAge: undefined })
    expect(seen(200, { age: ' 7 ' }).age).toBe(7)
    expect(seen(200)).toMatchObject({ age: null, malformedAge: undefined })
  })

  it('reads a list, or Age lines repeated, by their largest value', () => {
    expect(aged('7200, 7200').age).toBe(7200)
    expect(aged('0, 7200').age).toBe(7200)
    expect(aged('7200', '0').age).toBe(7200)
    expect(aged('3', '5, 4,').age).toBe(5)
    expect(aged('0', '7200').malformedAge).toBeUndefined()
  })

  it('holds a number too large for any cache as 2^31 seconds (RFC 9111 §1.2.2)', () => {
    expect(aged('9'.repeat(400)).age).toBe(2 ** 31)
  })

  it('reads a value that is not a non-negative integer as malformed, with no age', () => {
    const why = 'not a whole number of seconds'
    expect(aged('7200.5')).toMatchObject({
      age: null,
      malformedAge: `malformed Age header "7200.5": ${why}`
    })
    expect(aged('-1').malformedAge).toBe(`malformed Age header "-1": ${why}`)
    expect(aged('soon').malformedAge).toBe(`malformed Age header "soon": ${why}`)
    expect(aged('1e3').malformedAge).toBe(`malformed Age header "1e3": ${why}`)
    // One bad value spoils the lot: the good one may be the young tier's.
    expect(aged('0', '7200.5')).toMatchObject({
      age: null,
      malformedAge: `malformed Age header "0, 7200.5": ${why}`
    })
    expect(aged('').malformedAge).toBe('malformed Age header "": empty')
  })

  it('carries a body the prober could not decode', () => {
    const observed = observe(
      answer(200, {}, '', { undecodable: UNDECODABLE }),
      'abc1234',
      NO_SECRETS
    )
    expect(observed.undecodable).toBe(UNDECODABLE)
  })

  it('looks for the text in the body and in every header value', () => {
    expect(seen(200, {}, '<p>abc1234</p>', 'abc1234').textSeen).toBe(true)
    expect(seen(200, { 'x-version': 'build abc1234' }, '', 'abc1234').textSeen).toBe(true)
    expect(seen(200, { 'set-cookie': ['a=1', 'v=abc1234'] }, '', 'abc1234').textSeen).toBe(true)
    expect(seen(200, { 'x-version': 'def5678' }, 'def5678', 'abc1234').textSeen).toBe(false)
    expect(seen(200, {}, 'abc1234').textSeen).toBeUndefined()
  })

  it('names the first cache status header the CDN sent', () => {
    expect(seen(200, { 'x-cache': 'HIT, MISS' }).cacheStatus).toBe('X-Cache: HIT, MISS')
    expect(seen(200, { 'cache-status': 'ExampleCDN; hit' }).cacheStatus).toBe(
      'Cache-Status: ExampleCDN; hit'
    )
    expect(seen(200, { 'cf-cache-status': 'EXPIRED' }).cacheStatus).toBe('CF-Cache-Status: EXPIRED')
    expect(seen(200, { 'x-cache-status': 'STALE' }).cacheStatus).toBe('X-Cache-Status: STALE')
    expect(seen(200, { 'x-cache': 'MISS', 'cf-cache-status': 'HIT' }).cacheStatus).toBe(
      'X-Cache: MISS'
    )
    expect(seen(200).cacheStatus).toBeUndefined()
  })

  it('turns network errors, timeouts and cancels into failures without a status', () => {
    const network = observe(
      { kind: 'network', code: 'ECONNRESET', message: 'socket hang up' },
      'x',
      NO_SECRETS
    )
    expect(network).toMatchObject({ status: null, failure: 'network error: socket hang up' })
    expect(
      observe({ kind: 'timeout', message: 'no complete answer within 5 s' }, undefined, NO_SECRETS)
    ).toEqual({
      status: null,
      age: null,
      malformedAge: undefined,
      undecodable: undefined,
      textSeen: undefined,
      cacheStatus: undefined,
      failure: 'no complete answer within 5 s'
    })
    expect(observe({ kind: 'cancelled' }, undefined, NO_SECRETS).failure).toBe(
      'the run was cancelled'
    )
  })
})

describe('judge by Age', () => {
  it('calls a copy older than the purge stale, naming both times and the cache status', () => {
    expect(judge(seen(200, { age: '3600', 'x-cache': 'HIT' }), after(3), NO_SECRETS)).toEqual({
      fresh: false,
      evidence: 'Age 3600 s, but the purge began 3 s ago (X-Cache: HIT)'
    })
  })

  it('calls a copy made after the purge began fresh', () => {
    expect(judge(seen(200, { age: '0', 'x-cache': 'MISS' }), after(2), NO_SECRETS)).toEqual({
      fresh: true,
      evidence: 'Age 0 s, purge began 2 s ago (X-Cache: MISS)'
    })
  })

  it('allows one second of slack, and no more', () => {
    expect(judge(seen(200, { age: '3' }), after(2), NO_SECRETS).fresh).toBe(true)
    expect(judge(seen(200, { age: '4' }), after(2.5), NO_SECRETS).fresh).toBe(false)
    expect(judge(seen(200, { age: '1' }), after(0), NO_SECRETS).fresh).toBe(true)
    expect(judge(seen(200, { age: '2' }), after(0), NO_SECRETS).fresh).toBe(false)
  })

  it('counts a missing Age as 0 and says so', () => {
    expect(judge(seen(200), after(5), NO_SECRETS)).toEqual({
      fresh: true,
      evidence: 'no Age header'
    })
  })

  it('calls a malformed Age stale, naming the header, whatever its value', () => {
    expect(
      judge(
        observe(
          answer(200, { 'x-cache': 'HIT' }, '', { ageLines: ['7200.5'] }),
          undefined,
          NO_SECRETS
        ),
        after(1),
        NO_SECRETS
      )
    ).toEqual({
      fresh: false,
      evidence: 'malformed Age header "7200.5": not a whole number of seconds (X-Cache: HIT)'
    })
    expect(judge(aged('-1'), after(3600), NO_SECRETS)).toEqual({
      fresh: false,
      evidence: 'malformed Age header "-1": not a whole number of seconds'
    })
    expect(
      judge(
        observe(answer(404, {}, '', { ageLines: ['0', 'x'] }), undefined, NO_SECRETS),
        after(1),
        NO_SECRETS
      ).evidence
    ).toBe('HTTP 404, malformed Age header "0, x": not a whole number of seconds')
  })

  it('judges a list or repeated lines by the oldest tier', () => {
    expect(judge(aged('0', '7200'), after(3), NO_SECRETS)).toEqual({
      fresh: false,
      evidence: 'Age 7200 s, but the purge began 3 s ago'
    })
    expect(judge(aged('7200, 7200'), after(3), NO_SECRETS).fresh).toBe(false)
    expect(judge(aged('1, 2'), after(3), NO_SECRETS).fresh).toBe(true)
  })

  it('judges any status but 5xx: a fresh 404 is fresh, and says its status', () => {
    expect(judge(seen(404, { age: '0' }), after(1), NO_SECRETS)).toEqual({
      fresh: true,
      evidence: 'HTTP 404, Age 0 s, purge began 1 s ago'
    })
    expect(judge(seen(301, { age: '900' }), after(1), NO_SECRETS).evidence).toBe(
      'HTTP 301, Age 900 s, but the purge began 1 s ago'
    )
  })
})

describe('judge by text', () => {
  it('is fresh iff the text is shown', () => {
    const rule = { text: 'abc1234' }
    expect(judge(seen(200, { age: '9999' }, 'v abc1234', 'abc1234'), rule, NO_SECRETS)).toEqual({
      fresh: true,
      evidence: 'showed "abc1234"'
    })
    expect(
      judge(seen(200, { 'x-cache': 'HIT' }, 'v def5678', 'abc1234'), rule, NO_SECRETS)
    ).toEqual({
      fresh: false,
      evidence: 'did not show "abc1234" (X-Cache: HIT)'
    })
  })
})

describe('bodies that cannot be decoded', () => {
  it('are stale by either rule, naming the coding, though a header shows the text', () => {
    const observed = observe(
      answer(200, { age: '0', 'x-release': 'abc1234', 'x-cache': 'MISS' }, '', {
        undecodable: UNDECODABLE
      }),
      'abc1234',
      NO_SECRETS
    )
    for (const rule of [{ text: 'abc1234' }, after(5)]) {
      expect(judge(observed, rule, NO_SECRETS)).toEqual({
        fresh: false,
        evidence: `${UNDECODABLE} (X-Cache: MISS)`
      })
    }
    const missing = observe(
      answer(404, {}, '', { undecodable: UNDECODABLE }),
      undefined,
      NO_SECRETS
    )
    expect(judge(missing, after(1), NO_SECRETS).evidence).toBe(`HTTP 404, ${UNDECODABLE}`)
  })
})

describe('answers that say nothing of freshness', () => {
  it('judges a 5xx and a network failure stale, with their reason', () => {
    expect(judge(seen(503, { age: '0', 'x-cache': 'MISS' }), after(1), NO_SECRETS)).toEqual({
      fresh: false,
      evidence: 'HTTP 503 (X-Cache: MISS)'
    })
    expect(judge(seen(500, {}, 'abc', 'abc'), { text: 'abc' }, NO_SECRETS)).toMatchObject({
      fresh: false,
      evidence: 'HTTP 500'
    })
    const network = observe(
      { kind: 'network', code: 'ECONNREFUSED', message: 'refused' },
      'x',
      NO_SECRETS
    )
    expect(judge(network, { text: 'x' }, NO_SECRETS)).toEqual({
      fresh: false,
      evidence: 'network error: refused'
    })
  })
})

const observation = (fields: Partial<Observation>): Observation => ({
  status: 200,
  age: null,
  malformedAge: undefined,
  undecodable: undefined,
  textSeen: undefined,
  cacheStatus: undefined,
  failure: undefined,
  ...fields
})

describe('properties', () => {
  it('Age rule: fresh exactly when Age ≤ elapsed seconds + 1', () => {
    fc.assert(
      fc.property(fc.nat(100_000), fc.nat(100_000_000), (age, elapsedMs) => {
        const rule = { purgeStartedMs: STARTED, nowMs: STARTED + elapsedMs }
        const { fresh } = judge(observation({ age }), rule, NO_SECRETS)
        expect(fresh).toBe(age * 1000 <= elapsedMs + 1000)
      })
    )
  })

  it('Age rule: a younger copy is never staler than an older one', () => {
    fc.assert(
      fc.property(fc.nat(10_000), fc.nat(10_000), fc.nat(10_000_000), (a, b, elapsedMs) => {
        const rule = { purgeStartedMs: STARTED, nowMs: STARTED + elapsedMs }
        const [younger, older] = a <= b ? [a, b] : [b, a]
        if (judge(observation({ age: older }), rule, NO_SECRETS).fresh) {
          expect(judge(observation({ age: younger }), rule, NO_SECRETS).fresh).toBe(true)
        }
      })
    )
  })

  it('Age rule: a value that is not a list of whole numbers is never fresh, and has no age', () => {
    const notWhole = fc
      .string({ maxLength: 40 })
      .filter((value) =>
        value.split(',').some((part) => part.trim() !== '' && !/^\d+$/.test(part.trim()))
      )
    fc.assert(
      fc.property(
        fc.array(fc.nat(), { maxLength: 3 }),
        notWhole,
        fc.nat(100_000),
        (good, bad, s) => {
          const observed = aged(...good.map(String), bad)
          expect(observed.age).toBeNull()
          expect(judge(observed, after(s), NO_SECRETS).fresh).toBe(false)
        }
      )
    )
  })

  it('5xx is never fresh, whatever else the answer holds', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 500, max: 599 }),
        fc.option(fc.nat(100), { nil: null }),
        fc.boolean(),
        (status, age, textSeen) => {
          for (const rule of [{ text: 't' }, after(60)]) {
            expect(judge(observation({ status, age, textSeen }), rule, NO_SECRETS).fresh).toBe(
              false
            )
          }
        }
      )
    )
  })

  it('finds the text wherever it sits in the body', () => {
    fc.assert(
      fc.property(fc.string(), fc.string({ minLength: 1 }), fc.string(), (before, text, rest) => {
        expect(seen(200, {}, `${before}${text}${rest}`, text).textSeen).toBe(true)
      })
    )
  })

  it('evidence is one short line, whatever the server sends as cache status or Age', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 2000 }), fc.string({ maxLength: 500 }), (value, text) => {
        const observed = seen(200, { 'x-cache': value, age: '5' }, '', text)
        const badAge = observe(
          answer(200, { 'x-cache': value }, '', { ageLines: [value, `${value}.5`] }),
          undefined,
          NO_SECRETS
        )
        const judged: [Observation, Parameters<typeof judge>[1]][] = [
          [observed, { text }],
          [observed, after(1)],
          [badAge, after(1)]
        ]
        for (const [observation, rule] of judged) {
          const { evidence } = judge(observation, rule, NO_SECRETS)
          expect(evidence).not.toMatch(/[\r\n]/)
          expect(evidence.length).toBeLessThanOrEqual(250)
        }
      })
    )
  })
})
