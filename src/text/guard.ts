/**
 * The one guard for text from outside (file names, keys and URLs as echoed, server messages, ids):
 * what it returns holds no secret, cannot break a log line, speak to the runner, or become markup
 * in the summary. It hides the secrets before it cuts or escapes anything, so no cut can leave a
 * piece of a secret in view and no escape can hide one from the redactor.
 */
import { redactor, type Redact } from './secrets.js'

/**
 * The secrets to hide, registered once at the start as `core.setSecret` registers them with the
 * runner: every helper below hides them first, so no caller can cut or escape before redacting.
 */
let registered: Redact = (text) => text

/** Hides these secrets (and only these) in everything the guard returns from now on. */
export function hideSecrets(secrets: readonly string[]): void {
  registered = redactor(secrets)
}

/** The text with every spelling of the registered secrets replaced by `***`; nothing cut. */
export function redact(text: string): string {
  return registered(text)
}

/** Line breaks of every kind, other controls, bidi controls and lone surrogates: shown as escapes. */
const HIDDEN = /[\p{Cc}\p{Zl}\p{Zp}\p{Bidi_Control}\p{Cs}]/u
const SPACE = /\s/u

function escaped(char: string): string {
  if (char === '\n') return '\\n'
  if (char === '\r') return '\\r'
  return `\\u${(char.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`
}

/** A run of whitespace, tab included, shown as one space; every other hidden character escaped. */
function isSpace(char: string): boolean {
  return char === '\t' || (SPACE.test(char) && !HIDDEN.test(char))
}

/**
 * The runner obeys `::name::` at a line's start (after spaces) and the legacy `##[name]` anywhere in
 * a line, so a leading `:` and a `[` after `##` are escaped: one character each keeps the text readable.
 */
function shown(char: string, before: string[], spaceBefore: boolean): string {
  if (HIDDEN.test(char)) return escaped(char)
  if (char === ':' && before.length === 0) return escaped(char)
  const afterHashes = !spaceBefore && before.at(-1) === '#' && before.at(-2) === '#'
  if (char === '[' && afterHashes) return escaped(char)
  return char
}

/** For log lines and annotations: one line, cut to `maxChars` with `…`, never a runner command. */
export function oneLine(text: string, maxChars = 300): string {
  const pieces: string[] = []
  let length = 0
  let spaceBefore = false
  for (const char of redact(text)) {
    if (isSpace(char)) {
      spaceBefore = pieces.length > 0
      continue
    }
    const piece = shown(char, pieces, spaceBefore)
    const added = (spaceBefore ? 1 : 0) + piece.length
    if (length + added > maxChars) return `${pieces.join('')}…`
    if (spaceBefore) pieces.push(' ')
    pieces.push(piece)
    length += added
    spaceBefore = false
  }
  return pieces.join('')
}

const HTML_ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;'
}

/**
 * Everything CommonMark, GFM or GitHub's math could read as syntax inside a line: code spans,
 * emphasis, strikethrough, links and images, tables, headings, backslash escapes, `$` math, and the
 * autolinks (`scheme:`, `www.`, `user@host`). A character reference is never syntax.
 */
const INLINE_SYNTAX = /[&<>"'\\`*_~[\]()!|#:@$]|(?<=www)\./gi
/** What starts a block only at a line's start: list items, setext underlines, `1.` lists. */
const BLOCK_START = /^(?:[-+=]|\d+\.)/

function reference(char: string): string {
  return HTML_ENTITIES[char] ?? `&#${char.codePointAt(0) ?? 0};`
}

/**
 * For the job summary (raw HTML that GitHub renders as GFM): `oneLine` (secrets hidden, then cut),
 * then written so that it renders as the same text inside an HTML block, a Markdown paragraph or a
 * table cell.
 */
export function summaryText(text: string, maxChars = 300): string {
  return oneLine(text, maxChars)
    .replace(INLINE_SYNTAX, reference)
    .replace(BLOCK_START, (start) => `${start.slice(0, -1)}${reference(start.slice(-1))}`)
}

/** URLs are the user's, already validated; cut anyway, as all outside text is before the log. */
const SHOWN_URL_CHARS = 200

export function shownUrl(url: string): string {
  return oneLine(url, SHOWN_URL_CHARS)
}

/** Server and user text inside a sentence: long enough to recognise, short enough for a table cell. */
const QUOTED_CHARS = 80

export function quoted(text: string): string {
  return `"${oneLine(text, QUOTED_CHARS)}"`
}

/** A server message: long enough for any real explanation, short enough for a results entry. */
const MAX_MESSAGE_CHARS = 300

/** Server text on one line, secrets hidden first (as the guard does), cut to `max` with `…`. */
export function cut(message: string, max = MAX_MESSAGE_CHARS): string {
  const oneLine = redact(message).replace(/\s+/g, ' ').trim()
  return oneLine.length > max ? `${oneLine.slice(0, max)}…` : oneLine
}
