/** Content codings: the list a `Content-Encoding` value names, what is refused, and the decoders' order. */
import { describe, expect, it } from '@jest/globals'
import { pipeline } from 'node:stream/promises'
import { Readable, Writable } from 'node:stream'
import * as zlib from 'node:zlib'
import { codingsOf, decodersFor } from '../src/http/content-coding.js'
import { NO_SECRETS } from './support/guard.js'

describe('codingsOf', () => {
  it('lists the codings in the order applied, names case-insensitive, x-gzip as gzip', () => {
    expect(codingsOf('gzip, br', NO_SECRETS)).toEqual({ kind: 'codings', codings: ['gzip', 'br'] })
    expect(codingsOf('X-GZIP,Deflate', NO_SECRETS)).toEqual({
      kind: 'codings',
      codings: ['gzip', 'deflate']
    })
  })

  it('adds no layer for identity, an empty element or no header', () => {
    expect(codingsOf('identity, br, , IDENTITY', NO_SECRETS)).toEqual({
      kind: 'codings',
      codings: ['br']
    })
    expect(codingsOf('', NO_SECRETS)).toEqual({ kind: 'codings', codings: [] })
    expect(codingsOf(undefined, NO_SECRETS)).toEqual({ kind: 'codings', codings: [] })
  })

  it('refuses an unknown coding, naming it', () => {
    expect(codingsOf('gzip, compress', NO_SECRETS)).toEqual({
      kind: 'refused',
      reason: 'Content-Encoding "compress" is not one edge-purge can decode'
    })
  })

  it('refuses a coding named like a property every object has', () => {
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      expect(codingsOf(`gzip, ${name}`, NO_SECRETS)).toMatchObject({ kind: 'refused' })
    }
  })

  it('takes up to 4 codings, not counting identity, and refuses more, saying why', () => {
    expect(codingsOf('gzip, identity, br, gzip, deflate', NO_SECRETS)).toMatchObject({
      kind: 'codings'
    })
    expect(codingsOf('br, br, br, br, br', NO_SECRETS)).toEqual({
      kind: 'refused',
      reason: 'Content-Encoding "br, br, br, br, br" lists 5 codings; edge-purge decodes at most 4'
    })
  })

  it('shows a server’s coding as one short line', () => {
    const long = codingsOf(`x-${'a'.repeat(500)}`, NO_SECRETS)
    expect(long.kind === 'refused' && long.reason).toBe(
      `Content-Encoding "x-${'a'.repeat(38)}…" is not one edge-purge can decode`
    )
    const broken = codingsOf('x\n::error::boom', NO_SECRETS)
    expect(broken.kind === 'refused' && broken.reason).toBe(
      'Content-Encoding "x\\n::error::boom" is not one edge-purge can decode'
    )
  })
})

describe('decodersFor', () => {
  it('undoes the last coding applied first', async () => {
    const page = Buffer.from('<p>release abc1234</p>')
    const bytes = zlib.brotliCompressSync(zlib.deflateSync(zlib.gzipSync(page)))
    const parts: Buffer[] = []
    const sink = new Writable({
      write(chunk: Buffer, _, done) {
        parts.push(chunk)
        done()
      }
    })
    await pipeline([Readable.from([bytes]), ...decodersFor(['gzip', 'deflate', 'br']), sink])
    expect(Buffer.concat(parts).toString()).toBe(page.toString())
  })
})
