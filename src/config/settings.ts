/** Settings: what the user asked for, validated, with every field documented. Read by every stage. */
import type { KeyMapping, UrlMapping } from './maps.js'
import type { PurgeUrl, SurrogateKey } from './keys-and-urls.js'

export type BatchFormat = 'json' | 'header'

/** Where targets come from when `changed-files` is on: the maps and the range to compare. */
export interface ChangedFilesSettings {
  urlMap: UrlMapping[]
  keyMap: KeyMapping[]
  /**
   * The commit, branch or tag `changed-since` gave, for when the event's own range cannot be used;
   * undefined when none was given, and with `last-purge`, whose bases are purge marks.
   */
  changedSince: string | undefined
}

/**
 * `changed-since: last-purge`: the base is each service's last complete purge, kept on GitHub as a
 * deployment (its purge mark), and a complete run marks one.
 */
export interface LastPurgeSettings {
  /** The services whose purge marks are read and written: the environment is `edge-purge/<id>`. */
  serviceIds: string[]
}

/** The service whose cache the management calls purge. */
export interface Service {
  id: string
  /** `base-url` without a trailing slash, so paths can be appended. */
  baseUrl: string
}

/**
 * What a run purges besides a whole service: the keys and URLs given, with those its changed files
 * derived. The settings keep what the inputs said; the changed-files stage makes this.
 */
export interface PurgeTargets {
  keys: SurrogateKey[]
  urls: PurgeUrl[]
}

/**
 * What the inputs say, parsed; it never changes during a run. It holds no token: the runner door
 * hands the tokens to the connections that use them.
 */
export interface Settings extends PurgeTargets {
  /** Empty when only URLs are purged: URL purges do not use the management address. */
  services: Service[]
  purgeAll: boolean
  soft: boolean
  batchFormat: BatchFormat
  batchSize: number
  concurrency: number
  maxAttempts: number
  timeoutMs: number
  urlPurgeAuth: boolean
  dryRun: boolean
  summary: boolean
  failOnError: boolean
  /** Wait before purging everything a second time; 0 when off. */
  repeatAfterMs: number
  /** Present when targets are also derived from the files this run's commits changed. */
  changedFiles?: ChangedFilesSettings | undefined
  /** Present with `changed-since: last-purge`. */
  lastPurge?: LastPurgeSettings | undefined
  /** Present when the purge waits until the origin serves the release. */
  wait?: WaitSettings | undefined
  /** Present when the run checks pages at the edge after the purge. */
  edgeCheck?: EdgeCheckSettings | undefined
}

/** Before any purge call: each URL must show `text` (or answer 2xx) `passes` checks in a row. */
export interface WaitSettings {
  urls: string[]
  text: string | undefined
  passes: number
  timeoutMs: number
}

/** After the purge: which URLs are fetched through the CDN to prove them fresh. */
export interface EdgeCheckSettings {
  /** Whether the purged URL targets are checked too (`verify: true`). */
  purgedUrls: boolean
  urls: string[]
  /** What each of `urls` must show; `undefined`: judged by `Age`. */
  text: string | undefined
  timeoutMs: number
  /** Whether the files each HTML page loads are checked too (`verify-assets: true`). */
  assets: boolean
}
