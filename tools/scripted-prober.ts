/**
 * A prober that answers in-process on the virtual clock, for the wait and verification stages:
 * each URL's script says what its n-th check answers and how long it takes. A check that takes
 * longer than its timeout ends as a timeout, as the real probe's would.
 */
import type { IncomingHttpHeaders } from 'node:http'
import type { Answer } from '../src/http/agents.js'
import type { PageReading, ProbeOptions, Prober } from '../src/http/probe.js'
import type { FakeClock } from './fake-clock.js'

export interface Step {
  answer: Answer<PageReading>
  /** Virtual ms the check takes; default 100. */
  takesMs?: number
}

/** What the `check`-th check (1, 2, …) of `url` gets. */
export type Script = (url: string, check: number) => Step

export interface ProbeCall {
  url: string
  at: number
  timeoutMs: number
  lookFor: string | undefined
  endedAt: number | undefined
}

export const page = (
  status: number,
  body = '',
  headers: IncomingHttpHeaders = {}
): Answer<PageReading> => ({
  kind: 'response',
  status,
  headers,
  body,
  truncated: false,
  ageLines: headers.age === undefined ? [] : [headers.age],
  undecodable: undefined
})

export class ScriptedProber implements Prober {
  readonly calls: ProbeCall[] = []
  inFlight = 0
  maxInFlight = 0
  private readonly checks = new Map<string, number>()

  constructor(
    private readonly clock: FakeClock,
    private readonly script: Script
  ) {}

  async get(
    url: string,
    { timeoutMs, signal, lookFor }: ProbeOptions
  ): Promise<Answer<PageReading>> {
    const call: ProbeCall = { url, at: this.clock.now(), timeoutMs, lookFor, endedAt: undefined }
    this.calls.push(call)
    const check = (this.checks.get(url) ?? 0) + 1
    this.checks.set(url, check)
    const { answer, takesMs = 100 } = this.script(url, check)
    this.inFlight += 1
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight)
    try {
      await this.clock.sleep(Math.min(takesMs, timeoutMs), signal)
      if (signal.aborted) return { kind: 'cancelled' }
      if (takesMs > timeoutMs) {
        return { kind: 'timeout', message: `no complete answer within ${timeoutMs / 1000} s` }
      }
      return answer
    } finally {
      this.inFlight -= 1
      call.endedAt = this.clock.now()
    }
  }

  close(): void {}

  /** Start times of the checks of `url`, in ms since `from`. */
  startsOf(url: string, from: number): number[] {
    return this.calls.filter((call) => call.url === url).map((call) => call.at - from)
  }
}
