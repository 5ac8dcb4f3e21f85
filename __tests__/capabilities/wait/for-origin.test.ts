/**
 * The wait stage in-process on the virtual clock: cadence, no overlap, the deadline (a last check
 * at it, even when timers wake late), request timeouts cut to the time left, passes in a row (never
 * for a body that cannot be decoded), the failure text and the time it gives, a proxy's refusal or
 * a certificate problem ending the wait at once, concurrency and cancel.
 */
import { describe, expect, it } from '@jest/globals'
import { getEventListeners } from 'node:events'
import { describeBlocked } from '../../../src/http/blocked.js'
import type { Answer } from '../../../src/http/agents.js'
import type { PageReading, Prober } from '../../../src/http/probe.js'
import { reasonOf } from '../../../src/record/failure.js'
import { waitForOrigin } from '../../../src/capabilities/wait/for-origin.js'
import { FakeClock } from '../../../tools/fake-clock.js'
import { recordedLog } from '../../support/recorded-log.js'
import { page, ScriptedProber, type Script } from '../../../tools/scripted-prober.js'
import type { WaitSettings } from '../../../src/config/settings.js'
import type { RequestLimits } from '../../../src/http/page-checks.js'
import type { WaitOutcome } from '../../../src/capabilities/wait/record.js'
import type { Clock } from '../../../src/clock.js'
import { runCancel } from '../../support/run-cancel.js'
import { NO_SECRETS } from '../../support/guard.js'

/** The wait's failure in words, as the log and every target's reason give it. */
const failureText = (outcome: WaitOutcome): string | undefined =>
  outcome.failure === undefined ? undefined : reasonOf(outcome.failure)

const ORIGIN = 'https://origin.example/version'
const SHA = 'abc1234'
const OLD = page(200, 'version def5678')
const NEW = page(200, `version ${SHA}`)

const settings = (
  overrides: Partial<WaitSettings & RequestLimits> = {}
): WaitSettings & RequestLimits => ({
  urls: [ORIGIN],
  text: SHA,
  passes: 1,
  timeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  concurrency: 4,
  ...overrides
})

interface Run {
  outcome: WaitOutcome
  prober: ScriptedProber
  lines: string[]
  started: number
}

async function run(
  overrides: Partial<WaitSettings & RequestLimits>,
  script: Script,
  signal = runCancel().signal
): Promise<Run> {
  const clock = new FakeClock()
  const started = clock.now()
  const prober = new ScriptedProber(clock, script)
  const log = recordedLog()
  const given = settings(overrides)
  const outcome = await waitForOrigin(given, given, {
    guard: NO_SECRETS,
    prober,
    clock,
    signal,
    log
  })
  return { outcome, prober, lines: log.lines, started }
}

const always =
  (answer: Answer<PageReading>, takesMs?: number): Script =>
  () => ({ answer, takesMs })

describe('cadence and deadline', () => {
  it('starts a check every 2 s, the last one no later than the deadline', async () => {
    const { outcome, prober, started } = await run({}, always(OLD))
    expect(prober.startsOf(ORIGIN, started)).toEqual([0, 2000, 4000, 6000, 8000, 10_000])
    expect(outcome).toMatchObject({ done: false, cancelled: false, elapsedMs: 10_100 })
  })

  it('never overlaps checks of one URL: a 5 s check delays the next to its end (the one cut to the deadline too)', async () => {
    const { prober, started } = await run({ timeoutMs: 12_000 }, always(OLD, 5000))
    expect(prober.startsOf(ORIGIN, started)).toEqual([0, 5000, 10_000, 12_000])
    expect(prober.calls.map(({ timeoutMs }) => timeoutMs)).toEqual([12_000, 7000, 2000, 1000])
    expect(prober.maxInFlight).toBe(1)
  })

  it('cuts each request timeout to the time left, but never below 1 s', async () => {
    const { prober } = await run({ requestTimeoutMs: 5000 }, always(OLD))
    expect(prober.calls.map(({ timeoutMs }) => timeoutMs)).toEqual([
      5000, 5000, 5000, 4000, 2000, 1000
    ])
  })

  it('checks once more at the deadline when the next check would come after it', async () => {
    const { outcome, prober, started } = await run({ timeoutMs: 5000 }, always(OLD))
    expect(prober.startsOf(ORIGIN, started)).toEqual([0, 2000, 4000, 5000])
    expect(prober.calls.at(-1)?.timeoutMs).toBe(1000)
    expect(outcome).toMatchObject({ done: false, elapsedMs: 5100 })
    expect(failureText(outcome)).toBe(
      `the origin was not ready after 5 s: ${ORIGIN} did not show "${SHA}"`
    )
  })

  it('uses all of wait-timeout when timers wake late, as real ones do: 6 s is not 4', async () => {
    const fake = new FakeClock()
    const started = fake.now()
    // Each of the wait's timers wakes 3 ms late, so the 2 s steps drift past the deadline.
    const clock: Clock = {
      now: () => fake.now(),
      sleep: (ms, signal) => fake.sleep(ms + 3, signal)
    }
    const prober = new ScriptedProber(fake, always(OLD))
    const given = settings({ timeoutMs: 6000 })
    const outcome = await waitForOrigin(given, given, {
      guard: NO_SECRETS,
      prober,
      clock,
      signal: new AbortController().signal,
      log: recordedLog()
    })
    expect(prober.startsOf(ORIGIN, started)).toEqual([0, 2003, 4006, 6003])
    expect(outcome.elapsedMs).toBe(6103)
    expect(failureText(outcome)).toBe(
      `the origin was not ready after 6 s: ${ORIGIN} did not show "${SHA}"`
    )
  })

  it('asks the prober to look for the text, and for nothing without it', async () => {
    const withText = await run({}, always(NEW))
    expect(withText.prober.calls.map(({ lookFor }) => lookFor)).toEqual([SHA])
    const without = await run({ text: undefined }, always(page(204)))
    expect(without.prober.calls.map(({ lookFor }) => lookFor)).toEqual([undefined])
  })
})

describe('passes', () => {
  it('ends as soon as every URL shows the text, and checks a passed URL no more', async () => {
    const other = 'https://origin.example/health'
    const { outcome, prober } = await run({ urls: [ORIGIN, other] }, (url, check) => ({
      answer: url === other || check >= 3 ? NEW : OLD
    }))
    expect(outcome).toMatchObject({ done: true, cancelled: false, failure: undefined })
    expect(outcome.elapsedMs).toBe(4100)
    expect(outcome.urls).toEqual([
      { url: ORIGIN, checks: 3, passedInARow: 1, last: `HTTP 200, showed "${SHA}"` },
      { url: other, checks: 1, passedInARow: 1, last: `HTTP 200, showed "${SHA}"` }
    ])
    expect(prober.calls).toHaveLength(4)
  })

  it('needs the passes in a row: a flip back to the old build starts the count again', async () => {
    const answers = [NEW, OLD, NEW, NEW, OLD]
    const { outcome, lines } = await run({ passes: 2 }, (_, check) => ({
      answer: answers[check - 1] ?? OLD
    }))
    expect(outcome).toMatchObject({ done: true, elapsedMs: 6100 })
    expect(outcome.urls[0]).toMatchObject({ checks: 4, passedInARow: 2 })
    expect(lines.filter((line) => !line.startsWith('['))).toEqual([
      `✓ ${ORIGIN}: HTTP 200, showed "${SHA}" (check 1; 1 of 2 in a row)`,
      `✗ ${ORIGIN}: HTTP 200, did not show "${SHA}" (check 2; 0 of 2 in a row)`,
      `✓ ${ORIGIN}: HTTP 200, showed "${SHA}" (check 3; 1 of 2 in a row)`,
      `✓ ${ORIGIN}: HTTP 200, showed "${SHA}" (check 4; 2 of 2 in a row)`,
      'The origin is ready after 6.1 s'
    ])
  })

  it('counts the text only in a 2xx answer', async () => {
    const { outcome } = await run({ timeoutMs: 2000 }, always(page(404, `not found ${SHA}`)))
    expect(outcome.done).toBe(false)
  })

  it('does not pass a page whose coding it cannot decode, with or without text, and says why', async () => {
    const reason = 'Content-Encoding "compress" is not one edge-purge can decode'
    const undecodable: Answer<PageReading> = {
      kind: 'response',
      status: 200,
      headers: { 'content-encoding': 'compress', 'x-release': SHA },
      body: '',
      truncated: false,
      ageLines: [],
      undecodable: reason
    }
    for (const text of [SHA, undefined]) {
      const { outcome } = await run({ text, timeoutMs: 2000 }, always(undecodable))
      expect(outcome.done).toBe(false)
      expect(outcome.urls[0]?.last).toBe(`HTTP 200, ${reason}`)
    }
  })

  it('without text, waits for a 2xx answer', async () => {
    const { outcome } = await run({ text: undefined }, (_, check) => ({
      answer: check < 3 ? page(502) : page(200)
    }))
    expect(outcome).toMatchObject({ done: true, elapsedMs: 4100 })
  })
})

describe('request timeouts', () => {
  it('never gives a check more than the request timeout, even when that is under 1 s', async () => {
    const { prober } = await run({ timeoutMs: 5000, requestTimeoutMs: 500 }, always(OLD, 60_000))
    expect(prober.calls.length).toBeGreaterThan(1)
    expect(prober.calls.every(({ timeoutMs }) => timeoutMs === 500)).toBe(true)
  })
})

describe('time up', () => {
  it('names each URL not ready, what was awaited and its last answer', async () => {
    const down = 'https://origin.example/down'
    const { outcome, lines } = await run(
      { urls: [ORIGIN, 'https://origin.example/ok', down], passes: 2 },
      (url) => ({
        answer:
          url === down
            ? { kind: 'network', code: 'ECONNREFUSED', message: 'connect ECONNREFUSED' }
            : url === ORIGIN
              ? OLD
              : NEW
      })
    )
    expect(outcome.done).toBe(false)
    expect(failureText(outcome)).toBe(
      `the origin was not ready after 10 s: 2 of 3 wait-for-urls did not show "${SHA}" 2 times in a row`
    )
    expect(lines.slice(-4, -1)).toEqual([
      failureText(outcome),
      `${ORIGIN} did not show "${SHA}" 2 times in a row (last answer: HTTP 200, did not show "${SHA}", after 6 checks)`,
      `${down} did not show "${SHA}" 2 times in a row (last answer: network error: connect ECONNREFUSED, after 6 checks)`
    ])
  })

  it('says what a URL without text was awaited for, and when a check timed out', async () => {
    const { outcome } = await run(
      { text: undefined, timeoutMs: 3000, requestTimeoutMs: 2000 },
      always(page(200), 60_000)
    )
    expect(failureText(outcome)).toBe(
      `the origin was not ready after 3 s: ${ORIGIN} did not answer 2xx`
    )
    expect(outcome.urls[0]).toMatchObject({ checks: 2, last: 'no complete answer within 1 s' })
  })

  it('gives the time the wait took, as wait-seconds does, even past wait-timeout', async () => {
    // The check at 0 s times out at the deadline; the one then still gets 1 s.
    const { outcome, prober, started } = await run({ timeoutMs: 3000 }, always(OLD, 60_000))
    expect(prober.startsOf(ORIGIN, started)).toEqual([0, 3000])
    expect(outcome.elapsedMs).toBe(4000)
    expect(failureText(outcome)).toBe(
      `the origin was not ready after 4 s: ${ORIGIN} did not show "${SHA}"`
    )
  })

  it('says why in one short sentence however many URLs wait: every target repeats it', async () => {
    const urls = Array.from(
      { length: 100 },
      (_, index) => `https://origin.example/${index}/${'v'.repeat(1900)}`
    )
    const { outcome } = await run({ urls, text: 'x'.repeat(500), passes: 100 }, always(OLD))
    expect(failureText(outcome)).toBe(
      `the origin was not ready after 10 s: 100 of 100 wait-for-urls did not show "${'x'.repeat(80)}…" 100 times in a row`
    )
    expect(`not sent: ${failureText(outcome) ?? ''}`.length).toBeLessThanOrEqual(400)
  })

  it('cuts server text and keeps each log line on one line', async () => {
    const { lines } = await run({ timeoutMs: 0 }, () => ({
      answer: { kind: 'network', code: undefined, message: `bad\nthing ${'x'.repeat(1000)}` }
    }))
    const check = lines.find((line) => line.startsWith('✗')) ?? ''
    // The line break the server sent shows as \n; the text is cut, marked by an ellipsis.
    expect(check).not.toMatch(/[\r\n]/)
    expect(check).toContain('\\n')
    expect(check).toContain('x…')
    expect(check.length).toBeLessThan(300)
  })
})

describe('a proxy or a certificate in the way', () => {
  const untrusted: Answer<PageReading> = {
    kind: 'blocked',
    blocked: { kind: 'certificate', code: 'SELF_SIGNED_CERT_IN_CHAIN', host: 'origin.example' }
  }

  it('ends the wait at the first check, not at wait-timeout, naming the block and its fix', async () => {
    const cancel = runCancel()
    const { outcome, prober, lines } = await run(
      { timeoutMs: 600_000 },
      always(untrusted),
      cancel.signal
    )
    expect(prober.calls).toHaveLength(1)
    expect(outcome).toMatchObject({ done: false, cancelled: false, blocked: true, elapsedMs: 100 })
    expect(failureText(outcome)).toBe(
      'the origin could not be checked because the certificate of origin.example is not trusted (SELF_SIGNED_CERT_IN_CHAIN): a company CA is given to Node with NODE_EXTRA_CA_CERTS (docs/self-hosted.md)'
    )
    expect(lines.slice(-3, -1)).toEqual([
      failureText(outcome),
      `${ORIGIN} did not show "${SHA}" (last answer: ${describeBlocked(untrusted.blocked)}, after 1 check)`
    ])
    // The wait's own stop leaves nothing listening to the run's cancel.
    expect(getEventListeners(cancel.signal, 'abort')).toEqual([])
  })

  it('abandons the checks in flight and starts no other', async () => {
    const urls = [ORIGIN, 'https://origin.example/slow', 'https://origin.example/next']
    const { outcome, prober } = await run({ urls, concurrency: 2 }, (url) =>
      url === ORIGIN ? { answer: untrusted } : { answer: NEW, takesMs: 30_000 }
    )
    expect(prober.calls.map(({ url, endedAt }) => [url, endedAt])).toEqual([
      [ORIGIN, prober.calls[0]!.at + 100],
      [urls[1], prober.calls[0]!.at + 100]
    ])
    expect(outcome).toMatchObject({ blocked: true, elapsedMs: 100 })
    expect(outcome.urls.map(({ checks }) => checks)).toEqual([1, 0, 0])
  })

  it("shows a proxy's refusal whole, however long its host names", async () => {
    const host = `${'h'.repeat(60)}.example`
    const blocked: Answer<PageReading> = {
      kind: 'blocked',
      blocked: { kind: 'proxy', status: 403, proxy: `${host}:3128`, target: `${host}:443` }
    }
    const { outcome } = await run({}, always(blocked))
    expect(failureText(outcome)).toBe(
      `the origin could not be checked because the proxy ${host}:3128 refused the tunnel to ${host}:443 (403): the proxy does not allow CONNECT to ${host}:443; ask its admins to allow it, or list the host in NO_PROXY`
    )
  })
})

describe('bounds', () => {
  it('has at most `concurrency` requests in flight', async () => {
    const urls = Array.from({ length: 6 }, (_, index) => `https://origin.example/${index}`)
    const { prober } = await run({ urls, concurrency: 2, timeoutMs: 9000 }, always(OLD, 3000))
    expect(prober.maxInFlight).toBe(2)
    expect(prober.calls.every(({ at }) => at <= prober.calls[0]!.at + 9000)).toBe(true)
  })

  it('returns at once on cancel, even while a check hangs', async () => {
    const controller = runCancel()
    const clock = new FakeClock()
    let calls = 0
    const hanging: Prober = {
      get: () => {
        calls += 1
        if (calls === 3) controller.abort()
        return calls >= 3 ? new Promise(() => undefined) : Promise.resolve(OLD)
      },
      close: () => undefined
    }
    const log = recordedLog()
    const outcome = await waitForOrigin(settings(), settings(), {
      guard: NO_SECRETS,
      prober: hanging,
      clock,
      signal: controller.signal,
      log
    })
    expect(outcome).toMatchObject({ done: false, cancelled: true, failure: undefined })
    expect(outcome.urls[0]?.checks).toBe(2)
    expect(log.lines.at(-2)).toBe('Wait cancelled after 4.0 s')
  })
})
