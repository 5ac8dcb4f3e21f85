/**
 * The verification stage in-process on the virtual clock: soft purges, stale to the end, 5xx,
 * the text rule, missing Age, the concurrency bound, the verify-timeout bound on the whole stage,
 * order of entries, a proxy's refusal or a certificate problem (final, and sparing the pages behind
 * it) and cancel.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { describeBlocked, type Blocked } from '../../../src/http/blocked.js'
import type { Answer } from '../../../src/http/agents.js'
import type { PageReading, Prober } from '../../../src/http/probe.js'
import { checkEdge, type EdgeCheckTarget } from '../../../src/capabilities/edge-check/check.js'
import { FakeClock } from '../../../tools/fake-clock.js'
import { recordedLog } from '../../support/recorded-log.js'
import { page, ScriptedProber, type Script } from '../../../tools/scripted-prober.js'
import type { RequestLimits } from '../../../src/http/page-checks.js'
import {
  NOT_CHECKED_IN_TIME,
  NOT_JUDGED_CANCELLED,
  unreachable,
  type EdgeCheckEntry,
  type EdgeCheckOutcome
} from '../../../src/capabilities/edge-check/record.js'
import { NO_SECRETS } from '../../support/guard.js'

const HOME = 'https://www.example.com/'
const SHA = 'abc1234'
/** The purge began this long before the stage starts. */
const PURGE_AGO_MS = 2000

const cached = page(200, 'old page', { age: '3600', 'x-cache': 'HIT' })
const refetched = page(200, 'new page', { age: '0', 'x-cache': 'MISS' })

const byAge = (url: string): EdgeCheckTarget => ({ url, text: undefined })

interface Run extends EdgeCheckOutcome {
  prober: ScriptedProber
  lines: string[]
  started: number
  ended: number
}

type Request = Parameters<typeof checkEdge>[0] & RequestLimits

async function run(
  overrides: Partial<Request>,
  script: Script,
  signal = new AbortController().signal
): Promise<Run> {
  const clock = new FakeClock()
  const started = clock.now()
  const prober = new ScriptedProber(clock, script)
  const log = recordedLog()
  const settings: Request = {
    targets: [byAge(HOME)],
    purgeStartedMs: started - PURGE_AGO_MS,
    timeoutMs: 10_000,
    requestTimeoutMs: 30_000,
    concurrency: 4,
    ...overrides
  }
  const result = await checkEdge(settings, settings, {
    guard: NO_SECRETS,
    prober,
    clock,
    signal,
    log
  })
  return { ...result, prober, lines: log.lines, started, ended: clock.now() }
}

const sequence =
  (...answers: Answer<PageReading>[]): Script =>
  (_, check) => ({ answer: answers[Math.min(check, answers.length) - 1] as Answer<PageReading> })

describe('by Age', () => {
  it('soft purge: the first check sees the stale copy, a later one the fresh one', async () => {
    const { entries, cancelled, prober, started } = await run({}, sequence(cached, refetched))
    expect(cancelled).toBe(false)
    expect(entries).toEqual([
      {
        url: HOME,
        fresh: true,
        http_status: 200,
        age: 0,
        checks: 2,
        evidence: 'Age 0 s, purge began 2 s ago (X-Cache: MISS)'
      }
    ])
    expect(prober.startsOf(HOME, started)).toEqual([0, 600])
  })

  it('always stale: re-checks with backoff until the time is spent, then says why', async () => {
    const { entries, prober, started, lines } = await run({}, sequence(cached))
    expect(prober.startsOf(HOME, started)).toEqual([0, 600, 1700, 3800, 7900])
    expect(entries[0]).toMatchObject({
      fresh: false,
      http_status: 200,
      age: 3600,
      checks: 5,
      evidence: 'Age 3600 s, but the purge began 10 s ago (X-Cache: HIT)'
    })
    expect(lines.filter((line) => line.startsWith('✗'))).toEqual([
      `✗ stale ${HOME}: Age 3600 s, but the purge began 2 s ago (X-Cache: HIT) (check 1; checking again in 0.5 s)`,
      `✗ stale ${HOME}: Age 3600 s, but the purge began 2 s ago (X-Cache: HIT) (check 2; checking again in 1 s)`,
      `✗ stale ${HOME}: Age 3600 s, but the purge began 3 s ago (X-Cache: HIT) (check 3; checking again in 2 s)`,
      `✗ stale ${HOME}: Age 3600 s, but the purge began 5 s ago (X-Cache: HIT) (check 4; checking again in 4 s)`,
      `✗ stale ${HOME}: Age 3600 s, but the purge began 10 s ago (X-Cache: HIT) (check 5; no time left to check again)`
    ])
  })

  it('backs off from 0.5 s, doubling up to 5 s', async () => {
    // Each scripted check takes 0.1 s; the re-check waits from its end.
    const { prober, started } = await run({ timeoutMs: 30_000 }, sequence(cached))
    expect(prober.startsOf(HOME, started)).toEqual([
      0, 600, 1700, 3800, 7900, 13_000, 18_100, 23_200, 28_300
    ])
  })

  it('cuts re-check timeouts to the time left, never below 1 s; the first check gets its full timeout', async () => {
    const { prober } = await run({ timeoutMs: 4000, requestTimeoutMs: 3000 }, sequence(cached))
    expect(prober.calls.map(({ timeoutMs }) => timeoutMs)).toEqual([3000, 3000, 2300, 1000])
  })

  it('never gives a re-check more than the request timeout, even when that is under 1 s', async () => {
    const { prober, ended, started } = await run(
      { timeoutMs: 1000, requestTimeoutMs: 500 },
      sequence(cached)
    )
    expect(prober.calls.map(({ timeoutMs }) => timeoutMs)).toEqual([500, 500])
    expect(ended - started).toBeLessThanOrEqual(1000 + 500)
  })

  it('re-checks a 5xx, and a fresh answer after it counts', async () => {
    const { entries, prober, started } = await run(
      {},
      sequence(page(503, '', { 'x-cache': 'MISS' }), refetched)
    )
    expect(entries[0]).toMatchObject({ fresh: true, checks: 2, http_status: 200 })
    expect(prober.startsOf(HOME, started)).toEqual([0, 600])
  })

  it('ends a URL it never reached as unreachable, not stale, with its reason', async () => {
    const { entries, lines } = await run(
      { timeoutMs: 1000 },
      sequence({ kind: 'network', code: 'ECONNREFUSED', message: 'connect ECONNREFUSED' })
    )
    expect(entries[0]).toEqual({
      url: HOME,
      fresh: false,
      http_status: null,
      age: null,
      checks: 2,
      evidence: 'network error: connect ECONNREFUSED'
    })
    expect(unreachable(entries[0] as EdgeCheckEntry)).toBe(true)
    expect(lines.at(-2)).toBe('0 fresh, 0 stale, 1 unreachable')
  })

  it('counts a URL that answered 5xx last as stale, even after it was unreachable', async () => {
    const { entries, lines } = await run(
      { timeoutMs: 1000 },
      sequence({ kind: 'network', code: 'ECONNRESET', message: 'socket hang up' }, page(502, ''))
    )
    expect(entries[0]).toMatchObject({ fresh: false, http_status: 502, checks: 2 })
    expect(unreachable(entries[0] as EdgeCheckEntry)).toBe(false)
    expect(lines.at(-2)).toBe('0 fresh, 1 stale')
  })

  it('passes a response without Age, saying so', async () => {
    const { entries } = await run({}, sequence(page(200, 'x', { 'x-cache': 'MISS' })))
    expect(entries[0]).toMatchObject({
      fresh: true,
      age: null,
      checks: 1,
      evidence: 'no Age header (X-Cache: MISS)'
    })
  })

  it('names the URLs whose Age proved nothing, for the summary to say why they are stale', async () => {
    const other = 'https://www.example.com/other'
    const { entries, malformedAge } = await run(
      { targets: [byAge(HOME), byAge(other)], timeoutMs: 0 },
      (url) => ({ answer: page(200, 'x', { age: url === HOME ? '7200.5' : '0' }) })
    )
    expect(entries.map(({ fresh, age }) => [fresh, age])).toEqual([
      [false, null],
      [true, 0]
    ])
    expect(malformedAge).toEqual([HOME])
  })
})

describe('by text', () => {
  it('is fresh once the page shows the text, whatever its Age', async () => {
    const { entries, prober } = await run(
      { targets: [{ url: HOME, text: SHA }] },
      sequence(page(200, 'build def5678', { age: '5' }), page(200, `build ${SHA}`, { age: '900' }))
    )
    expect(entries[0]).toMatchObject({
      fresh: true,
      checks: 2,
      age: 900,
      evidence: `showed "${SHA}"`
    })
    expect(prober.calls.map(({ lookFor }) => lookFor)).toEqual([SHA, SHA])
  })
})

describe('a proxy or a certificate in the way', () => {
  const PROXY_VARIABLES = ['HTTPS_PROXY', 'https_proxy', 'NO_PROXY', 'no_proxy']
  let saved: Record<string, string | undefined> = {}
  beforeEach(() => {
    saved = Object.fromEntries(PROXY_VARIABLES.map((name) => [name, process.env[name]]))
    for (const name of PROXY_VARIABLES) delete process.env[name]
  })
  afterEach(() => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name]
      else process.env[name] = value
    }
  })

  const refused: Blocked = {
    kind: 'proxy',
    status: 407,
    proxy: 'proxy.corp.example:3128',
    target: 'www.example.com:443'
  }
  const untrusted: Blocked = {
    kind: 'certificate',
    code: 'SELF_SIGNED_CERT_IN_CHAIN',
    host: 'www.example.com'
  }

  it('a 407 is final for its page and spares every page behind the same proxy its request', async () => {
    process.env.HTTPS_PROXY = 'http://alice:s3cret@proxy.corp.example:3128'
    process.env.NO_PROXY = 'origin.example.org'
    const [cdn, about, direct] = [
      'https://cdn.example.net/app.js',
      'https://www.example.com/about',
      'https://origin.example.org/'
    ] as const
    const { entries, prober, lines } = await run(
      { targets: [HOME, cdn, about, direct].map(byAge), concurrency: 1 },
      (url) => ({ answer: url === HOME ? { kind: 'blocked', blocked: refused } : refetched })
    )
    // Not re-checked within the 10 s of verify-timeout; the host in NO_PROXY is still checked.
    expect(prober.calls.map(({ url }) => url)).toEqual([HOME, direct])
    const sentence = describeBlocked(refused)
    const spared = `an earlier check through the same proxy found that ${sentence}`
    expect(entries).toEqual([
      { url: HOME, fresh: false, http_status: null, age: null, checks: 1, evidence: sentence },
      ...[cdn, about].map((url) => ({
        url,
        fresh: false,
        http_status: null,
        age: null,
        checks: 0,
        evidence: `not checked: ${spared}`
      })),
      expect.objectContaining({ url: direct, fresh: true, checks: 1 })
    ])
    expect(unreachable(entries[0] as EdgeCheckEntry)).toBe(true)
    expect(lines).toContain(
      `✗ unreachable ${HOME}: ${sentence} (check 1; not checked again: no retry gets past it)`
    )
    expect(lines.slice(-3)).toEqual([
      `2 URLs not checked any further: ${spared}`,
      '1 fresh, 0 stale, 1 unreachable, 2 not checked',
      '[end]'
    ])
  })

  it('a certificate problem spares only its host and port; a page judged before keeps its verdict', async () => {
    const [a, b, otherPort, otherHost] = [
      'https://www.example.com/a',
      'https://www.example.com/b',
      'https://www.example.com:8443/c',
      'https://cdn.example.net/d'
    ] as const
    const { entries, prober } = await run(
      { targets: [a, b, otherPort, otherHost].map(byAge), concurrency: 1 },
      (url) => ({
        answer: url === a ? cached : url === b ? { kind: 'blocked', blocked: untrusted } : refetched
      })
    )
    // The re-check of a, due 0.5 s after its stale answer, comes after the block: not made.
    expect(prober.calls.map(({ url }) => url)).toEqual([a, b, otherPort, otherHost])
    const spared = `an earlier check of the same host and port found that ${describeBlocked(untrusted)}`
    expect(entries.map(({ fresh, checks, evidence }) => ({ fresh, checks, evidence }))).toEqual([
      {
        fresh: false,
        checks: 1,
        evidence: `Age 3600 s, but the purge began 2 s ago (X-Cache: HIT); not checked again: ${spared}`
      },
      { fresh: false, checks: 1, evidence: describeBlocked(untrusted) },
      expect.objectContaining({ fresh: true, checks: 1 }),
      expect.objectContaining({ fresh: true, checks: 1 })
    ])
  })
})

describe('many URLs', () => {
  const urls = Array.from({ length: 10 }, (_, index) => `https://www.example.com/p/${index}`)

  it('has at most `concurrency` checks in flight and keeps the entries in target order', async () => {
    const { entries, prober } = await run(
      { targets: urls.map(byAge), concurrency: 3 },
      (url, check) => ({
        answer: url.endsWith('/4') && check === 1 ? cached : refetched,
        takesMs: 100 + ((urls.indexOf(url) * 37) % 5) * 50
      })
    )
    expect(prober.maxInFlight).toBe(3)
    expect(entries.map(({ url }) => url)).toEqual(urls)
    expect(entries.every(({ fresh }) => fresh)).toBe(true)
    expect(entries.map(({ checks }) => checks)).toEqual([1, 1, 1, 1, 2, 1, 1, 1, 1, 1])
  })

  it('starts no first check after verify-timeout: the URLs not reached are unchecked, not fresh', async () => {
    const { entries, prober, started, lines } = await run(
      { targets: urls.map(byAge), concurrency: 1, timeoutMs: 300 },
      () => ({ answer: cached })
    )
    // Checks start at 0, 100, 200 and 300 ms; the fifth would start at 400 ms, past 300.
    expect(prober.calls.map(({ at }) => at - started)).toEqual([0, 100, 200, 300])
    expect(entries.map(({ checks }) => checks)).toEqual([1, 1, 1, 1, 0, 0, 0, 0, 0, 0])
    expect(entries.slice(4)).toEqual(
      urls.slice(4).map((url) => ({
        url,
        fresh: false,
        http_status: null,
        age: null,
        checks: 0,
        evidence: NOT_CHECKED_IN_TIME
      }))
    )
    expect(lines.slice(-3)).toEqual([
      '6 URLs not checked within verify-timeout (0.3 s): raise verify-timeout or concurrency',
      '0 fresh, 4 stale, 6 not checked',
      '[end]'
    ])
  })

  it('1,000 URLs behind an edge that never answers: the stage ends by verify-timeout plus one request timeout', async () => {
    const many = Array.from({ length: 1000 }, (_, index) => `https://www.example.com/n/${index}`)
    const { entries, prober, started, ended, lines } = await run(
      { targets: many.map(byAge), concurrency: 4, timeoutMs: 60_000, requestTimeoutMs: 30_000 },
      () => ({ answer: cached, takesMs: Infinity })
    )
    expect(ended - started).toBeLessThanOrEqual(60_000 + 30_000)
    // Three rounds of four first checks, at 0, 30 and 60 s: the last starts on the deadline and
    // keeps its full timeout. The re-checks queued behind the first checks find no time left.
    expect(prober.calls).toHaveLength(12)
    expect(prober.calls.map(({ at }) => at - started)).toEqual(
      [0, 30_000, 60_000].flatMap((at) => [at, at, at, at])
    )
    expect(prober.calls.every(({ timeoutMs }) => timeoutMs === 30_000)).toBe(true)
    expect(ended - started).toBe(90_000)

    expect(entries.slice(0, 12).map(({ checks, evidence }) => ({ checks, evidence }))).toEqual(
      many.slice(0, 12).map(() => ({ checks: 1, evidence: 'no complete answer within 30 s' }))
    )
    const unchecked = entries.slice(12)
    expect(unchecked).toHaveLength(988)
    expect(
      unchecked.every(
        (entry) =>
          !entry.fresh &&
          entry.checks === 0 &&
          entry.http_status === null &&
          entry.evidence === NOT_CHECKED_IN_TIME
      )
    ).toBe(true)
    // One line for the unchecked URLs, not 988; the counts still add up.
    expect(lines.filter((line) => line.includes('not checked within'))).toEqual([
      '988 URLs not checked within verify-timeout (60 s): raise verify-timeout or concurrency'
    ])
    expect(lines.at(-2)).toBe('0 fresh, 0 stale, 12 unreachable, 988 not checked')
    expect(lines).toHaveLength(1 + 12 + 2 + 1)
  })

  it('a URL not checked in time keeps saying so when the run is cancelled afterwards', async () => {
    const [slow, quick, late] = ['slow', 'quick', 'late'].map(
      (name) => `https://www.example.com/${name}`
    )
    const clock = new FakeClock()
    const controller = new AbortController()
    const prober = new ScriptedProber(clock, (url) => ({
      answer: refetched,
      takesMs: url === slow ? 5000 : 1500
    }))
    const log = recordedLog()
    const stage = checkEdge(
      {
        targets: [slow, quick, late].map((url) => byAge(url as string)),
        purgeStartedMs: clock.now() - PURGE_AGO_MS,
        timeoutMs: 1000
      },
      { requestTimeoutMs: 30_000, concurrency: 2 },
      { guard: NO_SECRETS, prober, clock, signal: controller.signal, log }
    )
    // /late gets the slot /quick frees at 1.5 s, past the deadline; the run is cancelled at 3 s
    // while /slow is still in flight.
    void clock.sleep(3000, new AbortController().signal).then(() => controller.abort())
    const { entries, cancelled } = await stage
    expect(cancelled).toBe(true)
    expect(entries.map(({ checks, evidence }) => ({ checks, evidence }))).toEqual([
      { checks: 0, evidence: NOT_JUDGED_CANCELLED },
      { checks: 1, evidence: 'Age 0 s, purge began 3 s ago (X-Cache: MISS)' },
      { checks: 0, evidence: NOT_CHECKED_IN_TIME }
    ])
    expect(prober.calls.map(({ url }) => url)).toEqual([slow, quick])
    expect(log.lines.slice(-3)).toEqual([
      '1 URL not checked within verify-timeout (1 s): raise verify-timeout or concurrency',
      '1 fresh, 0 stale, 2 not checked (the run was cancelled)',
      '[end]'
    ])
  })

  it('on cancel returns at once: judged URLs keep their verdict, the others are not judged', async () => {
    const controller = new AbortController()
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((name) => `https://www.example.com/${name}`)
    const { entries, cancelled, lines } = await run(
      { targets: [a, b, c, d].map((url) => byAge(url as string)), concurrency: 2 },
      (url) => {
        if (url === d) controller.abort()
        const takesMs = url === b ? 50 : url === c ? 60_000 : 100
        return { answer: url === b ? cached : refetched, takesMs }
      },
      controller.signal
    )
    expect(cancelled).toBe(true)
    expect(entries.map(({ fresh, checks, evidence }) => ({ fresh, checks, evidence }))).toEqual([
      { fresh: true, checks: 1, evidence: 'Age 0 s, purge began 2 s ago (X-Cache: MISS)' },
      {
        fresh: false,
        checks: 1,
        evidence:
          'Age 3600 s, but the purge began 2 s ago (X-Cache: HIT); not checked again: the run was cancelled'
      },
      { fresh: false, checks: 0, evidence: NOT_JUDGED_CANCELLED },
      { fresh: false, checks: 0, evidence: NOT_JUDGED_CANCELLED }
    ])
    expect(lines.at(-2)).toBe('1 fresh, 1 stale, 2 not checked (the run was cancelled)')
  })

  it('returns on cancel even while a check hangs', async () => {
    const controller = new AbortController()
    const hanging: Prober = {
      get: () => {
        controller.abort()
        return new Promise(() => undefined)
      },
      close: () => undefined
    }
    const clock = new FakeClock()
    const result = await checkEdge(
      {
        targets: [byAge(HOME)],
        purgeStartedMs: clock.now(),
        timeoutMs: 10_000
      },
      { requestTimeoutMs: 30_000, concurrency: 4 },
      { guard: NO_SECRETS, prober: hanging, clock, signal: controller.signal, log: recordedLog() }
    )
    expect(result).toEqual({
      cancelled: true,
      entries: [
        {
          url: HOME,
          fresh: false,
          http_status: null,
          age: null,
          checks: 0,
          evidence: NOT_JUDGED_CANCELLED
        }
      ],
      malformedAge: []
    })
  })
})
