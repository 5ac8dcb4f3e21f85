/** How outside values read inside a sentence: each a view of the guard, cut by the one rule. */
import { cut } from './cut.js'
import { oneLine, redact } from './guard.js'

/** A server message: long enough for any real explanation, short enough for a results entry. */
const MESSAGE_CHARS = 300

/**
 * Server text on one line, secrets hidden, whitespace runs as one space, cut to `maxChars`. Not
 * escaped: it is a value (a result's `error`), escaped by the guard wherever it is shown.
 */
export function plainLine(message: string, maxChars = MESSAGE_CHARS): string {
  return cut(redact(message).replace(/\s+/g, ' ').trim(), maxChars)
}

/** URLs are the user's, already validated; cut anyway, as all outside text is before the log. */
const URL_CHARS = 200

export function shownUrl(url: string): string {
  return oneLine(url, URL_CHARS)
}

/** Server and user text inside a sentence: long enough to recognise, short enough for a table cell. */
const QUOTED_CHARS = 80

export function quoted(text: string): string {
  return `"${oneLine(text, QUOTED_CHARS)}"`
}

/** A key or URL inside an error message: enough to recognise it, with its length when cut. */
const SHORTENED_CHARS = 60

/**
 * Quoted (as JSON) so that spaces at its ends show, then passed through the guard, which escapes
 * what JSON leaves raw (bidi controls, U+2028) and runner commands.
 */
export function shorten(raw: string): string {
  const value = redact(raw)
  const shown = cut(value, SHORTENED_CHARS)
  const escaped = oneLine(JSON.stringify(shown), Number.POSITIVE_INFINITY)
  return shown === value ? escaped : `${escaped} (${[...value].length} characters)`
}
