/**
 * The purge API's request rules, shared by the two test servers that implement them: the
 * spec-strict fake (`server.ts`) and the management API in front of a real Varnish
 * (`e2e/testbed/purge-api.ts`). Pure functions: a management request goes in, and out comes either
 * the refusal to answer or the operation to perform, which each server carries out its own way.
 */
import type { IncomingHttpHeaders } from 'node:http'

/** Permission levels named by the spec, lowest first. */
export type Role = 'purge' | 'billing' | 'engineer'
export const RANK: Record<Role, number> = { purge: 0, billing: 1, engineer: 2 }

/** An answer: a JSON body unless `body` is a string, which is sent as it is. */
export type Reply = { status: number; body: unknown; headers?: Record<string, string> }

export const json = (status: number, body: unknown): Reply => ({ status, body })
export const error = (status: number, msg: string, detail?: string): Reply =>
  json(status, detail === undefined ? { msg } : { msg, detail })

export const MAX_BATCH = 256
export const MAX_HEADER_BYTES = 16 * 1024

/** What the rules read of a request. */
export interface ManagementRequest {
  method: string
  /** The raw request target, percent-encoding kept. */
  path: string
  headers: IncomingHttpHeaders
  body: string
}

export interface PurgeApiRules {
  /** Token → role. */
  tokens: Readonly<Record<string, Role>>
  /** Known service ids. */
  services: readonly string[]
  /**
   * A `?` in the service id or the key finds no route (404), as a query string would. Without it,
   * the `?` is part of the id or key.
   */
  queryFindsNoRoute?: boolean
  /**
   * An empty key is refused: an empty Surrogate-Key header, or `""` in `surrogate_keys`. Without
   * it, such a key is purged like any other.
   */
  refuseEmptyKeys?: boolean
}

/** An accepted management request: what to purge. */
export type Operation =
  | { kind: 'purge-all'; service: string }
  | { kind: 'key' | 'soft-key'; service: string; key: string }
  | { kind: 'batch'; service: string; keys: string[] }

export interface Refusal {
  kind: 'refused'
  reply: Reply
}

const ROUTE = /^\/service\/([^/]+)\/(purge_all|purge|purge\/([^/]+))$/
const ROUTE_BEFORE_QUERY = /^\/service\/([^/?]+)\/(purge_all|purge|purge\/([^/?]+))$/

/** The role of the request's Edge-Key token; undefined when it is missing or unknown. */
export function roleOf(
  headers: IncomingHttpHeaders,
  tokens: Readonly<Record<string, Role>>
): Role | undefined {
  const token = headers['edge-key']
  return typeof token === 'string' ? tokens[token] : undefined
}

export const unauthorized = (): Reply => error(401, 'Provided credentials are missing or invalid')

/** Whether a soft purge is asked for, or the refusal of an Edge-Soft-Purge header other than `1`. */
export function softPurge(headers: IncomingHttpHeaders): boolean | Reply {
  const header = headers['edge-soft-purge']
  if (header !== undefined && header !== '1') return error(400, 'Edge-Soft-Purge must be 1')
  return header !== undefined
}

/**
 * Checks a request to the management API (`POST /service/{id}/purge_all`, `/purge/{key}` or
 * `/purge`) in this order: route, method, Edge-Key, Accept, Edge-Soft-Purge, service, then what the
 * operation itself requires (role, body, keys). Throws URIError on a malformed percent-encoding.
 */
export function parseManagementRequest(
  request: ManagementRequest,
  rules: PurgeApiRules
): Operation | Refusal {
  const refuse = (reply: Reply): Refusal => ({ kind: 'refused', reply })
  const route = rules.queryFindsNoRoute === true ? ROUTE_BEFORE_QUERY : ROUTE
  const match = route.exec(request.path)
  if (match === null)
    return refuse(error(404, 'Not found', `No route for ${request.method} ${request.path}`))
  if (request.method !== 'POST') return refuse(error(405, 'Method not allowed'))
  const role = roleOf(request.headers, rules.tokens)
  if (role === undefined) return refuse(unauthorized())
  if (request.headers.accept !== 'application/json')
    return refuse(error(406, 'Accept: application/json is required'))
  const soft = softPurge(request.headers)
  if (typeof soft !== 'boolean') return refuse(soft)
  const service = decodeURIComponent(match[1] ?? '')
  if (!rules.services.includes(service))
    return refuse(error(404, 'Record not found', 'Cannot find service'))

  if (match[2] === 'purge_all') {
    if (soft) return refuse(error(400, 'Bad request', 'purge_all cannot be soft'))
    if (RANK[role] < RANK.engineer)
      return refuse(error(403, 'Forbidden', 'Engineer permission required'))
    if (request.body !== '') return refuse(error(400, 'Bad request', 'purge_all takes no body'))
    return { kind: 'purge-all', service }
  }
  if (match[3] !== undefined) {
    if (soft && RANK[role] < RANK.billing)
      return refuse(error(403, 'Forbidden', 'Billing permission required'))
    if (request.body !== '')
      return refuse(error(400, 'Bad request', 'single-key purge takes no body'))
    return { kind: soft ? 'soft-key' : 'key', service, key: decodeURIComponent(match[3]) }
  }
  if (soft) return refuse(error(400, 'Bad request', 'the batch purge has no soft form'))
  const keys = batchKeys(request, rules)
  return Array.isArray(keys) ? { kind: 'batch', service, keys } : refuse(keys)
}

/** The keys of a batch purge, from the Surrogate-Key header or the JSON body's `surrogate_keys`. */
function batchKeys(request: ManagementRequest, rules: PurgeApiRules): string[] | Reply {
  const refuseEmpty = rules.refuseEmptyKeys === true
  const header = request.headers['surrogate-key']
  let keys: string[]
  if (typeof header === 'string') {
    if (request.body !== '')
      return error(400, 'Bad request', 'give keys in a header or a body, not both')
    if (Buffer.byteLength(header) > MAX_HEADER_BYTES)
      return error(400, 'Bad request', 'Surrogate-Key header over 16 KiB')
    if ((refuseEmpty && header === '') || /^ | $| {2}/.test(header))
      return error(400, 'Bad request', 'keys are separated by single spaces')
    keys = header.split(' ')
  } else {
    if (request.headers['content-type'] !== 'application/json')
      return error(415, 'Unsupported media type', 'Content-Type: application/json is required')
    let parsed: unknown
    try {
      parsed = JSON.parse(request.body)
    } catch {
      return error(400, 'Bad request', 'body is not JSON')
    }
    const list = (parsed as { surrogate_keys?: unknown } | null)?.surrogate_keys
    if (
      !Array.isArray(list) ||
      list.length === 0 ||
      !list.every((key) => typeof key === 'string' && !(refuseEmpty && key === ''))
    )
      return error(400, 'Bad request', 'surrogate_keys must be a non-empty array of strings')
    keys = list as string[]
  }
  if (keys.length > MAX_BATCH)
    return error(
      400,
      'Bad request',
      'Batch surrogate key request only supports up to 256 surrogate keys'
    )
  return keys
}
