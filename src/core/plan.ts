/** Turns settings into the exact purge calls to send (pure: no I/O, no token), and says what a dry run would do. */
import { counted } from '../text/counted.js'
import type { Guard } from '../text/guard.js'
import { InputError } from '../config/input-error.js'
import type { PurgeUrl, SurrogateKey } from '../config/keys-and-urls.js'
import type { StepLog } from '../log.js'
import { type PlannedStage, type PurgeCall, type Results } from '../record/index.js'
import { describeCall } from '../record/words.js'
import type { BatchFormat, PurgeTargets, Service, Settings } from '../config/settings.js'

/** Real servers ignore keys past 16 KiB of `Surrogate-Key` header. */
const MAX_SURROGATE_KEY_HEADER_BYTES = 16 * 1024

const ACCEPT_JSON = { Accept: 'application/json' }
const SOFT_HEADER = { 'Edge-Soft-Purge': '1' }

/** What the plan is made of: the targets, and the settings that say how they are sent. */
type PlanInput = PurgeTargets &
  Pick<Settings, 'services' | 'purgeAll' | 'soft' | 'batchFormat' | 'batchSize' | 'urlPurgeAuth'>

export function planPurges(settings: PlanInput): PurgeCall[] {
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
  return serviceCall(service, {
    operation: 'purge-all',
    url: serviceUrl(service, 'purge_all'),
    permission: 'engineer',
    targetType: 'all',
    targets: [service.id]
  })
}

/** A call to the purge API for `service`: a POST with the token, `Accept: application/json`. */
function serviceCall(
  service: Service,
  call: Pick<PurgeCall, 'operation' | 'url' | 'permission' | 'targetType' | 'targets'> &
    Partial<PurgeCall>
): PurgeCall {
  return {
    method: 'POST',
    headers: { ...ACCEPT_JSON },
    body: undefined,
    authenticated: true,
    service: service.id,
    soft: false,
    ...call
  }
}

function keyCalls(service: Service, settings: PlanInput): PurgeCall[] {
  const { keys, soft } = settings
  if (soft) return keys.map((key) => singleKeyCall(service, key, true))
  // A path segment of "." or ".." is resolved away by URL parsing, so such a lone key goes as a batch.
  if (keys.length === 1 && keys[0] !== undefined && !isDotSegment(keys[0])) {
    return [singleKeyCall(service, keys[0], false)]
  }
  return batchKeys(keys, settings.batchSize, settings.batchFormat).map((range) =>
    batchCall(service, keys, range, settings.batchFormat)
  )
}

function isDotSegment(key: SurrogateKey): boolean {
  return key === '.' || key === '..'
}

function singleKeyCall(service: Service, key: SurrogateKey, soft: boolean): PurgeCall {
  if (isDotSegment(key)) {
    throw new InputError(
      `keys: key ${JSON.stringify(key)} cannot be soft-purged: the soft purge path cannot carry "." or ".." as a key`
    )
  }
  return serviceCall(service, {
    operation: soft ? 'soft-key' : 'key',
    url: serviceUrl(service, `purge/${encodeURIComponent(key)}`),
    headers: soft ? { ...ACCEPT_JSON, ...SOFT_HEADER } : { ...ACCEPT_JSON },
    permission: soft ? 'billing' : 'purge',
    soft,
    targetType: 'key',
    targets: [key]
  })
}

/**
 * Splits keys into batches of at most `size` keys, each given as where it starts and ends in
 * `keys`; in header form a batch also stays within the 16 KiB header budget (keys joined by single
 * spaces). Keys are ASCII, so bytes = characters.
 */
export function batchKeys(
  keys: SurrogateKey[],
  size: number,
  format: BatchFormat
): [start: number, end: number][] {
  const batches: [number, number][] = []
  let start = 0
  // The batch's keys joined by single spaces: the first key comes without one.
  let headerBytes = -1
  for (const [index, key] of keys.entries()) {
    headerBytes += 1 + key.length
    if (
      index - start === size ||
      (format === 'header' && headerBytes > MAX_SURROGATE_KEY_HEADER_BYTES)
    ) {
      batches.push([start, index])
      start = index
      headerBytes = key.length
    }
  }
  if (keys.length > start) batches.push([start, keys.length])
  return batches
}

/** A batch of keys, in the JSON body or the `Surrogate-Key` header as `format` says. */
function batchCall(
  service: Service,
  keys: SurrogateKey[],
  [start, end]: [number, number],
  format: BatchFormat
): PurgeCall {
  const batch = keys.slice(start, end)
  return serviceCall(service, {
    operation: 'batch',
    url: serviceUrl(service, 'purge'),
    headers:
      format === 'json'
        ? { ...ACCEPT_JSON, 'Content-Type': 'application/json' }
        : { ...ACCEPT_JSON, 'Surrogate-Key': batch.join(' ') },
    body: format === 'json' ? JSON.stringify({ surrogate_keys: batch }) : undefined,
    permission: 'purge',
    targetType: 'key',
    targets: batch
  })
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
    targetType: 'url',
    targets: [target]
  }
}

/** A dry run's results; with `repeat-after`, the second pass is planned too. */
export function plannedResults(calls: PurgeCall[], repeated: boolean): Results {
  const repeat = repeated ? { repeat: { status: 'planned' as const, id: null, attempts: 0 } } : {}
  return calls.flatMap((call) =>
    call.targets.map((target) => ({
      type: call.targetType,
      target,
      service: call.service ?? null,
      soft: call.soft,
      status: 'planned' as const,
      id: null,
      http_status: null,
      attempts: 0,
      error: null,
      failure: null,
      ...repeat
    }))
  )
}

/** The plan in one line: how many calls of which kind, for how many targets, on which services. */
export function describePlan(calls: PurgeCall[], settings: Settings, guard: Guard): string {
  const targets = calls.reduce((sum, call) => sum + call.targets.length, 0)
  const ids = settings.services.map((service) => service.id)
  const service =
    ids.length === 0
      ? ''
      : ` on service${ids.length === 1 ? '' : 's'} ${guard.oneLine(ids.join(', '))}`
  if (settings.purgeAll) {
    return `Planned ${counted(calls.length, 'purge-all call')}: everything in${service.replace(/^ on/, '')}`
  }
  const kind = settings.soft ? 'soft' : 'instant'
  return `Planned ${counted(calls.length, `${kind} purge call`)} for ${counted(targets, 'target')}${service}`
}

/** URLs are the user's own, validated: shown whole up to a length no real URL reaches. */
const SHOWN_URL_CHARS = 2000

/** A dry run's log: every call it would send, the repeat, then what the later stages would do. */
export async function showDryRun(
  calls: PurgeCall[],
  repeatAfterMs: number,
  plannedStages: PlannedStage[],
  { log, guard }: { log: StepLog; guard: Guard }
): Promise<void> {
  await log.group(`Dry run: ${counted(calls.length, 'planned call')}, none sent`, async () => {
    for (const call of calls) log.info(describeCall(call, guard))
    if (repeatAfterMs > 0) {
      log.info(`…then the same calls again after ${repeatAfterMs / 1000} s (repeat-after)`)
    }
    for (const { sentence, urls } of plannedStages) {
      log.info(sentence)
      for (const url of urls) log.info(`• ${guard.oneLine(url, SHOWN_URL_CHARS)}`)
    }
  })
}
