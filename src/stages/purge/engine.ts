/**
 * The purge engine: sends the planned calls with bounded concurrency, retries, stop rules, the
 * rate-limit gate, repeat-after and cancellation, and returns a result for every target. It knows
 * nothing of the runner: transport, clock, abort signal and log are handed in.
 */
import type { Clock } from '../../clock.js'
import type { StepLog } from '../../log.js'
import type { Transport } from './transport.js'
import { counted } from '../../text/counted.js'
import { describeEnd, describeRetry } from './log-lines.js'
import { CANCELLED_IN_FLIGHT, interpret, type Verdict } from './response.js'
import {
  NOT_SENT_AFTER_REFUSAL,
  NOT_SENT_CANCELLED,
  type CallEnd,
  type PurgeCall,
  type PurgeRun
} from '../../record.js'
import { backoffMs, describeWait, MAX_SERVER_WAIT_MS } from './retry-policy.js'
import { ResultLedger, resultsOfCall, withRepeat } from './ledger.js'
import { plainLine } from '../../text/shown.js'

export interface EngineSettings {
  concurrency: number
  maxAttempts: number
  /** Wait before sending every call that purged something a second time; 0 when off. */
  repeatAfterMs: number
}

export interface EngineDeps {
  transport: Transport
  clock: Clock
  /** Aborted when the run is cancelled: no call starts after it, calls in flight are abandoned. */
  signal: AbortSignal
  log: StepLog
  /** Jitter for backoff; tests fix it. */
  random?: () => number
}

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
      return `${NOT_SENT_AFTER_REFUSAL} to the same address got ${unauthorized}`
    }
    const forbidden = this.forbidden.get(permissionScope(call))
    return forbidden === undefined
      ? undefined
      : `${NOT_SENT_AFTER_REFUSAL} needing the same permission found that ${forbidden}`
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

interface Ended {
  end: CallEnd
  /** False when cancellation, not an answer, ended the call. */
  answered: boolean
}

const notSent = (attempts: number, httpStatus: number | null, error: string): Ended => ({
  end: { attempts, httpStatus, ids: undefined, error },
  answered: false
})

interface Pass {
  answered: number
  firstSentMs: number | undefined
}

/** Sends `calls`, records each call's results in `ledger` as it ends. */
async function sendPass(
  calls: readonly PurgeCall[],
  ledger: ResultLedger,
  settings: EngineSettings,
  deps: EngineDeps
): Promise<Pass> {
  const { transport, clock, signal, log } = deps
  const origins = new Map<string, OriginState>()
  let answered = 0
  let firstSentMs: number | undefined

  async function runCall(call: PurgeCall): Promise<Ended> {
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
  ): Promise<Ended> {
    let attempts = 0
    let httpStatus: number | null = null
    for (;;) {
      if (signal.aborted) {
        return notSent(
          attempts,
          httpStatus,
          attempts === 0 ? NOT_SENT_CANCELLED : CANCELLED_IN_FLIGHT
        )
      }
      const refusal = state.refusal(call)
      if (refusal !== undefined) {
        return { end: { attempts, httpStatus, ids: undefined, error: refusal }, answered: true }
      }
      const pause = state.notBefore - clock.now()
      if (pause > 0) {
        await clock.sleep(pause, signal)
        continue
      }

      attempts += 1
      firstSentMs ??= clock.now()
      const exchange = await transport.send(call, signal)
      const verdict = interpret(call, exchange, clock.now())
      state.learn(verdict, call, clock.now())
      afterFirstAttempt()
      if (verdict.ok) {
        const { ids, unusable } = verdict
        return {
          end: { attempts, httpStatus: verdict.httpStatus, ids, unusable, error: undefined },
          answered: true
        }
      }
      httpStatus = verdict.httpStatus
      if (exchange.kind === 'cancelled') return notSent(attempts, httpStatus, verdict.message)

      const { message } = verdict
      const end = { attempts, httpStatus, ids: undefined, error: message }
      if (!verdict.retryable) return { end, answered: true }
      if (verdict.waitMs !== undefined && verdict.waitMs > MAX_SERVER_WAIT_MS) {
        const error = `${message}; the server asks to wait ${describeWait(verdict.waitMs, clock.now())}, longer than the ${MAX_SERVER_WAIT_MS / 1000} s edge-purge waits: run again after that time`
        return { end: { ...end, error }, answered: true }
      }
      if (attempts >= settings.maxAttempts) {
        const error = `${message} (gave up after ${counted(attempts, 'attempt')})`
        return { end: { ...end, error }, answered: true }
      }
      // Never sooner than the server asked, and never at once: a `Retry-After: 0` loop is a flood.
      const wait = Math.max(verdict.waitMs ?? 0, backoffMs(attempts, deps.random))
      log.info(describeRetry(call, attempts, message, wait))
      await clock.sleep(wait, signal)
    }
  }

  /** A throw while handling one call (a bug, or an answer no rule foresaw) fails that call only. */
  async function settle(call: PurgeCall): Promise<Ended> {
    try {
      return await runCall(call)
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error)
      const failure = `edge-purge could not handle this call: ${plainLine(reason)}`
      return {
        end: { attempts: 0, httpStatus: null, ids: undefined, error: failure },
        answered: true
      }
    }
  }

  let next = 0
  async function worker(): Promise<void> {
    while (next < calls.length && !signal.aborted) {
      const index = next++
      const call = calls[index] as PurgeCall
      const started = clock.now()
      const { end, answered: wasAnswered } = await settle(call)
      ledger.record(index, resultsOfCall(call, end))
      if (wasAnswered) answered += 1
      log.info(describeEnd(call, end, clock.now() - started))
    }
  }
  await Promise.all(Array.from({ length: Math.min(settings.concurrency, calls.length) }, worker))
  return { answered, firstSentMs }
}

/**
 * Every target's result, in plan order. Results are recorded in `ledger` as calls end, so a caller
 * that catches a throw from here can still report every target.
 */
export async function runPurge(
  calls: readonly PurgeCall[],
  settings: EngineSettings,
  deps: EngineDeps,
  ledger: ResultLedger = new ResultLedger(calls)
): Promise<PurgeRun> {
  const { log, signal } = deps
  const { answered, firstSentMs } = await log.group(
    `Purge calls (${calls.length}, up to ${settings.concurrency} at once)`,
    () => sendPass(calls, ledger, settings, deps)
  )
  ledger.fill(NOT_SENT_CANCELLED)
  if (settings.repeatAfterMs > 0) await repeatPass(ledger, settings, deps)
  return {
    results: ledger.fill(NOT_SENT_CANCELLED),
    answered,
    cancelled: signal.aborted,
    firstSentMs
  }
}

/**
 * Shielded services: an inner cache can refill the outer one with stale content during the first
 * pass, so every call that purged something is sent again once everything is done.
 */
async function repeatPass(
  ledger: ResultLedger,
  settings: EngineSettings,
  deps: EngineDeps
): Promise<void> {
  const { log, signal } = deps
  const again = ledger.calls.flatMap((_, index) =>
    ledger.get(index)?.some((result) => result.status === 'purged') ? [index] : []
  )
  const repeats = new ResultLedger(again.map((index) => ledger.calls[index] as PurgeCall))
  if (again.length > 0 && !signal.aborted) {
    log.info(`Waiting ${settings.repeatAfterMs / 1000} s before purging again (repeat-after)`)
    await deps.clock.sleep(settings.repeatAfterMs, signal)
    await log.group(`Repeat purge calls (${again.length})`, () =>
      sendPass(repeats.calls, repeats, settings, deps)
    )
  }
  repeats.fill(NOT_SENT_CANCELLED)
  const second = new Map(again.map((index, position) => [index, repeats.get(position)]))
  ledger.calls.forEach((_, index) => {
    ledger.record(index, withRepeat(ledger.get(index) ?? [], second.get(index)))
  })
}
