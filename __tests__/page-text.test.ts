/** Page text from bytes in chunks: the charset label, a byte order mark winning over it, UTF-8 otherwise. */
import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { charsetOf, PageTextDecoder } from '../src/http/page-text.js'

const TEXT = 'version café ünïcödé – abc1234 ✓'

/** The text `bytes` decode to when they arrive in chunks of `size` bytes. */
function decodeInChunks(label: string | undefined, bytes: Buffer, size: number): string {
  const decoder = new PageTextDecoder(label)
  let text = ''
  for (let at = 0; at < bytes.length; at += size)
    text += decoder.write(bytes.subarray(at, at + size))
  return text + decoder.end()
}

const BOM = {
  utf8: Buffer.from([0xef, 0xbb, 0xbf]),
  utf16le: Buffer.from([0xff, 0xfe]),
  utf16be: Buffer.from([0xfe, 0xff])
}

describe('charsetOf', () => {
  it('reads the charset parameter, quoted or not, among others', () => {
    expect(charsetOf('text/html; charset=utf-16le')).toBe('utf-16le')
    expect(charsetOf('text/html;charset="Windows-1252";')).toBe('Windows-1252')
    expect(charsetOf('text/plain; format=flowed; CHARSET = koi8-r')).toBe('koi8-r')
  })

  it('is undefined when there is no charset, or no Content-Type', () => {
    expect(charsetOf('text/html')).toBeUndefined()
    expect(charsetOf('text/html; charset')).toBeUndefined()
    expect(charsetOf('')).toBeUndefined()
    expect(charsetOf(undefined)).toBeUndefined()
  })
})

describe('PageTextDecoder', () => {
  it.each([
    ['utf-16le', Buffer.from(TEXT, 'utf16le')],
    ['UTF-16BE', Buffer.from(TEXT, 'utf16le').swap16()],
    ['windows-1252', Buffer.from(TEXT.replace(/[–✓]/g, '?'), 'latin1')],
    ['utf-8', Buffer.from(TEXT)]
  ])('decodes %s whatever the chunks split', (label, bytes) => {
    const expected = label === 'windows-1252' ? TEXT.replace(/[–✓]/g, '?') : TEXT
    for (const size of [1, 2, 3, 5, bytes.length]) {
      expect(decodeInChunks(label, bytes, size)).toBe(expected)
    }
  })

  it('decodes as UTF-8 with no label, an unknown one, or one TextDecoder does not decode', () => {
    for (const label of [undefined, 'klingon', 'iso-2022-kr', 'x-user-defined']) {
      expect(decodeInChunks(label, Buffer.from(TEXT), 4)).toBe(TEXT)
    }
  })

  it.each([
    ['UTF-8', BOM.utf8, Buffer.from(TEXT)],
    ['UTF-16LE', BOM.utf16le, Buffer.from(TEXT, 'utf16le')],
    ['UTF-16BE', BOM.utf16be, Buffer.from(TEXT, 'utf16le').swap16()]
  ])('lets a %s byte order mark win over the label, and drops it', (_, bom, bytes) => {
    for (const label of ['windows-1252', 'utf-8', 'utf-16le', undefined]) {
      for (const size of [1, 2, 4]) {
        expect(decodeInChunks(label, Buffer.concat([bom, bytes]), size)).toBe(TEXT)
      }
    }
  })

  it('decodes bodies shorter than any byte order mark', () => {
    expect(decodeInChunks('utf-8', Buffer.from('ab'), 1)).toBe('ab')
    expect(decodeInChunks('utf-8', Buffer.alloc(0), 1)).toBe('')
    expect(decodeInChunks('utf-16le', BOM.utf16le, 1)).toBe('')
  })

  it('decodes any UTF-8 text in any chunks as Buffer does whole', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 200 }),
        fc.integer({ min: 1, max: 9 }),
        (text, size) => {
          const bytes = Buffer.from(text)
          // A text that itself starts with U+FEFF reads as a byte order mark, as in a browser.
          fc.pre(!text.startsWith('\ufeff'))
          expect(decodeInChunks(undefined, bytes, size)).toBe(bytes.toString())
        }
      )
    )
  })
})
