/**
 * The purge engine in-process: retries, waits, stop rules, repeat-after, cancellation and fault
 * isolation, through the `Transport` seam with a virtual clock (minutes of waiting take no time);
 * and a wrong base-url through the real transport, against loopback servers.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import {
  ok,
  PURGE_ID as ID,
  reply,
  ScriptedTransport,
  type CallScript
} from '../../tools/scripted-transport.js'
import { runPurge } from '../../src/core/engine.js'
import { createTransport } from '../../src/core/transport.js'
import { LoopbackServer } from '../../tools/loopback-server.js'
import { planPurges } from '../../src/core/plan.js'
import { guardAgainst, type Guard } from '../../src/text/guard.js'
import { parseUrls } from '../../src/config/lists.js'
import { settingsWith } from '../../tools/defaults.js'
import { recordedLog } from '../support/recorded-log.js'
import { FakeClock } from '../../tools/fake-clock.js'
import type { Settings } from '../../src/config/settings.js'
import {
  countResults,
  type PurgeCall,
  type PurgeResult,
  type PurgeRun
} from '../../src/record/index.js'
import type { Answer } from '../../src/http/agents.js'
import { failureCauses, refusedAndStopped, type Cause } from '../../src/report/causes.js'
import { NO_SECRETS } from '../support/guard.js'

interface Harness {
  clock: FakeClock
  transport: ScriptedTransport
  lines: string[]
  run: (signal?: AbortSignal) => Promise<ReadRun>
}

/** A purge run with its results read once, into an array. */
type ReadRun = Omit<PurgeRun, 'results'> & { results: PurgeResult[] }

function harness(
  overrides: Partial<Settings>,
  answer?: CallScript,
  guard: Guard = NO_SECRETS
): Harness {
  const settings = settingsWith(overrides)
  const clock = new FakeClock()
  const transport = new ScriptedTransport(clock, answer)
  const log = recordedLog()
  const lines = log.lines
  const run = async (signal = new AbortController().signal): Promise<ReadRun> => {
    const purge = await runPurge(planPurges(settings), settings, {
      guard,
      transport,
      clock,
      signal,
      log,
      random: () => 0
    })
    const results = [...purge.results]
    // Every scenario here also holds the ledger's counts to the results they count.
    expect(purge.counts).toEqual(countResults(results))
    return { ...purge, results }
  }
  return { clock, transport, lines, run }
}

const urls = (count: number): Partial<Settings> => ({
  services: [],
  urls: parseUrls(NO_SECRETS, [
    Array.from({ length: count }, (_, index) => `https://www.example.com/p/${index}`).join('\n'),
    'urls'
  ])
})

describe('rate limits and retries', () => {
  it('waits as long as Retry-After asks after a 429, then purges', async () => {
    const { run, transport } = harness({ keys: ['home'] }, (call, attempt) =>
      attempt === 1 ? reply(429, { msg: 'slow down' }, { 'retry-after': '7' }) : ok(call)
    )
    const { results } = await run()
    expect(results[0]).toMatchObject({ status: 'purged', attempts: 2, id: ID })
    const [first, second] = transport.sent
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(7000)
  })

  it('waits for an Edge-RateLimit-Reset epoch on a 429, and holds every call to that origin', async () => {
    const clock0 = new FakeClock().now()
    const reset = String(Math.ceil(clock0 / 1000) + 30)
    const { run, transport } = harness({ ...urls(3), concurrency: 1 }, (call, attempt) =>
      call.url.endsWith('/0') && attempt === 1
        ? reply(429, {}, { 'edge-ratelimit-reset': reset })
        : ok(call)
    )
    const { results } = await run()
    expect(results.every((result) => result.status === 'purged')).toBe(true)
    const afterLimit = transport.sent.slice(1)
    expect(afterLimit.every(({ at }) => at >= Number(reset) * 1000)).toBe(true)
  })

  it('fails at once when the server asks for more than 120 s, the time in retry_at, not the reason', async () => {
    const { run, transport, clock, lines } = harness({ keys: ['home'] }, () =>
      reply(429, { msg: 'hourly limit' }, { 'retry-after': '3600' })
    )
    const started = clock.now()
    const { results } = await run()
    expect(transport.sent).toHaveLength(1)
    expect(results[0]?.error).toBe(
      'rate limited (429) — server said: hourly limit; the server asks to wait longer than the 120 s edge-purge waits'
    )
    const until = results[0]?.retry_at ?? ''
    // An hour from the answer, which the scripted server gives a few ms after the call.
    expect(Date.parse(until) - started - 3_600_000).toBeGreaterThanOrEqual(0)
    expect(Date.parse(until) - started - 3_600_000).toBeLessThan(100)
    expect(lines.find((line) => line.startsWith('✗'))).toContain(`; retry after ${until} (`)
  })

  it.each([
    ['Retry-After', { 'retry-after': '99999999999999' }],
    ['Edge-RateLimit-Reset', { 'edge-ratelimit-reset': '99999999999999999999' }]
  ])('an absurd %s fails its call with no retry_at, saying so', async (_name, headers) => {
    const { run } = harness(urls(3), (call) =>
      call.url.endsWith('/1') ? reply(429, {}, headers) : ok(call)
    )
    const { results } = await run()
    expect(results.map((result) => result.status)).toEqual(['purged', 'failed', 'purged'])
    expect(results[1]?.failure?.waitOverS).toBe(120)
    expect(results[1]).not.toHaveProperty('retry_at')
  })

  it('still backs off on Retry-After: 0, instead of retrying at once', async () => {
    const { run, clock, transport } = harness({ keys: ['home'], maxAttempts: 6 }, () =>
      reply(503, 'busy', { 'retry-after': '0' })
    )
    const { results } = await run()
    expect(transport.sent).toHaveLength(6)
    expect(clock.sleeps.filter((ms) => ms !== 10)).toEqual([500, 1000, 2000, 4000, 8000])
    expect(results[0]).toMatchObject({ http_status: 503, failure: { gaveUpAfter: 6 } })
  })

  it('treats a negative or fractional wait as no wait given, and backs off', async () => {
    const { run, clock } = harness({ keys: ['home'] }, (call, attempt) =>
      attempt === 1 ? reply(503, '', { 'retry-after': '-5' }) : ok(call)
    )
    expect((await run()).results[0]?.status).toBe('purged')
    expect(clock.sleeps.filter((ms) => ms !== 10)).toEqual([500])
  })

  it('retries a timeout and a reset connection, logging why', async () => {
    const { run, lines } = harness(urls(2), (call, attempt) => {
      if (attempt > 1) return ok(call)
      return call.url.endsWith('/0')
        ? { kind: 'timeout', message: 'no complete answer within 30 s' }
        : { kind: 'network', code: 'ECONNRESET', message: 'socket hang up' }
    })
    const { results } = await run()
    expect(results.map((result) => result.attempts)).toEqual([2, 2])
    expect(lines.filter((line) => line.startsWith('↻'))).toHaveLength(2)
  })

  it('never has more than `concurrency` calls in flight', async () => {
    const { run, transport } = harness({ ...urls(40), concurrency: 4 })
    await run()
    expect(transport.maxInFlight).toBe(4)
    expect(transport.sent).toHaveLength(40)
  })
})

describe('the purge start', () => {
  it('records when the first call was sent, the reference for the edge check', async () => {
    const { run, clock } = harness({ keys: ['a'] }, (call, attempt) =>
      attempt === 1 ? reply(503, 'busy') : ok(call)
    )
    const started = clock.now()
    const { firstSentMs } = await run()
    expect(firstSentMs).toBe(started)
    expect(clock.now()).toBeGreaterThan(started)
  })

  it('is unknown when no call was sent', async () => {
    const cancel = new AbortController()
    cancel.abort()
    const { run } = harness({ keys: ['a'] })
    expect((await run(cancel.signal)).firstSentMs).toBeUndefined()
  })
})

describe('stop rules', () => {
  it('sends the first round at once; a rejected token stops every call after it, saying why', async () => {
    const keys = Array.from({ length: 20 }, (_, index) => `k${index}`)
    const { run, transport, clock } = harness({ keys, batchSize: 1, concurrency: 4 }, () =>
      reply(401, { msg: 'Provided credentials are missing or invalid' })
    )
    const started = clock.now()
    const { results } = await run()
    expect(transport.sent.map(({ at }) => at - started)).toEqual([0, 0, 0, 0])
    for (const result of results.slice(0, 4)) {
      expect(result).toMatchObject({ status: 'failed', http_status: 401, attempts: 1 })
      expect(result.failure?.stopped).toBeUndefined()
    }
    expect(new Set(results.slice(4).map((result) => result.error))).toEqual(
      new Set([
        'not sent: an earlier call to the same address got the API token was rejected (401): check the secret behind api-token — server said: Provided credentials are missing or invalid'
      ])
    )
  })

  it('a 403 stops only the calls needing the same permission in the same service', async () => {
    const { run, transport } = harness(
      {
        services: [
          { id: 'svc-a', baseUrl: 'https://api.example-cdn.com' },
          { id: 'svc-b', baseUrl: 'https://api.example-cdn.com' }
        ],
        keys: ['k1', 'k2', 'k3'],
        batchSize: 1,
        concurrency: 2
      },
      (call) => (call.service === 'svc-a' ? reply(403, { msg: 'Forbidden' }) : ok(call))
    )
    const { results } = await run()
    expect(results.map((result) => `${result.service} ${result.status}`)).toEqual([
      'svc-a failed',
      'svc-a failed',
      'svc-a failed',
      'svc-b purged',
      'svc-b purged',
      'svc-b purged'
    ])
    // The first round (both svc-a) was out at once; the third svc-a call was not sent.
    expect(transport.sent.filter(({ call }) => call.service === 'svc-a')).toHaveLength(2)
    expect(results[2]?.failure?.stopped).toEqual({ by: { scope: 'forbidden' }, attempts: 0 })
    expect(results[2]?.error).toBe(
      'not sent: an earlier call needing the same permission found that key purge was refused (403): the token may not purge service svc-a — server said: Forbidden'
    )
  })
})

describe('repeat-after', () => {
  it('sends every call that purged something again after the wait, and records both passes', async () => {
    const { run, transport } = harness({ keys: ['a'], repeatAfterMs: 10_000 })
    const { results } = await run()
    expect(transport.sent).toHaveLength(2)
    const [first, second] = transport.sent
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(10_000)
    expect(results[0]).toMatchObject({ status: 'purged', repeat: { status: 'purged', id: ID } })
  })

  it('counts a target as purged only when the second pass purged it too', async () => {
    const { run } = harness(
      { keys: ['a'], repeatAfterMs: 5000, maxAttempts: 1 },
      (call, attempt) => (attempt === 1 ? ok(call) : reply(400, { msg: 'nope' }))
    )
    const { results } = await run()
    expect(results[0]).toMatchObject({ status: 'failed', repeat: { status: 'failed' } })
    expect(results[0]?.failure).toMatchObject({ what: 'repeat purge failed' })
    expect(results[0]?.failure?.detail).toContain('HTTP 400')
  })

  it('does not repeat a call that purged nothing', async () => {
    const { run, transport } = harness(
      { ...urls(2), repeatAfterMs: 5000, maxAttempts: 1 },
      (call) => (call.url.endsWith('/0') ? reply(400, {}) : ok(call))
    )
    const { results } = await run()
    expect(transport.sent.map(({ call }) => call.url.slice(-2))).toEqual(['/0', '/1', '/1'])
    expect(results[0]?.repeat).toBeNull()
  })
})

describe('results', () => {
  it('are the same each time they are read: the report reads them for every output', async () => {
    const settings = settingsWith({ keys: ['a', 'b'], repeatAfterMs: 1000 })
    const clock = new FakeClock()
    const purge = await runPurge(planPurges(settings), settings, {
      guard: NO_SECRETS,
      transport: new ScriptedTransport(clock),
      clock,
      signal: new AbortController().signal,
      log: recordedLog()
    })
    const first = [...purge.results]
    expect(first.map(({ target, status }) => [target, status])).toEqual([
      ['a', 'purged'],
      ['b', 'purged']
    ])
    expect([...purge.results]).toEqual(first)
  })

  it.each([
    { outcome: 'answered', purgeAll: ok, status: 'purged' },
    { outcome: 'refused', purgeAll: () => reply(403, {}), status: 'failed' }
  ] as const)(
    'are counted as they read: a purge-all $outcome is $status, a batch key without an id failed',
    async ({ purgeAll, status }) => {
      const { run } = harness({ purgeAll: true, keys: ['a', 'b', 'c'] }, (call) =>
        call.operation === 'batch' ? reply(200, { a: ID, c: '' }) : purgeAll(call)
      )
      const { results, counts } = await run()
      expect(results.map((result) => [result.target, result.status])).toEqual([
        ['svc123', status],
        ['a', 'purged'],
        ['b', 'failed'],
        ['c', 'failed']
      ])
      const purged = status === 'purged' ? 2 : 1
      expect(counts).toEqual({ purged, failed: 4 - purged, planned: 0, total: 4 })
    }
  )
})

describe('cancellation', () => {
  it('starts no call after the cancel, abandons those in flight, and reports every target', async () => {
    const cancel = new AbortController()
    let answered = 0
    const { run, transport } = harness({ ...urls(20), concurrency: 4 }, (call) => {
      answered += 1
      if (answered === 9) setImmediate(() => cancel.abort())
      return ok(call)
    })
    const outcome = await run(cancel.signal)
    expect(outcome.cancelled).toBe(true)
    const byStatus = (error: string | null): number =>
      outcome.results.filter((result) => result.error === error).length
    expect(outcome.results).toHaveLength(20)
    expect(byStatus(null)).toBe(outcome.answered)
    expect(outcome.answered).toBeGreaterThanOrEqual(9)
    expect(byStatus('cancelled before it was confirmed')).toBeGreaterThan(0)
    expect(byStatus('not sent: the run was cancelled')).toBe(20 - transport.sent.length)
    expect(byStatus(null) + byStatus('cancelled before it was confirmed')).toBe(
      transport.sent.length
    )
  })

  it('stops a retry wait at once and sends nothing more', async () => {
    const cancel = new AbortController()
    const { run, transport, clock } = harness({ keys: ['a'] }, () => {
      setImmediate(() => cancel.abort())
      return reply(503, 'busy', { 'retry-after': '60' })
    })
    const started = clock.now()
    const { results } = await run(cancel.signal)
    expect(transport.sent).toHaveLength(1)
    expect(clock.now() - started).toBeLessThan(60_000)
    expect(results[0]).toMatchObject({
      status: 'failed',
      error: 'cancelled before it was confirmed'
    })
  })

  it('a cancel during the repeat-after wait fails the repeat, not sent', async () => {
    const cancel = new AbortController()
    const { run, transport, lines } = harness({ keys: ['a'], repeatAfterMs: 30_000 })
    const running = run(cancel.signal)
    const waiting = (): boolean => lines.some((line) => line.startsWith('Waiting 30 s'))
    while (!waiting()) await new Promise((resolve) => setImmediate(resolve))
    cancel.abort()
    const { results, cancelled } = await running
    expect(cancelled).toBe(true)
    expect(transport.sent).toHaveLength(1)
    expect(results[0]).toMatchObject({
      status: 'failed',
      error: 'repeat purge failed: not sent: the run was cancelled'
    })
  })
})

describe('fault isolation', () => {
  it('a call whose handling throws fails alone, with the reason, redacted', async () => {
    const { run } = harness(
      urls(3),
      (call) => {
        if (call.url.endsWith('/1')) throw new Error('boom with tok-secret-123456 inside')
        return ok(call)
      },
      guardAgainst(['tok-secret-123456'])
    )
    const { results } = await run()
    expect(results.map((result) => result.status)).toEqual(['purged', 'failed', 'purged'])
    expect(results[1]?.error).toBe('edge-purge could not handle this call: boom with *** inside')
  })
})

describe('a wrong base-url, through the real transport', () => {
  /** Purges one key at `baseUrl` over real sockets, on the virtual clock: backoff takes no time. */
  async function purgeAt(baseUrl: string): Promise<PurgeResult[]> {
    const settings = settingsWith({ services: [{ id: 'svc123', baseUrl }], keys: ['home'] })
    const transport = createTransport({
      apiToken: 'tok-settings-test',
      concurrency: 1,
      timeoutMs: 10_000,
      userAgent: 'edge-purge-test'
    })
    try {
      const purge = await runPurge(planPurges(settings), settings, {
        guard: NO_SECRETS,
        transport,
        clock: new FakeClock(),
        signal: new AbortController().signal,
        log: recordedLog(),
        random: () => 0
      })
      return [...purge.results]
    } finally {
      transport.close()
    }
  }

  it('a port nothing listens on names base-url, its host and port, after every attempt', async () => {
    const gone = new LoopbackServer()
    await gone.listen(() => undefined)
    const { port } = gone
    await gone.close()
    const [result] = await purgeAt(`http://127.0.0.1:${port}`)
    expect(result).toMatchObject({ status: 'failed', attempts: 5, http_status: null })
    expect(result?.error).toBe(
      `127.0.0.1, the host in base-url, refused the connection on port ${port} (ECONNREFUSED): check base-url's host and port (gave up after 5 attempts)`
    )
  })

  it('a website answering 200 with a page names base-url after one attempt', async () => {
    const site = new LoopbackServer()
    let requests = 0
    await site.listen((request, response) => {
      requests += 1
      request.resume()
      response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' })
      response.end('<!doctype html><html><head><title>Example</title></head></html>')
    })
    try {
      const [result] = await purgeAt(site.url)
      expect(requests).toBe(1)
      expect(result).toMatchObject({ status: 'failed', attempts: 1, http_status: 200 })
      expect(result?.error).toBe(
        `base-url ${site.url} answered with a web page, not the purge API: give the purge API's address`
      )
    } finally {
      await site.close()
    }
  })
})

describe('when going on cannot help', () => {
  const keys = (count: number): string[] => Array.from({ length: count }, (_, index) => `k${index}`)
  const transientOnly = { keys: keys(40), batchSize: 1, concurrency: 4, maxAttempts: 5 }

  it('sends nothing more to a host after a wait it will not take: one cause, one retry_at', async () => {
    const { run, transport } = harness({ keys: keys(10_000) }, () =>
      reply(429, { msg: 'You have exceeded your hourly rate limit' }, { 'retry-after': '3600' })
    )
    const { results } = await run()
    // 40 batches of 256, 8 at once: only the first round was sent.
    expect(transport.sent).toHaveLength(8)
    const until = results[0]?.retry_at
    expect(new Set(results.map((result) => result.retry_at))).toEqual(new Set([until]))
    const causes = failureCauses(results, 1)
    expect(causes).toHaveLength(1)
    expect(causes[0]).toMatchObject({ count: 10_000, notSent: 10_000 - 8 * 256, retryAt: until })
  })

  it('stops calling a host that failed `concurrency` calls in a row, each after all its attempts', async () => {
    const { run, transport } = harness(transientOnly, () => reply(503, 'down'))
    const { results } = await run()
    // The first round of 4 calls, 5 attempts each; calls started while the 4th was still out
    // stop before their second attempt; then no further call.
    expect(transport.sent.length).toBeGreaterThanOrEqual(20)
    expect(transport.sent.length).toBeLessThanOrEqual(20 + 3)
    expect(new Set(transport.sent.map(({ call }) => call.targets[0])).size).toBeLessThanOrEqual(7)
    expect(results[39]?.error).toBe(
      'not sent: api.example-cdn.com failed 4 calls in a row; the last: HTTP 503 (Service Unavailable) — server said: down (gave up after 5 attempts)'
    )
    // Calls started while the 4th was failing were stopped between their retries, and say so.
    const stopped = results.filter((result) => result.error?.startsWith('stopped after '))
    for (const result of stopped) {
      expect(result.error).toBe(
        `stopped after ${result.attempts === 1 ? '1 attempt' : `${result.attempts} attempts`}: api.example-cdn.com failed 4 calls in a row; the last: HTTP 503 (Service Unavailable) — server said: down (gave up after 5 attempts)`
      )
    }
    const [cause] = failureCauses(results, 1)
    expect(cause).toMatchObject({ count: 40, stopped: stopped.length, refused: false })
    // With the jitter fixed, the three calls started as the first three ended are those.
    expect(stopped).toHaveLength(3)
    expect(refusedAndStopped(cause as Cause)).toBe(
      '4 failed, 3 stopped between retries, 33 not sent after that'
    )
  })

  it('counts at least 3 failures in a row as an outage, with one call at a time', async () => {
    const { run, transport } = harness(
      { ...transientOnly, concurrency: 1, maxAttempts: 2 },
      () => ({
        kind: 'network',
        code: 'ECONNREFUSED',
        message: 'connect ECONNREFUSED'
      })
    )
    await run()
    expect(transport.sent).toHaveLength(3 * 2)
  })

  it('starts counting again after a success: a flaky host is not an outage', async () => {
    const { run, transport } = harness(
      { ...transientOnly, concurrency: 1, maxAttempts: 1 },
      (call) => (Number(call.targets[0]?.slice(1)) % 3 === 2 ? ok(call) : reply(502, 'flaky'))
    )
    const { results } = await run()
    expect(transport.sent).toHaveLength(40)
    expect(results.filter((result) => result.status === 'purged')).toHaveLength(13)
  })

  it('neither counts nor retries a refusal: a 404 on every call is not an outage', async () => {
    const { run, transport } = harness(transientOnly, () => reply(404, { msg: 'Record not found' }))
    await run()
    expect(transport.sent).toHaveLength(40)
  })

  describe('behind a proxy', () => {
    let saved: string | undefined
    beforeEach(() => {
      saved = process.env.HTTPS_PROXY
      process.env.HTTPS_PROXY = 'http://user:pa55@proxy.corp.example:3128'
    })
    afterEach(() => {
      if (saved === undefined) delete process.env.HTTPS_PROXY
      else process.env.HTTPS_PROXY = saved
    })

    const refusedBy =
      (status: number) =>
      (call: PurgeCall): Answer => ({
        kind: 'blocked',
        blocked: {
          kind: 'proxy',
          status,
          proxy: 'proxy.corp.example:3128',
          target: `${new URL(call.url).hostname}:443`
        }
      })

    it('a 407 stops every call through the proxy at once: one CONNECT per call in flight', async () => {
      const { run, transport } = harness(
        { urls: urls(20).urls, keys: keys(2), batchSize: 1, concurrency: 4 },
        refusedBy(407)
      )
      const { results } = await run()
      expect(transport.sent).toHaveLength(4)
      expect(results.every((result) => result.status === 'failed' && result.attempts <= 1)).toBe(
        true
      )
      const [cause] = failureCauses(results, 1)
      expect(cause?.count).toBe(22)
      expect(cause?.reason).toBe(
        'the proxy proxy.corp.example:3128 did not accept its credentials (407): check the user and password in HTTPS_PROXY'
      )
      expect(JSON.stringify(results)).not.toContain('pa55')
      expect(JSON.stringify(results)).not.toContain('user:')
    })

    it('a 403 stops only the calls to that host; a certificate too, and neither is retried', async () => {
      const { run, transport } = harness(
        { urls: urls(6).urls, keys: keys(6), batchSize: 1, concurrency: 2 },
        (call, attempt) => {
          if (call.service !== undefined) return refusedBy(403)(call)
          return attempt === 1 && call.url.endsWith('/0')
            ? {
                kind: 'blocked',
                blocked: {
                  kind: 'certificate',
                  code: 'SELF_SIGNED_CERT_IN_CHAIN',
                  host: 'www.example.com'
                }
              }
            : ok(call)
        }
      )
      const { results } = await run()
      const sentTo = (host: string): number =>
        transport.sent.filter(({ call }) => new URL(call.url).hostname === host).length
      expect(sentTo('api.example-cdn.com')).toBe(2)
      expect(sentTo('www.example.com')).toBeLessThanOrEqual(2)
      expect(results.every((result) => result.attempts <= 1)).toBe(true)
      expect(results.filter((result) => result.type === 'url').at(-1)?.error).toBe(
        'not sent after an earlier call to the same host: the certificate of www.example.com is not trusted (SELF_SIGNED_CERT_IN_CHAIN): a company CA is given to Node with NODE_EXTRA_CA_CERTS (docs/self-hosted.md)'
      )
    })
  })
})
