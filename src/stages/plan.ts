/** Turns settings into the exact purge calls to send. Pure: no I/O, no token. */
import type { BatchFormat, Service, Settings } from '../config/inputs.js'
import { InputError, shorten, type PurgeUrl, type SurrogateKey } from '../config/targets.js'

export type TargetType = 'all' | 'key' | 'url'

/** One thing the user asked to purge; every target ends in exactly one result. */
export interface Target {
  type: TargetType
  /** The key, the URL as given, or the service id for a purge-all. */
  target: string
}

/** Which spec operation a call is: decides the response shape expected and the permission needed. */
export type Operation = 'purge-all' | 'key' | 'soft-key' | 'batch' | 'url' | 'soft-url'

/** Calls refused with 403 stop the other calls that need the same permission. */
export type Permission = 'engineer' | 'billing' | 'purge' | 'url-purge'

export interface PurgeCall {
  operation: Operation
  method: 'POST' | 'PURGE'
  url: string
  /** Headers besides `Edge-Key`, which the client adds when `authenticated`. */
  headers: Record<string, string>
  body: string | undefined
  authenticated: boolean
  permission: Permission
  /** The service id of a management call; URL purges belong to no service. */
  service: string | undefined
  soft: boolean
  targets: Target[]
}

/** Real servers ignore keys past 16 KiB of `Surrogate-Key` header. */
export const MAX_SURROGATE_KEY_HEADER_BYTES = 16 * 1024

const ACCEPT_JSON = { Accept: 'application/json' }
const SOFT_HEADER = { 'Edge-Soft-Purge': '1' }

export function planPurges(settings: Settings): PurgeCall[] {
  const calls: PurgeCall[] = []
  for (const service of settings.services) {
    if (settings.purgeAll) calls.push(purgeAllCall(service))
    if (settings.keys.length > 0) calls.push(...keyCalls(service, settings))
  }
  calls.push(...settings.urls.map((url) => urlCall(url, settings.soft, settings.urlPurgeAuth)))
  return calls
}

function serviceUrl(service: Service, rest: string): string {
  return `${service.baseUrl}/service/${encodeURIComponent(service.id)}/${rest}`
}

function purgeAllCall(service: Service): PurgeCall {
  return {
    operation: 'purge-all',
    method: 'POST',
    url: serviceUrl(service, 'purge_all'),
    headers: { ...ACCEPT_JSON },
    body: undefined,
    authenticated: true,
    permission: 'engineer',
    service: service.id,
    soft: false,
    targets: [{ type: 'all', target: service.id }]
  }
}

function keyCalls(service: Service, settings: Settings): PurgeCall[] {
  const { keys, soft } = settings
  if (soft) return keys.map((key) => singleKeyCall(service, key, true))
  // A path segment of "." or ".." is resolved away by URL parsing, so such a lone key goes as a batch.
  if (keys.length === 1 && keys[0] !== undefined && !isDotSegment(keys[0])) {
    return [singleKeyCall(service, keys[0], false)]
  }
  return batchKeys(keys, settings.batchSize, settings.batchFormat).map((batch) =>
    batchCall(service, batch, settings.batchFormat)
  )
}

function isDotSegment(key: SurrogateKey): boolean {
  return key === '.' || key === '..'
}

function singleKeyCall(service: Service, key: SurrogateKey, soft: boolean): PurgeCall {
  if (isDotSegment(key)) {
    throw new InputError(
      `keys: key ${shorten(key)} cannot be soft-purged: the soft purge path cannot carry "." or ".." as a key`
    )
  }
  return {
    operation: soft ? 'soft-key' : 'key',
    method: 'POST',
    url: serviceUrl(service, `purge/${encodeURIComponent(key)}`),
    headers: soft ? { ...ACCEPT_JSON, ...SOFT_HEADER } : { ...ACCEPT_JSON },
    body: undefined,
    authenticated: true,
    permission: soft ? 'billing' : 'purge',
    service: service.id,
    soft,
    targets: [{ type: 'key', target: key }]
  }
}

/**
 * Splits keys into batches of at most `size` keys; in header form a batch also stays within
 * the 16 KiB header budget (keys joined by single spaces). Keys are ASCII, so bytes = characters.
 */
export function batchKeys(
  keys: SurrogateKey[],
  size: number,
  format: BatchFormat
): SurrogateKey[][] {
  const batches: SurrogateKey[][] = []
  let current: SurrogateKey[] = []
  let headerBytes = 0
  for (const key of keys) {
    const joinedBytes = current.length === 0 ? key.length : headerBytes + 1 + key.length
    if (
      current.length === size ||
      (format === 'header' && joinedBytes > MAX_SURROGATE_KEY_HEADER_BYTES)
    ) {
      batches.push(current)
      current = [key]
      headerBytes = key.length
    } else {
      current.push(key)
      headerBytes = joinedBytes
    }
  }
  if (current.length > 0) batches.push(current)
  return batches
}

function batchCall(service: Service, keys: SurrogateKey[], format: BatchFormat): PurgeCall {
  const form =
    format === 'json'
      ? {
          headers: { ...ACCEPT_JSON, 'Content-Type': 'application/json' },
          body: JSON.stringify({ surrogate_keys: keys })
        }
      : { headers: { ...ACCEPT_JSON, 'Surrogate-Key': keys.join(' ') }, body: undefined }
  return {
    operation: 'batch',
    method: 'POST',
    url: serviceUrl(service, 'purge'),
    ...form,
    authenticated: true,
    permission: 'purge',
    service: service.id,
    soft: false,
    targets: keys.map((key) => ({ type: 'key', target: key }))
  }
}

function urlCall({ target, address }: PurgeUrl, soft: boolean, authenticated: boolean): PurgeCall {
  return {
    operation: soft ? 'soft-url' : 'url',
    method: 'PURGE',
    url: address,
    headers: soft ? { ...ACCEPT_JSON, ...SOFT_HEADER } : { ...ACCEPT_JSON },
    body: undefined,
    authenticated,
    permission: 'url-purge',
    service: undefined,
    soft,
    targets: [{ type: 'url', target }]
  }
}
