/**
 * What earlier answers decided for the calls not yet sent. The first round of calls goes out at
 * once, each on its own connection, so their handshakes overlap; once an answer shows that going on
 * cannot help, no further call in its scope starts, so each of these costs at most `concurrency`
 * requests:
 * - a rejected token stops the calls to that address that carry it; a 403, those needing the same
 *   permission there;
 * - a proxy's 407 (its credentials) stops every call through that proxy; its 403 (it forbids the
 *   host or port), an untrusted certificate, or a wait longer than edge-purge takes, the calls to
 *   that host;
 * - an outage: calls to one host failing, each after all its attempts, for a transient cause,
 *   `outageAfter` times in a row with no success between, stop the calls to that host.
 * A wait the run does take holds every call to that host until it is over.
 */
import { proxyFor } from '../http/blocked.js'
import { MAX_SERVER_WAIT_MS, waitUntil } from '../http/retry-policy.js'
import type { PurgeCall } from '../record/index.js'
import type { Failure, KnockOn, StopScope } from '../record/failure.js'
import type { Verdict } from './response.js'

/** Why calls are stopped: what stopped them, the answer's failure, and when the server said calls may start again (ms epoch). */
export interface Stopped {
  knockOn: KnockOn
  cause: Failure
  retryAt: number | undefined
}

/** The keys of a call's scopes, computed once per call. */
export type Scopes = Record<StopScope, string>

/** How a call ended, as far as an outage is concerned. */
export type Ending = 'purged' | 'transient' | 'other'

/** An outage takes at least this many failures in a row, however low `concurrency` is. */
const MIN_OUTAGE_FAILURES = 3

export function scopesOf(call: PurgeCall): Scopes {
  const url = new URL(call.url)
  return {
    unauthorized: `${url.origin} ${String(call.authenticated)}`,
    forbidden: `${url.origin} ${call.permission} ${call.service ?? ''}`,
    host: url.origin,
    proxy: proxyFor(url) ?? url.origin
  }
}

/**
 * A failure when the server asks for a wait the run will not take. The time itself goes into the
 * result's `retry_at`: a cause holds nothing that differs between calls of one cause.
 */
export function tooLongToWait(failure: Failure): Failure {
  return { ...failure, waitOverS: MAX_SERVER_WAIT_MS / 1000 }
}

export class Gates {
  /** By scope kind and key: what stopped the calls in it. */
  private readonly stops = new Map<string, Stopped>()
  /** By host: no attempt starts before this time (ms epoch). */
  private readonly notBefore = new Map<string, number>()
  /** By host: calls ended failed for a transient cause since the last success. */
  private readonly failedInARow = new Map<string, number>()

  /** Calls failed in a row that make an outage: the first round's worth, at least the minimum. */
  private readonly outageAfter: number

  constructor(concurrency: number) {
    this.outageAfter = Math.max(concurrency, MIN_OUTAGE_FAILURES)
  }

  /** Why a call must not be sent, if an earlier answer already decided its fate. */
  refusal(scopes: Scopes): Stopped | undefined {
    for (const scope of ['unauthorized', 'forbidden', 'host', 'proxy'] as const) {
      const stopped = this.stops.get(`${scope} ${scopes[scope]}`)
      if (stopped !== undefined) return stopped
    }
    return undefined
  }

  /** How long the next attempt must wait for the host's rate limit; 0 when it may go now. */
  pauseMs(scopes: Scopes, now: number): number {
    return Math.max(0, (this.notBefore.get(scopes.host) ?? 0) - now)
  }

  /** Learns from one attempt's verdict. */
  learn(verdict: Verdict, scopes: Scopes, now: number): void {
    if (verdict.ok) return
    if (verdict.stop !== undefined) this.stop(verdict.stop, scopes, verdict.failure, undefined)
    const { waitMs } = verdict
    if (waitMs === undefined) return
    if (waitMs <= MAX_SERVER_WAIT_MS) {
      this.notBefore.set(scopes.host, Math.max(this.notBefore.get(scopes.host) ?? 0, now + waitMs))
    } else {
      this.stop('host', scopes, tooLongToWait(verdict.failure), waitUntil(waitMs, now))
    }
  }

  /** Learns from how a call ended: failures in a row for a transient cause make an outage. */
  ended(scopes: Scopes, ending: Ending, failure: Failure | undefined): void {
    if (ending === 'purged') this.failedInARow.set(scopes.host, 0)
    if (ending !== 'transient') return
    const failures = (this.failedInARow.get(scopes.host) ?? 0) + 1
    this.failedInARow.set(scopes.host, failures)
    const key = `host ${scopes.host}`
    if (failures >= this.outageAfter && failure !== undefined && !this.stops.has(key)) {
      const knockOn: KnockOn = { scope: 'outage', host: new URL(scopes.host).host, failures }
      this.stops.set(key, { knockOn, cause: failure, retryAt: undefined })
    }
  }

  private stop(scope: StopScope, scopes: Scopes, cause: Failure, retryAt: number | undefined) {
    const key = `${scope} ${scopes[scope]}`
    if (!this.stops.has(key)) this.stops.set(key, { knockOn: { scope }, cause, retryAt })
  }
}
