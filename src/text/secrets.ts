/** Hiding secrets in what the action writes, in each spelling a text can hold them in. Pure. */

/** Returns the text with every spelling of the secrets it was made for replaced by `***`. */
export type Redact = (text: string) => string

const MASK = '***'

/**
 * Base64 pieces shorter than this are not hidden: a piece of 6 characters carries 36 bits of the
 * secret, while shorter ones turn up in ordinary text (ids, words) too often to hide. Only secrets
 * under 5 bytes have no piece this long, and their raw and URL-encoded forms are still hidden.
 */
const MIN_BASE64_PIECE = 6

/**
 * A redactor for these secrets (empty ones ignored). It hides each secret raw, URL-encoded, and the
 * part of its base64 encoding that depends on the secret alone, at each of the three byte offsets
 * the secret can start at inside a longer base64 text.
 */
export function redactor(secrets: readonly string[]): Redact {
  const forms = formsOf(secrets)
  if (forms.length === 0) return (text) => text
  return (text) => hide(text, forms)
}

/**
 * Whether JSON text may hold a spelling of the secrets inside a string: JSON escapes a string one
 * character at a time, so a string holding a spelling holds its escaped form. A lone surrogate is
 * escaped differently beside its pair, so a spelling holding one is always a possible hit.
 */
export function jsonSpotter(secrets: readonly string[]): (json: string) => boolean {
  const forms = formsOf(secrets)
  if (forms.some((form) => /[\uD800-\uDFFF]/.test(form))) return () => true
  const escaped = forms.map((form) => JSON.stringify(form).slice(1, -1))
  return (json) => escaped.some((form) => json.includes(form))
}

/** Every spelling of every secret to look for, each once; empty secrets have none. */
function formsOf(secrets: readonly string[]): string[] {
  return [...new Set(secrets.filter((secret) => secret !== '').flatMap(spellings))]
}

function spellings(secret: string): string[] {
  const pieces = [0, 1, 2]
    .map((offset) => base64Piece(secret, offset))
    .filter((piece) => piece.length >= MIN_BASE64_PIECE)
  return [secret, ...urlEncoded(secret), ...pieces]
}

function urlEncoded(secret: string): string[] {
  try {
    return [encodeURIComponent(secret)]
  } catch {
    // A lone surrogate has no URL encoding, so no text can hold the secret URL-encoded.
    return []
  }
}

/**
 * The characters of base64(prefix + secret + suffix), for a prefix of `offset` bytes (mod 3), that
 * depend on the secret's bytes alone. Each character holds 6 bits; the one or two at each end that
 * also hold bits of the prefix or suffix differ from text to text, so they are left out, leaving at
 * most 6 bits of the secret's edges visible.
 */
function base64Piece(secret: string, offset: number): string {
  const bytes = Buffer.from(secret, 'utf8')
  const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64')
  const firstBit = offset * 8
  const endBit = firstBit + bytes.length * 8
  return encoded.slice(Math.ceil(firstBit / 6), Math.floor(endBit / 6))
}

/**
 * Hides every occurrence of every form, overlapping ones merged into one `***`. Matching all
 * occurrences rather than replacing form by form means no form can split another (which replacing
 * the longest first aims at) and a hostile text cannot make one match swallow the start of another
 * and leave the rest of the secret in view.
 */
function hide(text: string, forms: readonly string[]): string {
  const spans: [number, number][] = []
  for (const form of forms) {
    for (let at = text.indexOf(form); at !== -1; at = text.indexOf(form, at + 1)) {
      spans.push([at, at + form.length])
    }
  }
  if (spans.length === 0) return text
  spans.sort((a, b) => a[0] - b[0])
  let result = ''
  let hiddenTo = -1
  for (const [start, end] of spans) {
    if (start > hiddenTo) result += text.slice(Math.max(hiddenTo, 0), start) + MASK
    hiddenTo = Math.max(hiddenTo, end)
  }
  return result + text.slice(hiddenTo)
}
