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
import { type CallEnd, type PurgeCall, type PurgeRun } from '../../record/index.js'
import { NOT_SENT_CANCELLED, notSentAfter } from '../../record/words.js'
import { backoffMs, describeWait, MAX_SERVER_WAIT_MS } from '../../http/retry-policy.js'
import { ResultLedger } from './ledger.js'
import { plainLine } from '../../text/shown.js'
import { messageOf } from '../../text/message.js'

interface EngineSettings {
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
 * What one origin has told us so far. The first round of calls goes out at once, each on its own
 * connection, so their handshakes overlap; once an answer says the token is rejected, forbidden or
 * rate-limited, no further call to the origin starts: a bad token costs at most `concurrency`
 * requests.
 */
class OriginState {
  /** Keyed by whether the call carries the token: a rejected token says nothing of calls without it. */
  private readonly unauthorized = new Map<boolean, string>()
  /** Keyed by permission and service: a token may be scoped to some services only. */
  private readonly forbidden = new Map<string, string>()
  /** No attempt starts before this time (ms epoch): a rate limit applies to every call to the origin. */
  notBefore = 0

  /** Why a call must not be sent, if an earlier answer already decided its fate. */
  refusal(call: PurgeCall): string | undefined {
    const unauthorized = this.unauthorized.get(call.authenticated)
    if (unauthorized !== undefined) {
      return notSentAfter('unauthorized', unauthorized)
    }
    const forbidden = this.forbidden.get(permissionScope(call))
    return forbidden === undefined ? undefined : notSentAfter('forbidden', forbidden)
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

/** How a call settled: its end as the record keeps it. */
interface Settled {
  end: CallEnd
  /** False when cancellation, not an answer, ended the call. */
  answered: boolean
}

const notSent = (attempts: number, httpStatus: number | null, error: string): Settled => ({
  end: { attempts, httpStatus, ids: undefined, error },
  answered: false
})

const failed = (attempts: number, httpStatus: number | null, error: string): Settled => ({
  end: { attempts, httpStatus, ids: undefined, error },
  answered: true
})

type Failure = Extract<Verdict, { ok: false }>

/**
 * After a failed attempt: the wait before the next one, or the call's end when it must not be
 * retried (a final answer, a server asking for more than we wait, the last attempt).
 */
function afterFailure(
  verdict: Failure,
  attempts: number,
  settings: EngineSettings,
  { clock, random }: EngineDeps
): { retryInMs: number } | { settled: Settled } {
  const { message, httpStatus, waitMs } = verdict
  if (!verdict.retryable) return { settled: failed(attempts, httpStatus, message) }
  if (waitMs !== undefined && waitMs > MAX_SERVER_WAIT_MS) {
    const error = `${message}; the server asks to wait ${describeWait(waitMs, clock.now())}, longer than the ${MAX_SERVER_WAIT_MS / 1000} s edge-purge waits: run again after that time`
    return { settled: failed(attempts, httpStatus, error) }
  }
  if (attempts >= settings.maxAttempts) {
    const error = `${message} (gave up after ${counted(attempts, 'attempt')})`
    return { settled: failed(attempts, httpStatus, error) }
  }
  // Never sooner than the server asked, and never at once: a `Retry-After: 0` loop is a flood.
  return { retryInMs: Math.max(waitMs ?? 0, backoffMs(attempts, random)) }
}

/**
 * One pass over the calls, `concurrency` at a time, the first `concurrency` at once (see
 * `OriginState`); each call is retried until it ends; each call's results go to the ledger as it
 * ends, so whatever stops the pass, the calls that ended are recorded.
 */
class PurgePass {
  private readonly origins = new Map<string, OriginState>()
  /** Calls that got an answer (any answer) before the pass ended. */
  answered = 0
  firstSentMs: number | undefined

  constructor(
    private readonly settings: EngineSettings,
    private readonly deps: EngineDeps
  ) {}

  async run(calls: readonly PurgeCall[], ledger: ResultLedger): Promise<void> {
    const { signal } = this.deps
    let next = 0
    const worker = async (): Promise<void> => {
      while (next < calls.length && !signal.aborted) {
        const index = next++
        await this.sendAndRecord(calls[index] as PurgeCall, index, ledger)
      }
    }
    const workers = Math.min(this.settings.concurrency, calls.length)
    await Promise.all(Array.from({ length: workers }, worker))
  }

  private async sendAndRecord(call: PurgeCall, index: number, ledger: ResultLedger): Promise<void> {
    const { clock, log } = this.deps
    const started = clock.now()
    const { end, answered } = await this.settle(call)
    ledger.record(index, end)
    if (answered) this.answered += 1
    log.info(describeEnd(call, end, clock.now() - started))
  }

  /** A throw while handling one call (a bug, or an answer no rule foresaw) fails that call only. */
  private async settle(call: PurgeCall): Promise<Settled> {
    try {
      return await this.attempt(call, this.originOf(call))
    } catch (error) {
      const reason = messageOf(error)
      return failed(0, null, `edge-purge could not handle this call: ${plainLine(reason)}`)
    }
  }

  private originOf(call: PurgeCall): OriginState {
    const address = new URL(call.url).origin
    const known = this.origins.get(address)
    if (known !== undefined) return known
    const origin = new OriginState()
    this.origins.set(address, origin)
    return origin
  }

  /** Sends `call` until it succeeds, fails for good, is stopped by an earlier answer, or is cancelled. */
  private async attempt(call: PurgeCall, origin: OriginState): Promise<Settled> {
    const { transport, clock, signal, log } = this.deps
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
      const refusal = origin.refusal(call)
      if (refusal !== undefined) return failed(attempts, httpStatus, refusal)
      const pause = origin.notBefore - clock.now()
      if (pause > 0) {
        await clock.sleep(pause, signal)
        continue
      }
      attempts += 1
      this.firstSentMs ??= clock.now()
      const exchange = await transport.send(call, signal)
      const verdict = interpret(call, exchange, clock.now())
      origin.learn(verdict, call, clock.now())
      if (verdict.ok) {
        const { ids, unusable } = verdict
        const end = { attempts, httpStatus: verdict.httpStatus, ids, unusable, error: undefined }
        return { end, answered: true }
      }
      httpStatus = verdict.httpStatus
      if (exchange.kind === 'cancelled') return notSent(attempts, httpStatus, verdict.message)
      const next = afterFailure(verdict, attempts, this.settings, this.deps)
      if ('settled' in next) return next.settled
      log.info(describeRetry(call, attempts, verdict.message, next.retryInMs))
      await clock.sleep(next.retryInMs, signal)
    }
  }
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
  const pass = new PurgePass(settings, deps)
  await log.group(`Purge calls (${calls.length}, up to ${settings.concurrency} at once)`, () =>
    pass.run(calls, ledger)
  )
  ledger.fill(NOT_SENT_CANCELLED)
  if (settings.repeatAfterMs > 0) await repeatPass(ledger, settings, deps)
  return {
    ...ledger.settle(NOT_SENT_CANCELLED),
    answered: pass.answered,
    cancelled: signal.aborted,
    firstSentMs: pass.firstSentMs
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
  const again = ledger.calls.flatMap((_, index) => (ledger.purgedAny(index) ? [index] : []))
  const repeats = new ResultLedger(again.map((index) => ledger.calls[index] as PurgeCall))
  if (again.length > 0 && !signal.aborted) {
    log.info(`Waiting ${settings.repeatAfterMs / 1000} s before purging again (repeat-after)`)
    await deps.clock.sleep(settings.repeatAfterMs, signal)
    await log.group(`Repeat purge calls (${again.length})`, () =>
      new PurgePass(settings, deps).run(repeats.calls, repeats)
    )
  }
  repeats.fill(NOT_SENT_CANCELLED)
  ledger.foldRepeat(again, repeats)
}
