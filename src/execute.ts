/** Sends the planned calls with bounded concurrency, retries and stop rules; every call ends in results. */
import type { Transport } from './client.js'
import type { PurgeCall } from './plan.js'
import { interpret, type Verdict } from './response.js'
import { resultsOfCall, type CallEnd, type PurgeResult } from './results.js'
import { backoffMs, MAX_SERVER_WAIT_MS } from './retry-policy.js'
import { counted } from './counted.js'

export interface ExecuteOptions {
  concurrency: number
  maxAttempts: number
  /** Removes secrets from any text that came back from a server. */
  redact: (text: string) => string
  /** Told about each call once it has ended, in completion order. */
  onCallEnd?: (call: PurgeCall, end: CallEnd, elapsedMs: number) => void
  /** Told about each failed attempt that will be retried. */
  onRetry?: (call: PurgeCall, attempt: number, reason: string, waitMs: number) => void
}

export const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, ms))

function permissionScope(call: PurgeCall): string {
  return `${call.permission} ${call.service ?? ''}`
}

/**
 * What one origin has told us so far. The first call to an origin goes alone: if the token is
 * bad, one request finds out, not `concurrency` of them.
 */
class OriginState {
  /** Keyed by whether the call carries the token: a rejected token says nothing of calls without it. */
  private readonly unauthorized = new Map<boolean, string>()
  /** Keyed by permission and service: a token may be scoped to some services only. */
  private readonly forbidden = new Map<string, string>()
  /** No attempt starts before this time (ms epoch): a rate limit applies to every call to the origin. */
  notBefore = 0
  private openGate: () => void = () => undefined
  readonly opened = new Promise<void>((resolve) => {
    this.openGate = resolve
  })

  open(): void {
    this.openGate()
  }

  /** Why a call must not be sent, if an earlier answer already decided its fate. */
  refusal(call: PurgeCall): string | undefined {
    const unauthorized = this.unauthorized.get(call.authenticated)
    if (unauthorized !== undefined) {
      return `not sent: an earlier call to the same address was refused with ${unauthorized}`
    }
    const forbidden = this.forbidden.get(permissionScope(call))
    return forbidden === undefined
      ? undefined
      : `not sent: an earlier call needing the same permission was refused with ${forbidden}`
  }

  learn(verdict: Verdict, call: PurgeCall, now: number): void {
    if (verdict.ok) return
    if (verdict.stop === 'unauthorized' && !this.unauthorized.has(call.authenticated)) {
      this.unauthorized.set(call.authenticated, verdict.message)
    }
    if (verdict.stop === 'forbidden' && !this.forbidden.has(permissionScope(call))) {
      this.forbidden.set(permissionScope(call), verdict.message)
    }
    if (verdict.waitMs !== undefined && verdict.waitMs <= MAX_SERVER_WAIT_MS) {
      this.notBefore = Math.max(this.notBefore, now + verdict.waitMs)
    }
  }
}

/** Every call's results, per call in plan order. */
export async function executePlan(
  calls: PurgeCall[],
  transport: Transport,
  options: ExecuteOptions
): Promise<PurgeResult[][]> {
  const origins = new Map<string, OriginState>()
  const redacted = (verdict: Verdict): Verdict =>
    verdict.ok ? verdict : { ...verdict, message: options.redact(verdict.message) }
  const ends: PurgeResult[][] = new Array<PurgeResult[]>(calls.length)

  async function runCall(call: PurgeCall): Promise<CallEnd> {
    const origin = new URL(call.url).origin
    const known = origins.get(origin)
    if (known !== undefined) {
      await known.opened
      return attemptCall(call, known, () => undefined)
    }
    const state = new OriginState()
    origins.set(origin, state)
    try {
      return await attemptCall(call, state, () => state.open())
    } finally {
      state.open()
    }
  }

  async function attemptCall(
    call: PurgeCall,
    state: OriginState,
    afterFirstAttempt: () => void
  ): Promise<CallEnd> {
    let attempts = 0
    let httpStatus: number | null = null
    for (;;) {
      const refusal = state.refusal(call)
      if (refusal !== undefined) return { attempts, httpStatus, ids: undefined, error: refusal }
      const pause = state.notBefore - Date.now()
      if (pause > 0) await sleep(pause)

      attempts += 1
      const verdict = redacted(interpret(call, await transport.send(call), Date.now()))
      state.learn(verdict, call, Date.now())
      afterFirstAttempt()
      if (verdict.ok)
        return { attempts, httpStatus: verdict.httpStatus, ids: verdict.ids, error: undefined }

      httpStatus = verdict.httpStatus
      const { message } = verdict
      const end = { attempts, httpStatus, ids: undefined, error: message }
      if (!verdict.retryable) return end
      if (verdict.waitMs !== undefined && verdict.waitMs > MAX_SERVER_WAIT_MS) {
        const resetsAt = new Date(Date.now() + verdict.waitMs).toISOString()
        return {
          ...end,
          error: `${message}; the server asks to wait until ${resetsAt} (${Math.ceil(verdict.waitMs / 1000)} s), longer than the ${MAX_SERVER_WAIT_MS / 1000} s edge-purge waits: run again after that time`
        }
      }
      if (attempts >= options.maxAttempts) {
        return {
          ...end,
          error: `${message} (gave up after ${counted(attempts, 'attempt')})`
        }
      }
      // Never sooner than the server asked: its wait is the floor, backoff only fills silence.
      const wait = verdict.waitMs ?? backoffMs(attempts)
      options.onRetry?.(call, attempts, message, wait)
      await sleep(wait)
    }
  }

  let next = 0
  async function worker(): Promise<void> {
    while (next < calls.length) {
      const index = next++
      const call = calls[index] as PurgeCall
      const started = Date.now()
      const end = await runCall(call)
      ends[index] = resultsOfCall(call, end)
      options.onCallEnd?.(call, end, Date.now() - started)
    }
  }
  await Promise.all(Array.from({ length: Math.min(options.concurrency, calls.length) }, worker))
  return ends
}
