/** Pulls the human message out of an error body, whatever shape the server chose. Pure. */
import type { Guard } from '../text/guard.js'
import { isRecord, parseJson } from '../text/json.js'
import { plainLine } from '../text/shown.js'

/** How deep `errors` may nest before we stop looking: real APIs use one level; a hostile one, thousands. */
const MAX_ERRORS_DEPTH = 3
/** Enough messages to explain any real failure, few enough that a hostile list costs nothing. */
const MAX_MESSAGES = 20

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined
}

/** Messages of a JSON error: `msg`/`detail`/`details`, problem+json `title`/`detail`, JSON:API `errors`. */
function messagesOf(json: unknown, depth = 0): string[] {
  if (!isRecord(json)) return []
  const own = ['msg', 'message', 'title', 'detail', 'details', 'error'].map((field) =>
    text(json[field])
  )
  const errors =
    Array.isArray(json.errors) && depth < MAX_ERRORS_DEPTH ? json.errors.slice(0, MAX_MESSAGES) : []
  const nested = errors.flatMap((error) => messagesOf(error, depth + 1))
  const plain = errors.map(text)
  return [...own, ...nested, ...plain]
    .filter((message): message is string => message !== undefined)
    .slice(0, MAX_MESSAGES)
}

/** The server's own words, secrets hidden and cut, or `undefined` when the body says nothing. */
export function serverMessage(body: string, guard: Guard): string | undefined {
  const json = parseJson(body)
  const messages = json === undefined ? [] : [...new Set(messagesOf(json))]
  if (messages.length > 0) return plainLine(guard, messages.join(': '))
  const plain = body.trim()
  if (plain === '' || json !== undefined) return undefined
  // Hidden before the tags are dropped: a tag inside a secret's spelling must not split it.
  return plainLine(guard, guard.redact(plain).replace(/<[^>]*>/g, ' '))
}
