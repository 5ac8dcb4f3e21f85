/** What one attempt's exchange means for its call: ids, or a failure with a reason a user can act on. Pure. */
import { STATUS_CODES } from 'node:http'
import type { Answer } from '../http/agents.js'
import { MAX_BODY_BYTES } from './transport.js'
import {
  headerValue,
  isRetryableNetworkCode,
  isRetryableStatus,
  serverRequestedWaitMs
} from '../http/retry-policy.js'
import { serverMessage } from './server-message.js'
import { forbidden, notFound, redirected, unauthorized, unreachableBaseUrl } from './refusals.js'
import { blockedWords, reachOf } from '../http/blocked.js'
import { withoutCredentials } from '../config/keys-and-urls.js'
import type { PurgeCall } from '../record/index.js'
import type { Failure, StopScope } from '../record/failure.js'
import type { Guard } from '../text/guard.js'
import { isRecord, parseJson } from '../text/json.js'
import { plainLine } from '../text/shown.js'

export type Verdict =
  | {
      ok: true
      httpStatus: number
      ids: Map<string, string>
      /** Targets whose answer held something other than a usable id: why, for their result. */
      unusable: Map<string, Failure>
    }
  | {
      ok: false
      retryable: boolean
      httpStatus: number | null
      failure: Failure
      waitMs: number | undefined
      /**
       * What a final answer stops (gates.ts): a 401 the calls to that origin, a 403 the calls needing
       * the same permission, a proxy's 407 every call through it, a proxy's 403 or a certificate the host.
       */
      stop: StopScope | undefined
    }

/** A verdict without ids: why, whether another attempt may help, and what it stops. */
export type Refusal = Extract<Verdict, { ok: false }>

/** What a refusal is unless told otherwise: final, asking no wait, stopping nothing. */
const FINAL = { ok: false, retryable: false, waitMs: undefined, stop: undefined } as const

function refusal(httpStatus: number | null, failure: Failure, more?: Partial<Refusal>): Refusal {
  return { ...FINAL, httpStatus, failure, ...more }
}

/** Real ids are about 20 characters: anything else is not an id a user could look up. */
const USABLE_ID = /^[\x21-\x7e]{1,128}$/

/** What the exchange means. Server text is shown through `plainLine`, which hides secrets first. */
export function interpret(call: PurgeCall, exchange: Answer, now: number, guard: Guard): Verdict {
  switch (exchange.kind) {
    case 'cancelled':
      return refusal(null, CANCELLED_IN_FLIGHT)
    case 'timeout':
      return refusal(null, { what: 'timed out', detail: exchange.message }, { retryable: true })
    case 'blocked': {
      const { blocked } = exchange
      const { what, fix } = blockedWords(blocked)
      const failure = { what: plainLine(guard, what), detail: plainLine(guard, fix) }
      return refusal(null, failure, { stop: reachOf(blocked) })
    }
    case 'network': {
      const failure = unreachableBaseUrl(call, exchange.code, guard) ?? {
        what: `connection failed${exchange.code === undefined ? '' : ` (${exchange.code})`}`,
        detail: plainLine(guard, exchange.message)
      }
      return refusal(null, failure, { retryable: isRetryableNetworkCode(exchange.code) })
    }
    case 'response':
      if (exchange.status >= 200 && exchange.status < 300)
        return interpretSuccess(call, exchange, guard)
      return interpretRefusal(call, exchange, now, guard)
  }
}

export const CANCELLED_IN_FLIGHT: Failure = { what: 'cancelled before it was confirmed' }

/** An answer that is a web page: HTML by its Content-Type or by its first character. */
function isWebPage({ headers, body }: Response): boolean {
  const type = headerValue(headers, 'content-type')
  return (type !== undefined && /^\s*text\/html\s*(;|$)/i.test(type)) || /^\s*</.test(body)
}

/** How an unusable id is shown: enough to recognise it, never enough to flood a log. */
function shownValue(value: unknown, guard: Guard): string {
  if (typeof value === 'string') {
    return JSON.stringify(plainLine(guard, value, 60)).replace(
      /[^\x20-\x7e]/g,
      (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`
    )
  }
  if (value === null || typeof value !== 'object') return String(value)
  return Array.isArray(value) ? 'an array' : 'an object'
}

function unusableId(value: unknown, guard: Guard): Failure {
  return { what: `the server's answer held no usable purge id (got ${shownValue(value, guard)})` }
}

type Response = Extract<Answer, { kind: 'response' }>

type Take = (target: string, value: unknown) => void

/**
 * Takes each answered key's value in one walk beside the keys sent, the order servers answer in;
 * `false` if the answer has another order or a key not sent. Neither this nor `takeByTable` looks
 * a target up as a property of the answer: that keeps a second copy of each key.
 */
function takeInOrder(
  json: Record<string, unknown>,
  targets: readonly string[],
  take: Take
): boolean {
  const answered = Object.keys(json)
  let next = 0
  for (const target of targets) {
    const key = answered[next]
    if (key !== target) continue
    take(target, json[key])
    next += 1
  }
  return next === answered.length
}

/** Takes each answered key's value through a table of the answer. */
function takeByTable(json: Record<string, unknown>, targets: readonly string[], take: Take): void {
  const answer = new Map(Object.entries(json))
  for (const target of targets) {
    if (answer.has(target)) take(target, answer.get(target))
  }
}

function interpretSuccess(call: PurgeCall, exchange: Response, guard: Guard): Verdict {
  const { status, body } = exchange
  const read = exchange.truncated ? undefined : readIds(call, status, body, guard)
  if (read !== undefined) return read
  // A website at base-url answers every path with a page: another attempt gets the same page.
  // A call to `base-url`: management calls have a service, URL purges go to the content's host.
  if (call.service !== undefined && isWebPage(exchange)) {
    const origin = plainLine(guard, withoutCredentials(new URL(call.url).origin), 200)
    return refusal(status, {
      what: `base-url ${origin} answered with a web page, not the purge API`,
      detail: "give the purge API's address"
    })
  }
  if (exchange.truncated) {
    return refusal(status, {
      what: `${status} with an answer over ${MAX_BODY_BYTES / 1024 / 1024} MiB, cut off there`,
      detail: "the purge API's answers are far smaller"
    })
  }
  const promised =
    call.operation === 'batch'
      ? 'an object of purge ids'
      : call.operation === 'purge-all'
        ? '{"status":"ok"}'
        : '{"status":"ok","id":...}'
  const start = body.trim() === '' ? 'an empty body' : JSON.stringify(plainLine(guard, body, 120))
  const what = `${status} without the JSON the purge API promises (${promised}); got ${start}`
  return refusal(status, { what }, { retryable: true })
}

/** The call's ids, when the body is the JSON the purge API promises for it. */
function readIds(call: PurgeCall, status: number, body: string, guard: Guard): Verdict | undefined {
  const json = parseJson(body)
  if (!isRecord(json)) return undefined
  const ids = new Map<string, string>()
  const unusable = new Map<string, Failure>()
  const take: Take = (target, value) => {
    if (typeof value === 'string' && USABLE_ID.test(value)) ids.set(target, value)
    else unusable.set(target, unusableId(value, guard))
  }
  if (call.operation === 'batch') {
    // What the walk took, the table takes again with the same values.
    if (!takeInOrder(json, call.targets, take)) takeByTable(json, call.targets, take)
  } else if (json.status !== 'ok') {
    return undefined
  } else if (call.operation !== 'purge-all') {
    const [only] = call.targets
    if (json.id === undefined || only === undefined) return undefined
    take(only, json.id)
  }
  return { ok: true, httpStatus: status, ids, unusable }
}

function interpretRefusal(call: PurgeCall, exchange: Response, now: number, guard: Guard): Verdict {
  const { status } = exchange
  const answered = {
    serverSaid: serverMessage(exchange.body, guard),
    cutOffMiB: exchange.truncated ? MAX_BODY_BYTES / 1024 / 1024 : undefined
  }
  const withServer = (lead: Failure): Failure => ({ ...lead, ...answered })
  const host = new URL(call.url).host

  if (status >= 300 && status < 400) {
    return refusal(status, redirected(status, exchange.headers, guard))
  }
  if (status === 401) {
    return refusal(status, withServer(unauthorized(call, host)), { stop: 'unauthorized' })
  }
  if (status === 403) {
    return refusal(status, withServer(forbidden(call, host)), { stop: 'forbidden' })
  }
  if (status === 404 && call.service !== undefined) {
    return refusal(status, withServer(notFound(call, call.service, guard)))
  }
  const retryable = isRetryableStatus(status)
  const lead =
    status === 429
      ? 'rate limited (429)'
      : `HTTP ${status}${STATUS_CODES[status] ? ` (${STATUS_CODES[status]})` : ''}`
  return refusal(status, withServer({ what: lead }), {
    retryable,
    waitMs: retryable ? serverRequestedWaitMs(status, exchange.headers, now) : undefined
  })
}
