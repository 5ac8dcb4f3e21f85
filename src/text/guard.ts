/**
 * The one guard for text from outside (file names, keys and URLs as echoed, server messages, ids):
 * what it returns holds no secret, cannot break a log line, speak to the runner, or become markup
 * in the summary. It hides the secrets before it cuts or escapes anything, so no cut can leave a
 * piece of a secret in view and no escape can hide one from the redactor.
 */
import { cut } from './cut.js'
import { jsonSpotter, redactor } from './secrets.js'

/**
 * The guard of one run: made by the runner door with the secrets `core.setSecret` registers, and
 * handed to everything that shows text from outside. Each view hides the secrets first, so no
 * caller can cut or escape before redacting.
 */
export interface Guard {
  /** The text with every spelling of the secrets replaced by `***`; nothing cut. */
  redact(text: string): string
  /**
   * Whether JSON text may hold a secret, in any spelling `redact` hides, inside one of its strings.
   * `false` is a proof: no string in it needs redacting. `true` may be a false alarm.
   */
  mayHoldSecret(json: string): boolean
  /** For log lines and annotations: one line, cut to `maxChars` with `…`, never a runner command. */
  oneLine(text: string, maxChars?: number): string
  /**
   * For the job summary (raw HTML that GitHub renders as GFM): `oneLine`, then written so that it
   * renders as the same text inside an HTML block, a Markdown paragraph or a table cell.
   */
  summaryText(text: string, maxChars?: number): string
}

/** The guard that hides these secrets (and only these) in everything it returns. */
export function guardAgainst(secrets: readonly string[]): Guard {
  const redact = redactor(secrets)
  const oneLine = (text: string, maxChars = 300): string => escapedLine(redact(text), maxChars)
  return {
    redact,
    mayHoldSecret: jsonSpotter(secrets),
    oneLine,
    summaryText: (text, maxChars = 300) => markupEscaped(oneLine(text, maxChars))
  }
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
 * The line as pieces: a run of whitespace becomes one space before the next piece (none at either
 * end), every hidden character an escape. The runner obeys `::name::` at a line's start (after
 * spaces) and the legacy `##[name]` anywhere in a line, so a leading `:` and a `[` right after `##`
 * are escaped too: one character each keeps the text readable.
 */
function* shownPieces(text: string): Generator<string> {
  let first = true
  let spaceBefore = false
  let older = ''
  let newer = ''
  for (const char of text) {
    if (isSpace(char)) {
      spaceBefore = !first
      continue
    }
    const afterHashes = !spaceBefore && older === '#' && newer === '#'
    const piece =
      HIDDEN.test(char) || (char === ':' && first) || (char === '[' && afterHashes)
        ? escaped(char)
        : char
    yield spaceBefore ? ` ${piece}` : piece
    older = spaceBefore ? ' ' : newer
    newer = piece
    first = false
    spaceBefore = false
  }
}

/**
 * A line `shownPieces` leaves as it is: no hidden character, no whitespace but single spaces
 * between other characters, no leading `:`, no `##[`. Most lines are: they skip the walk.
 */
const PLAIN_LINE =
  /^(?![:\s])(?!.*(?:\s\s|[^\S ]|\s$|##\[))[^\p{Cc}\p{Zl}\p{Zp}\p{Bidi_Control}\p{Cs}]*$/u

/** One line, cut to `maxChars` with `…`, never a runner command; for text a guard has redacted. */
export function escapedLine(text: string, maxChars = 300): string {
  if (text.length <= maxChars && PLAIN_LINE.test(text)) return text
  return cut(shownPieces(text), maxChars)
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

/** A line `escapedLine` made, written to render as the same text wherever the summary puts it. */
function markupEscaped(line: string): string {
  return line
    .replace(INLINE_SYNTAX, reference)
    .replace(BLOCK_START, (start) => `${start.slice(0, -1)}${reference(start.slice(-1))}`)
}
