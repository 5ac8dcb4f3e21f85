/**
 * The purge engine: sends the planned calls with bounded concurrency, retries, stop rules, the
 * rate-limit gate, repeat-after and cancellation, and returns a result for every target. It knows
 * nothing of the runner: transport, clock, abort signal and log are handed in.
 */
import type { Clock } from '../clock.js'
import type { Settings } from '../config/settings.js'
import type { StepLog } from '../log.js'
import type { Transport } from './transport.js'
import { describeEnd, describeRetry } from './log-lines.js'
import { CANCELLED_IN_FLIGHT, interpret, type Refusal } from './response.js'
import { type CallEnd, type PurgeCall, type PurgeRun } from '../record/index.js'
import { FAILED, NOT_SENT_CANCELLED, type Failure } from '../record/failure.js'
import { withRetries, type Retried, type Tried } from '../http/retry.js'
import { Gates, scopesOf, tooLongToWait, type Ending, type Scopes, type Stopped } from './gates.js'
import { ResultLedger } from './ledger.js'
import type { Guard } from '../text/guard.js'
import { plainLine } from '../text/shown.js'
import { messageOf } from '../text/message.js'

type EngineSettings = Pick<Settings, 'concurrency' | 'maxAttempts' | 'repeatAfterMs'>

export interface EngineDeps {
  transport: Transport
  clock: Clock
  /** Aborted when the run is cancelled: no call starts after it, calls in flight are abandoned. */
  signal: AbortSignal
  log: StepLog
  /** Hides the run's secrets in what the purge API says, before anything cuts or shows it. */
  guard: Guard
  /** Jitter for backoff; tests fix it. */
  random?: () => number
}

/** How a call settled: its end as the record keeps it. */
interface Settled {
  end: CallEnd
  /** False when cancellation, not an answer, ended the call. */
  answered: boolean
  /** What the ending tells of the host: an outage is made of transient failures in a row. */
  ending: Ending
}

/** A failed call's end that tells nothing of an outage: a throw while handling the call. */
const failed = (attempts: number, httpStatus: number | null, failure: Failure): Settled => ({
  end: { attempts, httpStatus, ids: undefined, failure },
  answered: true,
  ending: 'other'
})

type Unpurged = Exclude<Retried<Settled, Refusal, Stopped>, { ok: true }>

/** A call's end once its attempts ended without an id: how they ended says what it records. */
function failedEnd(retried: Unpurged): Settled {
  const { attempts } = retried
  const httpStatus = retried.failure?.httpStatus ?? null
  const failure = failureAfter(retried)
  const retryAt = retried.end === 'stopped' ? retried.stopped.retryAt : retried.retryAt
  // A rate limit is the server at work, not down.
  const ending = retried.end === 'gave up' && httpStatus !== 429 ? 'transient' : 'other'
  const end = { attempts, httpStatus, ids: undefined, failure, retryAt }
  return { end, answered: retried.end !== 'cancelled', ending }
}

/** Why a call failed once its attempts ended without an id. */
function failureAfter(retried: Unpurged): Failure {
  const { attempts } = retried
  const last = retried.failure?.failure ?? FAILED
  switch (retried.end) {
    case 'stopped':
      return { ...retried.stopped.cause, stopped: { by: retried.stopped.knockOn, attempts } }
    case 'cancelled':
      return attempts === 0 ? NOT_SENT_CANCELLED : CANCELLED_IN_FLIGHT
    case 'too long':
      return tooLongToWait(last)
    case 'gave up':
      return { ...last, gaveUpAfter: attempts }
    case 'final':
      return last
  }
}

/**
 * One pass over the calls, `concurrency` at a time, the first `concurrency` at once (see
 * gates.ts); each call is retried until it ends; each call's results go to the ledger as it
 * ends, so whatever stops the pass, the calls that ended are recorded.
 */
class PurgePass {
  private readonly gates: Gates
  /** Calls that got an answer (any answer) before the pass ended. */
  answered = 0
  firstSentMs: number | undefined

  constructor(
    private readonly settings: EngineSettings,
    private readonly deps: EngineDeps
  ) {
    this.gates = new Gates(settings.concurrency)
  }

  async run(calls: readonly PurgeCall[], ledger: ResultLedger): Promise<void> {
    const { clock, signal, log } = this.deps
    let next = 0
    const worker = async (): Promise<void> => {
      while (next < calls.length && !signal.aborted) {
        const index = next++
        const call = calls[index] as PurgeCall
        const started = clock.now()
        const { end, answered } = await this.settle(call)
        ledger.ended(index, end)
        if (answered) this.answered += 1
        log.info(describeEnd(call, end, clock.now() - started, this.deps.guard))
      }
    }
    const workers = Math.min(this.settings.concurrency, calls.length)
    await Promise.all(Array.from({ length: workers }, worker))
  }

  /** A throw while handling one call (a bug, or an answer no rule foresaw) fails that call only. */
  private async settle(call: PurgeCall): Promise<Settled> {
    try {
      const scopes = scopesOf(call)
      const settled = await this.attempt(call, scopes)
      this.gates.ended(scopes, settled.ending, settled.end.failure)
      return settled
    } catch (error) {
      const detail = plainLine(this.deps.guard, messageOf(error))
      return failed(0, null, { what: 'edge-purge could not handle this call', detail })
    }
  }

  /** Sends `call` until it succeeds, fails for good, is stopped by an earlier answer, or is cancelled. */
  private async attempt(call: PurgeCall, scopes: Scopes): Promise<Settled> {
    const { transport, clock, signal, log, guard, random } = this.deps
    const { gates } = this
    const send = async (attempts: number): Promise<Tried<Settled, Refusal>> => {
      this.firstSentMs ??= clock.now()
      const exchange = await transport.send(call, signal)
      const verdict = interpret(call, exchange, clock.now(), guard)
      gates.learn(verdict, scopes, clock.now())
      const cancelled = exchange.kind === 'cancelled'
      if (!verdict.ok) return { ok: false, failure: verdict, cancelled }
      // A call the answer gave ids: each target's id, or why it has none.
      const { httpStatus, ids, unusable } = verdict
      const end = { attempts, httpStatus, ids, unusable, failure: undefined }
      return { ok: true, value: { end, answered: true, ending: 'purged' } }
    }
    const retried = await withRetries<Settled, Refusal, Stopped>(send, {
      maxAttempts: this.settings.maxAttempts,
      clock,
      signal,
      random,
      gate: () => {
        const stop = gates.refusal(scopes)
        return stop === undefined ? { pauseMs: gates.pauseMs(scopes, clock.now()) } : { stop }
      },
      onRetry: (attempt, refused, waitMs) =>
        log.info(describeRetry(call, attempt, refused.failure, waitMs, guard))
    })
    return retried.ok ? retried.value : failedEnd(retried)
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
