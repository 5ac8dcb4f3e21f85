/** Validation of each thing a user asks to purge: a surrogate key, a URL. Pure. */
import { InputError } from './input-error.js'
import type { Guard } from '../text/guard.js'
import { shorten } from '../text/shown.js'

/** A validated surrogate key: 1 to 1024 bytes of printable ASCII (0x21–0x7E), not wrapped in quotes. */
export type SurrogateKey = string

/** A validated absolute http(s) URL, kept as the user wrote it (the `target` users look up). */
export interface PurgeUrl {
  target: string
  url: URL
  /** Where the PURGE goes: the normalized URL without its fragment, which is never sent. */
  address: string
}

const MAX_KEY_BYTES = 1024
const PRINTABLE_ASCII = /^[\x21-\x7e]+$/

/** Refuses a key the purge API cannot take or would read as another; `source` names its input. */
export function checkKey(key: string, source: string, guard: Guard): void {
  if (!PRINTABLE_ASCII.test(key)) {
    throw new InputError(
      `${source}: key ${shorten(guard, key)} is not allowed: a surrogate key is printable ASCII (0x21–0x7E) only`
    )
  }
  // In keys: '"home" "about"' YAML strips only the outer quotes: the inner ones would be sent as
  // part of each key, which purges nothing tagged home. A lone quote wraps nothing: it stays a key.
  if (/^(["']).*\1$/.test(key)) {
    throw new InputError(
      `${source}: key ${shorten(guard, key)} is wrapped in quotes, which would be purged as part of the key; remove them (keys are separated by spaces, commas or newlines; YAML quotes go around the whole value)`
    )
  }
  // Printable ASCII: one byte per character.
  if (key.length > MAX_KEY_BYTES) {
    throw new InputError(
      `${source}: key ${shorten(guard, key)} is ${key.length} bytes long; a surrogate key is at most ${MAX_KEY_BYTES} bytes`
    )
  }
}

export function isLoopbackHost(hostname: string): boolean {
  return (
    hostname === 'localhost' ||
    hostname === '[::1]' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname)
  )
}

/**
 * The text with everything up to its last "@" hidden, so an error never echoes a password:
 * URL parsers accept credentials in more spellings than `scheme://user:pass@`.
 */
export function withoutCredentials(raw: string): string {
  return raw.replace(/^([a-z][a-z0-9+.-]*:)?.*@/is, '$1***@')
}

/** Parses one absolute http(s) URL; `source` names the input it came from. */
export function parseHttpUrl(raw: string, source: string, guard: Guard): URL {
  if (!URL.canParse(raw)) {
    throw new InputError(
      `${source}: ${shorten(guard, withoutCredentials(raw))} is not an absolute URL; give it with https:// and a host`
    )
  }
  const url = new URL(raw)
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new InputError(
      `${source}: ${shorten(guard, withoutCredentials(raw))} uses ${url.protocol.slice(0, -1)}; only http and https URLs can be purged`
    )
  }
  if (url.username !== '' || url.password !== '') {
    throw new InputError(
      `${source}: ${shorten(guard, withoutCredentials(raw))} embeds credentials (user:password@); remove them`
    )
  }
  return url
}

/** One URL to purge, checked; `source` names the input it came from. */
export function purgeUrl(target: string, source: string, guard: Guard): PurgeUrl {
  const url = parseHttpUrl(target, source, guard)
  return { target, url, address: url.href.replace(/#.*$/s, '') }
}

/** Merges lists, dropping entries already seen, first order kept. */
export function mergeUnique<T>(lists: T[][], identity: (item: T) => string): T[] {
  const merged = new Map<string, T>()
  for (const item of lists.flat()) {
    const id = identity(item)
    if (!merged.has(id)) merged.set(id, item)
  }
  return [...merged.values()]
}
