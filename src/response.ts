/** What one attempt's exchange means for its call: ids, or a failure with a reason a user can act on. Pure. */
import { STATUS_CODES } from 'node:http'
import type { Exchange } from './client.js'
import type { PurgeCall } from './plan.js'
import {
  headerValue,
  isRetryableNetworkCode,
  isRetryableStatus,
  serverRequestedWaitMs
} from './retry-policy.js'
import { cut, parseJson, serverMessage } from './server-message.js'
import { withoutCredentials } from './targets.js'

/** A 401 stops every call to that origin; a 403 stops the calls needing the same permission. */
export type Stop = 'unauthorized' | 'forbidden'

export type Verdict =
  | { ok: true; httpStatus: number; ids: Map<string, string> }
  | {
      ok: false
      retryable: boolean
      httpStatus: number | null
      message: string
      waitMs: number | undefined
      stop: Stop | undefined
    }

type Failure = Extract<Verdict, { ok: false }>

function failure(fields: Pick<Failure, 'httpStatus' | 'message'> & Partial<Failure>): Failure {
  return { ok: false, retryable: false, waitMs: undefined, stop: undefined, ...fields }
}

export function interpret(call: PurgeCall, exchange: Exchange, now: number): Verdict {
  switch (exchange.kind) {
    case 'timeout':
      return failure({
        httpStatus: null,
        retryable: true,
        message: `timed out: ${exchange.message}`
      })
    case 'network':
      return failure({
        httpStatus: null,
        retryable: isRetryableNetworkCode(exchange.code),
        message: `connection failed${exchange.code === undefined ? '' : ` (${exchange.code})`}: ${exchange.message}`
      })
    case 'response':
      if (exchange.status >= 200 && exchange.status < 300)
        return interpretSuccess(call, exchange.status, exchange.body)
      return interpretRefusal(call, exchange, now)
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function isId(value: unknown): value is string {
  return typeof value === 'string' && value !== ''
}

function interpretSuccess(call: PurgeCall, status: number, body: string): Verdict {
  const json = parseJson(body)
  const ids = new Map<string, string>()
  if (isRecord(json)) {
    if (call.operation === 'batch') {
      for (const { target } of call.targets) {
        const id = json[target]
        if (isId(id)) ids.set(target, id)
      }
      return { ok: true, httpStatus: status, ids }
    }
    if (json.status === 'ok' && call.operation === 'purge-all')
      return { ok: true, httpStatus: status, ids }
    const [only] = call.targets
    if (json.status === 'ok' && isId(json.id) && only !== undefined) {
      ids.set(only.target, json.id)
      return { ok: true, httpStatus: status, ids }
    }
  }
  const promised =
    call.operation === 'batch'
      ? 'an object of purge ids'
      : call.operation === 'purge-all'
        ? '{"status":"ok"}'
        : '{"status":"ok","id":...}'
  const start = body.trim() === '' ? 'an empty body' : JSON.stringify(cut(body, 120))
  return failure({
    httpStatus: status,
    retryable: true,
    message: `${status} without the JSON the purge API promises (${promised}); got ${start}`
  })
}

function interpretRefusal(
  call: PurgeCall,
  exchange: Extract<Exchange, { kind: 'response' }>,
  now: number
): Verdict {
  const { status } = exchange
  const said = serverMessage(exchange.body)
  const withServer = (lead: string): string =>
    said === undefined ? lead : `${lead} — server said: ${said}`
  const host = new URL(call.url).host

  if (status >= 300 && status < 400) {
    const location = headerValue(exchange.headers, 'location')
    const where =
      location === undefined ? 'without a Location' : `to ${withoutCredentials(location)}`
    return failure({
      httpStatus: status,
      message: `redirected (${status}) ${where}: purge calls do not follow redirects, so the token and the purge never go elsewhere; use the final address`
    })
  }
  if (status === 401) {
    return failure({
      httpStatus: status,
      stop: 'unauthorized',
      message: withServer(
        call.authenticated
          ? '401: the API token was rejected: check the secret behind api-token'
          : `401: ${host} requires authentication for URL purges: set url-purge-auth: true to send api-token`
      )
    })
  }
  if (status === 403) {
    return failure({
      httpStatus: status,
      stop: 'forbidden',
      message: withServer(forbiddenMessage(call, host))
    })
  }
  if (status === 404 && call.service !== undefined) {
    return failure({
      httpStatus: status,
      message: withServer(`service ${call.service} not found (404)`)
    })
  }
  const retryable = isRetryableStatus(status)
  const lead =
    status === 429
      ? 'rate limited (429)'
      : `HTTP ${status}${STATUS_CODES[status] ? ` (${STATUS_CODES[status]})` : ''}`
  return failure({
    httpStatus: status,
    retryable,
    waitMs: retryable ? serverRequestedWaitMs(status, exchange.headers, now) : undefined,
    message: withServer(lead)
  })
}

function forbiddenMessage(call: PurgeCall, host: string): string {
  switch (call.permission) {
    case 'engineer':
      return 'purge-all was refused (403): the token needs Engineer permission or higher'
    case 'billing':
      return 'soft purge was refused (403): the token needs Billing permission or higher'
    case 'purge':
      return `key purge was refused (403): the token may not purge service ${call.service ?? ''}`
    case 'url-purge':
      return `URL purge was refused (403) by ${host}: URL purging may not be enabled there (it is off by default), or it needs url-purge-auth: true`
  }
}
