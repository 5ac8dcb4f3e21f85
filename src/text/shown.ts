/** How outside values read inside a sentence: each a view of the run's guard, cut by the one rule. */
import { cut } from './cut.js'
import { escapedLine, type Guard } from './guard.js'

/** A server message: long enough for any real explanation, short enough for a results entry. */
const MESSAGE_CHARS = 300

/**
 * Server text on one line, secrets hidden, whitespace runs as one space, cut to `maxChars`. Not
 * escaped: it is a value (a result's `error`), escaped by the guard wherever it is shown.
 */
export function plainLine(
  guard: Pick<Guard, 'redact'>,
  message: string,
  maxChars = MESSAGE_CHARS
): string {
  return cut(guard.redact(message).replace(/\s+/g, ' ').trim(), maxChars)
}

/** URLs are the user's, already validated; cut anyway, as all outside text is before the log. */
const URL_CHARS = 200

export function shownUrl(guard: Guard, url: string): string {
  return guard.oneLine(url, URL_CHARS)
}

/** Server and user text inside a sentence: long enough to recognise, short enough for a table cell. */
const QUOTED_CHARS = 80

export function quoted(guard: Guard, text: string): string {
  return `"${guard.oneLine(text, QUOTED_CHARS)}"`
}

/** A key or URL inside an error message: enough to recognise it, with its length when cut. */
const SHORTENED_CHARS = 60

/**
 * Quoted (as JSON) so that spaces at its ends show, then escaped where JSON leaves raw (bidi
 * controls, U+2028) and where the runner would read a command.
 */
export function shorten(guard: Guard, raw: string): string {
  const value = guard.redact(raw)
  const shown = cut(value, SHORTENED_CHARS)
  const escaped = escapedLine(JSON.stringify(shown), Number.POSITIVE_INFINITY)
  return shown === value ? escaped : `${escaped} (${[...value].length} characters)`
}
