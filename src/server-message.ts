/** Pulls the human message out of an error body, whatever shape the server chose. Pure. */

const MAX_MESSAGE_CHARS = 300

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined
}

/** Messages of a JSON error: `msg`/`detail`/`details`, problem+json `title`/`detail`, JSON:API `errors`. */
function messagesOf(json: unknown): string[] {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return []
  const record = json as Record<string, unknown>
  const own = ['msg', 'message', 'title', 'detail', 'details', 'error'].map((field) =>
    text(record[field])
  )
  const nested = Array.isArray(record.errors) ? record.errors.flatMap(messagesOf) : []
  const plain = Array.isArray(record.errors) ? record.errors.map(text) : []
  return [...own, ...nested, ...plain].filter((message): message is string => message !== undefined)
}

export function cut(message: string, max = MAX_MESSAGE_CHARS): string {
  const oneLine = message.replace(/\s+/g, ' ').trim()
  return oneLine.length > max ? `${oneLine.slice(0, max)}…` : oneLine
}

export function parseJson(body: string): unknown {
  try {
    return JSON.parse(body) as unknown
  } catch {
    return undefined
  }
}

/** The server's own words, or `undefined` when the body says nothing. */
export function serverMessage(body: string): string | undefined {
  const json = parseJson(body)
  const messages = json === undefined ? [] : [...new Set(messagesOf(json))]
  if (messages.length > 0) return cut(messages.join(': '))
  const plain = body.trim()
  if (plain === '' || json !== undefined) return undefined
  return cut(plain.replace(/<[^>]*>/g, ' '))
}
