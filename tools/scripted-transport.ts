/**
 * A purge transport that answers in-process on the virtual clock: each answer comes 10 virtual ms
 * after the call was sent, as the script says (a correct purge API by default).
 */
import type { IncomingHttpHeaders } from 'node:http'
import type { PurgeCall } from '../src/record/index.js'
import type { Answer } from '../src/http/agents.js'
import type { Transport } from '../src/core/transport.js'
import type { FakeClock } from './fake-clock.js'

export const PURGE_ID = '1740093-1756794994-11993984'

export interface Sent {
  call: PurgeCall
  at: number
}

/** What the `attempt`-th sending (1, 2, …) of `call` gets. */
export type CallScript = (call: PurgeCall, attempt: number) => Answer | Promise<Answer>

export const reply = (
  status: number,
  body: unknown,
  headers: IncomingHttpHeaders = {}
): Answer => ({
  kind: 'response',
  status,
  headers,
  body: typeof body === 'string' ? body : JSON.stringify(body),
  truncated: false
})

/** What a correct purge API answers for the call. */
export function ok(call: PurgeCall): Answer {
  if (call.operation === 'batch') {
    return reply(200, Object.fromEntries(call.targets.map((target) => [target, PURGE_ID])))
  }
  return reply(
    200,
    call.operation === 'purge-all' ? { status: 'ok' } : { status: 'ok', id: PURGE_ID }
  )
}

export class ScriptedTransport implements Transport {
  readonly sent: Sent[] = []
  inFlight = 0
  maxInFlight = 0
  closed = false
  private readonly attempts = new Map<string, number>()

  constructor(
    private readonly clock: FakeClock,
    private readonly answer: CallScript = ok
  ) {}

  async send(call: PurgeCall, signal: AbortSignal): Promise<Answer> {
    this.sent.push({ call, at: this.clock.now() })
    const key = `${call.url} ${call.body ?? ''} ${call.headers['Surrogate-Key'] ?? ''}`
    const attempt = (this.attempts.get(key) ?? 0) + 1
    this.attempts.set(key, attempt)
    this.inFlight += 1
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight)
    try {
      await this.clock.sleep(10, signal)
      if (signal.aborted) return { kind: 'cancelled' }
      return await this.answer(call, attempt)
    } finally {
      this.inFlight -= 1
    }
  }

  close(): void {
    this.closed = true
  }
}
