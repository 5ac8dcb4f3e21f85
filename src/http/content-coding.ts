/** How a page's `Content-Encoding` is undone: which codings it lists, and the decoders that undo them. */
import type { Transform } from 'node:stream'
import * as zlib from 'node:zlib'
import type { Guard } from '../text/guard.js'

export type Coding = 'gzip' | 'deflate' | 'br'

/** The codings a page lists, in the order they were applied, or why edge-purge will not undo them. */
export type Codings = { kind: 'codings'; codings: Coding[] } | { kind: 'refused'; reason: string }

/**
 * More layers than any server applies on purpose: each one is a decoder and a buffer, and a list
 * of hundreds would cost the runner more than the page is worth.
 */
const MAX_CODINGS = 4

/** A coding name or a header shown inside a reason: enough to recognise it. */
const SHOWN_CODING_CHARS = 40

/**
 * `x-gzip` is the old name of gzip (RFC 9110 §8.4.1.3); names are case-insensitive. A Map, so a
 * server's `constructor` or `__proto__` is an unknown coding, not a property every object has.
 */
const NAMES = new Map<string, Coding>([
  ['gzip', 'gzip'],
  ['x-gzip', 'gzip'],
  ['deflate', 'deflate'],
  ['br', 'br']
])

/**
 * The codings of a `Content-Encoding` value, in the order applied (RFC 9110 §8.4). `identity` and
 * empty list elements add no layer; an unknown coding, or more than `MAX_CODINGS`, is refused.
 */
export function codingsOf(header: string | undefined, guard: Guard): Codings {
  const names = (header ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '' && name !== 'identity')
  const unknown = names.find((name) => !NAMES.has(name))
  const codings = names.flatMap((name) => NAMES.get(name) ?? [])
  if (unknown === undefined && codings.length <= MAX_CODINGS) return { kind: 'codings', codings }
  // The coding edge-purge does not know, or else the whole list that holds too many.
  const shown = guard.oneLine(unknown ?? header ?? '', SHOWN_CODING_CHARS)
  const reason =
    unknown === undefined
      ? `Content-Encoding "${shown}" lists ${codings.length} codings; edge-purge decodes at most ${MAX_CODINGS}`
      : `Content-Encoding "${shown}" is not one edge-purge can decode`
  return { kind: 'refused', reason }
}

/**
 * Lenient flushing, as browsers are: a body cut short still yields the text decoded so far
 * instead of an error.
 */
function decoderOf(coding: Coding): Transform {
  switch (coding) {
    case 'gzip':
      return zlib.createGunzip({ finishFlush: zlib.constants.Z_SYNC_FLUSH })
    case 'deflate':
      return zlib.createInflate({ finishFlush: zlib.constants.Z_SYNC_FLUSH })
    case 'br':
      return zlib.createBrotliDecompress({ finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH })
  }
}

/** The decoders to pipe the body through, in order: the last coding applied is undone first. */
export function decodersFor(codings: Coding[]): Transform[] {
  return [...codings].reverse().map(decoderOf)
}
