/**
 * The one retry executor (http/retry.ts) on a fake clock: what ends the attempts, and how long it
 * waits between them: the longer of the server's wait and the backoff, never a burst.
 */
import { describe, expect, it } from '@jest/globals'
import { withRetries, type FailedAttempt, type Tried } from '../src/http/retry.js'
import { FakeClock } from '../tools/fake-clock.js'

/** A failed attempt, named by what the script said. */
interface Said extends FailedAttempt {
  said: string
}

type Script = (attempt: number) => Tried<string, Said>

const failed = (
  said: string,
  { cancelled = false, ...read }: Partial<FailedAttempt> & { cancelled?: boolean } = {}
): Tried<string, Said> => ({
  ok: false,
  failure: { said, retryable: true, waitMs: undefined, ...read },
  cancelled
})

/** Runs `script` with 5 attempts on a fake clock whose backoff has no jitter. */
async function run(
  script: Script,
  options: {
    gate?: () => { stop: string } | { pauseMs: number } | undefined
    signal?: AbortSignal
  } = {}
) {
  const clock = new FakeClock()
  const retries: [number, string, number][] = []
  const tried: number[] = []
  const retried = await withRetries<string, Said, string>(
    async (attempt) => {
      tried.push(attempt)
      return script(attempt)
    },
    {
      maxAttempts: 5,
      clock,
      signal: options.signal ?? new AbortController().signal,
      random: () => 0,
      gate: options.gate,
      onRetry: (attempt, failure, waitMs) => retries.push([attempt, failure.said, waitMs])
    }
  )
  return { retried, tried, retries, sleeps: clock.sleeps }
}

describe('withRetries', () => {
  it('retries until an attempt succeeds, backing off between them', async () => {
    const { retried, retries } = await run((n) =>
      n < 3 ? failed(`503 #${n}`) : { ok: true, value: 'ids' }
    )
    expect(retried).toEqual({ ok: true, value: 'ids', attempts: 3 })
    expect(retries).toEqual([
      [1, '503 #1', 500],
      [2, '503 #2', 1000]
    ])
  })

  it("waits the longer of the server's wait and the backoff: a wait of 0 is never a burst", async () => {
    const { sleeps } = await run((n) =>
      n === 1
        ? failed('429', { waitMs: 7000 })
        : n === 2
          ? failed('503', { waitMs: 0 })
          : { ok: true, value: 'ids' }
    )
    expect(sleeps).toEqual([7000, 1000])
  })

  it('gives up after the last attempt, with its failure', async () => {
    const { retried, tried } = await run((n) => failed(`503 #${n}`))
    expect(tried).toEqual([1, 2, 3, 4, 5])
    expect(retried).toMatchObject({
      ok: false,
      end: 'gave up',
      attempts: 5,
      failure: { said: '503 #5' }
    })
  })

  it('ends at once on a failure that is not retryable', async () => {
    const { retried, sleeps } = await run(() => failed('401', { retryable: false }))
    expect(retried).toMatchObject({ end: 'final', attempts: 1, failure: { said: '401' } })
    expect(sleeps).toEqual([])
  })

  it('does not wait past 120 s: the call ends, saying when it may go again', async () => {
    const clock0 = new FakeClock().now()
    const { retried, sleeps } = await run(() => failed('429', { waitMs: 3_600_000 }))
    expect(retried).toMatchObject({ end: 'too long', attempts: 1, retryAt: clock0 + 3_600_000 })
    expect(sleeps).toEqual([])
  })

  it('makes no attempt an earlier answer stops, and holds one a wait asks for', async () => {
    const stopped = await run(() => ({ ok: true, value: 'ids' }), {
      gate: () => ({ stop: 'token rejected' })
    })
    expect(stopped.retried).toEqual({
      ok: false,
      end: 'stopped',
      attempts: 0,
      stopped: 'token rejected',
      failure: undefined
    })
    let held = false
    const paused = await run(() => ({ ok: true, value: 'ids' }), {
      gate: () => (held ? undefined : ((held = true), { pauseMs: 30_000 }))
    })
    expect(paused.sleeps).toEqual([30_000])
    expect(paused.retried).toMatchObject({ ok: true, attempts: 1 })
  })

  it('makes no attempt after the cancel, and ends on an attempt the cancel cut short', async () => {
    const cancel = new AbortController()
    cancel.abort()
    const before = await run(() => ({ ok: true, value: 'ids' }), { signal: cancel.signal })
    expect(before.retried).toMatchObject({ end: 'cancelled', attempts: 0, failure: undefined })
    expect(before.tried).toEqual([])
    const during = await run(() => failed('no answer', { cancelled: true }))
    expect(during.retried).toMatchObject({
      end: 'cancelled',
      attempts: 1,
      failure: { said: 'no answer' }
    })
  })
})
