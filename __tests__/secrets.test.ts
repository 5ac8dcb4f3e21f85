/** Unit and property tests of the redactor: no spelling of a secret survives, ordinary text does. */
import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { jsonSpotter, redactor } from '../src/text/secrets.js'

const TOKEN = 'tok_9fQ2xL7vR4mN8pK1/+=wZ'

const base64 = (...parts: (string | Uint8Array)[]): string =>
  Buffer.concat(parts.map((part) => Buffer.from(part))).toString('base64')

/** Characters real tokens are made of; `*` is left out, since the mask itself is made of it. */
const TOKEN_CHARS = [
  ...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.~+/=:%@!$&()[]{}<>?#"\'\\,; '
]
const tokenOf = (minLength: number): fc.Arbitrary<string> =>
  fc.string({ unit: fc.constantFrom(...TOKEN_CHARS), minLength, maxLength: 48 })

/**
 * How many of the token's bits a masked base64 text still shows at each end. `masked` must be
 * `encoded` with one stretch replaced by `***`; each base64 character shows 6 bits of the bytes.
 */
function visibleTokenBits(
  encoded: string,
  masked: string,
  prefixBytes: number,
  tokenBytes: number
): { head: number; tail: number } {
  const pieces = masked.split('***')
  expect(pieces).toHaveLength(2)
  const [head = '', tail = ''] = pieces
  expect(encoded.startsWith(head) && encoded.endsWith(tail)).toBe(true)
  const tokenStart = prefixBytes * 8
  const tokenEnd = tokenStart + tokenBytes * 8
  const tailStart = (encoded.length - tail.length) * 6
  return {
    head: Math.max(0, Math.min(head.length * 6, tokenEnd) - tokenStart),
    tail: Math.max(0, tokenEnd - Math.max(tailStart, tokenStart))
  }
}

describe('redactor', () => {
  const redact = redactor([TOKEN])

  it('hides the token raw, wherever it is and however often', () => {
    expect(redact(`a ${TOKEN} b ${TOKEN}${TOKEN}`)).toBe('a *** b ***')
  })

  it('hides the token URL-encoded', () => {
    const encoded = encodeURIComponent(TOKEN)
    expect(encoded).not.toBe(TOKEN)
    expect(redact(`https://x.example/?t=${encoded}&u=1`)).toBe('https://x.example/?t=***&u=1')
  })

  it('hides the token base64-encoded on its own, leaving only the padding edge', () => {
    const masked = redact(`Authorization: Basic ${base64(TOKEN)}`)
    expect(masked).not.toContain(base64(TOKEN).slice(0, -4))
    expect(masked).toMatch(/^Authorization: Basic \*\*\*[A-Za-z0-9+/]{0,2}=*$/)
  })

  it.each([0, 1, 2])(
    'hides the token base64-encoded after a %i-byte prefix, whatever follows it',
    (prefixBytes) => {
      const prefix = 'u:'.slice(0, prefixBytes)
      for (const suffix of ['', 'x', 'xy', 'xyz', ':more', '\u00e9\u00e9']) {
        const encoded = base64(prefix, TOKEN, suffix)
        const masked = redact(encoded)
        const bytes = Buffer.byteLength(prefix)
        const visible = visibleTokenBits(encoded, masked, bytes, Buffer.byteLength(TOKEN))
        expect(visible.head).toBeLessThan(8)
        expect(visible.tail).toBeLessThan(8)
      }
    }
  )

  it('property: no whole byte of a token survives in base64(prefix + token + suffix)', () => {
    fc.assert(
      fc.property(
        tokenOf(8),
        fc.uint8Array({ maxLength: 7 }),
        fc.uint8Array({ maxLength: 7 }),
        (token, prefix, suffix) => {
          const encoded = base64(prefix, token, suffix)
          const masked = redactor([token])(encoded)
          const visible = visibleTokenBits(encoded, masked, prefix.length, token.length)
          // At most 4 bits before (a prefix of 1 byte mod 3) and 6 after: no byte recoverable.
          expect(visible.head).toBeLessThanOrEqual(4)
          expect(visible.tail).toBeLessThanOrEqual(6)
        }
      )
    )
  })

  it('property: neither the raw nor the URL-encoded token survives in any surrounding text', () => {
    fc.assert(
      fc.property(tokenOf(1), fc.string(), fc.string(), (token, before, after) => {
        const redact = redactor([token])
        expect(redact(before + token + after)).not.toContain(token)
        const encoded = encodeURIComponent(token)
        expect(redact(before + encoded + after)).not.toContain(encoded)
      })
    )
  })

  it('property: text holding no form of the token is left as it is', () => {
    fc.assert(
      fc.property(tokenOf(8), fc.string(), (token, text) => {
        fc.pre(!text.includes(token) && !text.includes(encodeURIComponent(token)))
        expect(redactor([token])(text)).toBe(text)
      })
    )
  })

  it('cannot be tricked into hiding a base64 match and showing the rest of the token', () => {
    // The token's base64 piece ends in the token's first character, so a text made of the piece
    // and the rest of the token holds both; replacing one match at a time would hide the piece and
    // print the token's other 20 characters.
    const token = 'xtok_9fQ2xL7vR4mN8pK1'
    const piece = 'eHRva185ZlEyeEw3dlI0bU44cEsx'
    expect(base64(token).startsWith(piece)).toBe(true)
    expect(redactor([token])(`${piece}${token.slice(1)}`)).toBe('***')
  })

  it('merges overlapping and adjacent matches into one mask', () => {
    expect(redactor(['abcabc'])('xabcabcabcy')).toBe('x***y')
    expect(redactor(['secret-one', 'one-two'])('a secret-one-two b')).toBe('a *** b')
  })

  it('ignores base64 pieces shorter than 6 characters, keeping ordinary text', () => {
    // 4 bytes give pieces of 4 and 5 characters; 5 bytes give pieces of 6.
    expect(redactor(['abcd'])(`id ${base64('abcd')} ok`)).toBe(`id ${base64('abcd')} ok`)
    expect(redactor(['abcd'])('abcd')).toBe('***')
    expect(redactor(['abcde'])(base64('abcde'))).toBe('***U=')
  })

  it('hides every secret it was given, and ignores empty ones', () => {
    const redact = redactor(['', 'first-secret', 'second-secret'])
    expect(redact('first-secret and second-secret, nothing else')).toBe('*** and ***, nothing else')
    expect(redactor([''])('text')).toBe('text')
    expect(redactor([])('text')).toBe('text')
  })

  it('does not throw for a secret with a lone surrogate', () => {
    expect(redactor(['bad\ud800secret'])('a bad\ud800secret b')).toBe('a *** b')
  })
})

describe('jsonSpotter', () => {
  const spot = jsonSpotter([TOKEN])
  const redact = redactor([TOKEN])

  it('property: spots every string the redactor would change, however JSON escapes it', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.nat(2), (before, after, spelling) => {
        const forms = [TOKEN, encodeURIComponent(TOKEN), base64(before, TOKEN, after)]
        const text = `${before}${forms[spelling] ?? ''}${after}`
        if (redact(text) !== text) expect(spot(JSON.stringify({ text }))).toBe(true)
      })
    )
  })

  it('clears JSON that holds no spelling of the secret', () => {
    expect(spot(JSON.stringify([{ target: 'key-1', id: 'id-1', error: null }]))).toBe(false)
  })

  it('spots any JSON at all for a secret with a lone surrogate, escaped apart from its pair', () => {
    expect(jsonSpotter(['abc\ud800def'])('[]')).toBe(true)
  })
})
