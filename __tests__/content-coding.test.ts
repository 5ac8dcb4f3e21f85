/** Content codings: the list a `Content-Encoding` value names, what is refused, and the decoders' order. */
import { describe, expect, it } from '@jest/globals'
import { pipeline } from 'node:stream/promises'
import { Readable, Writable } from 'node:stream'
import * as zlib from 'node:zlib'
import { codingsOf, decodersFor } from '../src/http/content-coding.js'

describe('codingsOf', () => {
  it('lists the codings in the order applied, names case-insensitive, x-gzip as gzip', () => {
    expect(codingsOf('gzip, br')).toEqual({ kind: 'codings', codings: ['gzip', 'br'] })
    expect(codingsOf('X-GZIP,Deflate')).toEqual({ kind: 'codings', codings: ['gzip', 'deflate'] })
  })

  it('adds no layer for identity, an empty element or no header', () => {
    expect(codingsOf('identity, br, , IDENTITY')).toEqual({ kind: 'codings', codings: ['br'] })
    expect(codingsOf('')).toEqual({ kind: 'codings', codings: [] })
    expect(codingsOf(undefined)).toEqual({ kind: 'codings', codings: [] })
  })

  it('refuses an unknown coding, naming it', () => {
    expect(codingsOf('gzip, compress')).toEqual({
      kind: 'refused',
      reason: 'Content-Encoding "compress" is not one edge-purge can decode'
    })
  })

  it('takes up to 4 codings, not counting identity, and refuses more, saying why', () => {
    expect(codingsOf('gzip, identity, br, gzip, deflate')).toMatchObject({ kind: 'codings' })
    expect(codingsOf('br, br, br, br, br')).toEqual({
      kind: 'refused',
      reason: 'Content-Encoding "br, br, br, br, br" lists 5 codings; edge-purge decodes at most 4'
    })
  })

  it('shows a server’s coding as one short line', () => {
    const long = codingsOf(`x-${'a'.repeat(500)}`)
    expect(long.kind === 'refused' && long.reason).toBe(
      `Content-Encoding "x-${'a'.repeat(38)}…" is not one edge-purge can decode`
    )
    const broken = codingsOf('x\n::error::boom')
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
