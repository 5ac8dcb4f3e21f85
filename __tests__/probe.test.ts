/**
 * The probe against real HTTP servers on 127.0.0.1 (streaming routes of its own, and the fake
 * content host for pages with given headers and bytes): every Age line, content codings and
 * charsets, early stop, decoding stopped with it, no redirects, no token headers and the
 * decoded-size cap. How a request ends (deadline, cancel, network failure) is exchange.test.ts's.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals'
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse
} from 'node:http'
import { spawn } from 'node:child_process'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import * as zlib from 'node:zlib'
import { createProber, type PageReading, type Prober } from '../src/http/probe.js'
import type { Answer } from '../src/http/agents.js'
import { FakeContentServer } from '../tools/fake-content-server.js'
import { ROOT } from '../tools/run-like-runner.js'
import { childTmpdir } from './support/child-tmpdir.js'
import { NO_SECRETS } from './support/guard.js'

/** The most the prober decodes of a body. */
const FOUR_MIB = 4 * 1024 * 1024

const PAGE = '<html><body>release abc1234 is live</body></html>'
const childTmp = childTmpdir()

interface Seen {
  path: string
  headers: IncomingHttpHeaders
}

type Route = (request: IncomingMessage, response: ServerResponse) => void

/** Set by a streaming route when the client dropped the connection before the stream ended. */
const streams = { dropped: 0, finished: 0 }

function stream(response: ServerResponse, chunks: (index: number) => Buffer | undefined): void {
  let index = 0
  const timer = setInterval(() => {
    const chunk = chunks(index++)
    if (chunk === undefined) {
      clearInterval(timer)
      streams.finished += 1
      response.end()
      return
    }
    response.write(chunk)
  }, 5)
  response.on('close', () => {
    if (!response.writableFinished) streams.dropped += 1
    clearInterval(timer)
  })
}

const routes: Record<string, Route> = {
  '/plain': (_, response) => {
    response.writeHead(200, { 'Content-Type': 'text/html' })
    response.end(PAGE)
  },
  '/gzip': (_, response) => {
    response.writeHead(200, { 'Content-Encoding': 'gzip' })
    response.end(zlib.gzipSync(PAGE))
  },
  '/deflate': (_, response) => {
    response.writeHead(200, { 'Content-Encoding': 'deflate' })
    response.end(zlib.deflateSync(PAGE))
  },
  '/br': (_, response) => {
    response.writeHead(200, { 'Content-Encoding': 'br' })
    response.end(zlib.brotliCompressSync(PAGE))
  },
  '/header': (_, response) => {
    response.writeHead(200, { 'X-Release': 'abc1234' })
    stream(response, (index) => (index < 2000 ? Buffer.from('x'.repeat(1024)) : undefined))
  },
  // The text arrives split over two writes (all but its last character first), then the page goes
  // on for up to 20 s.
  '/endless': (_, response) => {
    response.writeHead(200)
    stream(response, (index) => {
      if (index === 3) return Buffer.from('… release abc123')
      if (index === 4) return Buffer.from('4 is live …')
      return index < 4000 ? Buffer.from('filler '.repeat(100)) : undefined
    })
  },
  // A gzip stream flushed in pieces, the text split between two of them.
  '/endless-gzip': (_, response) => {
    response.writeHead(200, { 'Content-Encoding': 'gzip' })
    const gzip = zlib.createGzip()
    gzip.on('data', (chunk: Buffer) => response.write(chunk))
    let index = 0
    const timer = setInterval(() => {
      const text = index === 3 ? 'release ab' : index === 4 ? 'c1234 …' : 'filler '.repeat(50)
      gzip.write(text)
      gzip.flush()
      if (++index > 4000) clearInterval(timer)
    }, 5)
    response.on('close', () => {
      if (!response.writableFinished) streams.dropped += 1
      clearInterval(timer)
    })
  },
  // UTF-16LE, the text's bytes split inside a character, then the page goes on.
  '/split-utf16': (_, response) => {
    response.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-16le' })
    const bytes = Buffer.from('… release abc1234 is live …', 'utf16le')
    const at = bytes.indexOf(Buffer.from('c1', 'utf16le')) + 1
    stream(response, (index) => {
      if (index === 0) return bytes.subarray(0, at)
      if (index === 1) return bytes.subarray(at)
      return index < 4000 ? Buffer.from('filler '.repeat(50), 'utf16le') : undefined
    })
  },
  // "é" is two bytes in UTF-8; the chunks split it.
  '/split-char': (_, response) => {
    response.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' })
    const bytes = Buffer.from('version café-2')
    const at = bytes.indexOf(0xc3) + 1
    stream(response, (index) =>
      index === 0 ? bytes.subarray(0, at) : index === 1 ? bytes.subarray(at) : undefined
    )
  },
  '/redirect': (_, response) => {
    response.writeHead(302, { Location: '/plain' })
    response.end('moved')
  },
  '/huge': (_, response) => {
    response.writeHead(200)
    stream(response, (index) => (index < 12 ? Buffer.alloc(512 * 1024, 'a') : undefined))
  },
  // 64 MiB of zeros in 64 KiB of gzip: only the cap stops it.
  '/bomb': (_, response) => {
    response.writeHead(200, { 'Content-Encoding': 'gzip' })
    response.end(zlib.gzipSync(Buffer.alloc(64 * 1024 * 1024)))
  },
  '/corrupt': (_, response) => {
    response.writeHead(200, { 'Content-Encoding': 'gzip' })
    response.end('this is not gzip at all')
  }
}

let server: Server
let base: string
const seen: Seen[] = []
let prober: Prober
let content: FakeContentServer

beforeAll(async () => {
  server = createServer((request, response) => {
    const path = request.url ?? '/'
    seen.push({ path, headers: request.headers })
    const route = routes[path]
    if (route === undefined) {
      response.writeHead(404)
      response.end()
      return
    }
    route(request, response)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  prober = createProber({ guard: NO_SECRETS, userAgent: 'edge-purge-test/1.0', concurrency: 4 })
  content = await FakeContentServer.start()
})

afterEach(() => {
  seen.length = 0
})

afterAll(async () => {
  prober.close()
  await content.close()
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

const get = (
  path: string,
  lookFor: string | undefined = undefined,
  timeoutMs = 10_000,
  signal = new AbortController().signal
): Promise<Answer<PageReading>> => prober.get(`${base}${path}`, { timeoutMs, signal, lookFor })

/** A page of the fake content host, served with these headers and bytes. */
async function getPage(
  headers: Record<string, string | string[]>,
  body: string | Buffer,
  lookFor: string | undefined = undefined
): Promise<Extract<Answer<PageReading>, { kind: 'response' }>> {
  const path = `/page/${content.requests.length}`
  content.page(path, { headers, body })
  return response(
    await prober.get(content.urlOf(path), {
      timeoutMs: 10_000,
      signal: new AbortController().signal,
      lookFor
    })
  )
}

function response(answer: Answer<PageReading>): Extract<Answer<PageReading>, { kind: 'response' }> {
  if (answer.kind !== 'response') throw new Error(`expected a response, got ${answer.kind}`)
  return answer
}

describe('what is sent', () => {
  it('sends the User-Agent and the visitors’ Accept-Encoding, and no token header', async () => {
    await get('/plain')
    const [request] = seen
    expect(request?.headers['user-agent']).toBe('edge-purge-test/1.0')
    expect(request?.headers['accept-encoding']).toBe('gzip, deflate, br')
    expect(request?.headers).not.toHaveProperty('edge-key')
    expect(request?.headers).not.toHaveProperty('authorization')
    expect(Object.keys(request?.headers ?? {}).sort()).toEqual([
      'accept-encoding',
      'connection',
      'host',
      'user-agent'
    ])
  })

  it('does not follow a redirect: the 3xx is the answer', async () => {
    const answer = response(await get('/redirect'))
    expect(answer.status).toBe(302)
    expect(answer.headers.location).toBe('/plain')
    expect(seen.map(({ path }) => path)).toEqual(['/redirect'])
  })
})

describe('bodies', () => {
  it.each(['/plain', '/gzip', '/deflate', '/br'])('decodes %s', async (path) => {
    const answer = response(await get(path))
    expect(answer).toMatchObject({ status: 200, body: PAGE, truncated: false })
  })

  it('reports a body that does not decode as a failure naming the encoding', async () => {
    const answer = await get('/corrupt')
    expect(answer).toMatchObject({ kind: 'network' })
    expect(answer.kind === 'network' && answer.message).toMatch(/gzip body could not be decoded/)
  })

  it('stops reading once the text shows, though the server keeps streaming', async () => {
    const before = streams.dropped
    const answer = response(await get('/endless', 'abc1234'))
    expect(answer.body).toContain('abc1234')
    expect(answer.body.length).toBeLessThan(10_000)
    await waitFor(() => streams.dropped > before)
  })

  it('finds text split across gzip flushes and stops there', async () => {
    const before = streams.dropped
    const answer = response(await get('/endless-gzip', 'abc1234'))
    expect(answer.body).toContain('abc1234')
    await waitFor(() => streams.dropped > before)
  })

  it('decodes a character whose bytes are split across chunks', async () => {
    const answer = response(await get('/split-char', 'café-2'))
    expect(answer.body).toBe('version café-2')
  })

  it('does not read the body when a header already shows the text', async () => {
    const answer = response(await get('/header', 'abc1234'))
    expect(answer.body).toBe('')
    expect(answer.headers['x-release']).toBe('abc1234')
  })

  it('cuts a body at 4 MiB decoded', async () => {
    const answer = response(await get('/huge', 'never there'))
    expect(answer.truncated).toBe(true)
    expect(answer.body).toHaveLength(FOUR_MIB)
  })

  it('cuts a compression bomb at 4 MiB decoded', async () => {
    const answer = response(await get('/bomb'))
    expect(answer.truncated).toBe(true)
    expect(answer.body).toHaveLength(FOUR_MIB)
  })
})

describe('Age', () => {
  it('carries every Age line as sent, where node’s headers.age keeps only the first', async () => {
    const repeated = await getPage({ Age: ['0', '7200'] }, PAGE)
    expect(repeated.headers.age).toBe('0')
    expect(repeated.ageLines).toEqual(['0', '7200'])
    expect((await getPage({ Age: '7200, 7200' }, PAGE)).ageLines).toEqual(['7200, 7200'])
    expect((await getPage({ Age: '7200.5' }, PAGE)).ageLines).toEqual(['7200.5'])
    expect((await getPage({}, PAGE)).ageLines).toEqual([])
  })
})

const ENCODERS: Record<string, (bytes: Buffer) => Buffer> = {
  gzip: (bytes) => zlib.gzipSync(bytes),
  deflate: (bytes) => zlib.deflateSync(bytes),
  br: (bytes) => zlib.brotliCompressSync(bytes)
}

/** `PAGE` with each coding applied in the order listed, as a server would. */
function encoded(codings: string[], text = PAGE): Buffer {
  let bytes: Buffer = Buffer.from(text)
  for (const coding of codings) {
    const encoder = ENCODERS[coding]
    if (encoder === undefined) throw new Error(`no encoder for ${coding}`)
    bytes = encoder(bytes)
  }
  return bytes
}

describe('content codings', () => {
  it.each([
    ['gzip, br', ['gzip', 'br']],
    ['br, gzip', ['br', 'gzip']],
    ['deflate, gzip, br, gzip', ['deflate', 'gzip', 'br', 'gzip']],
    ['GZIP, identity, X-Gzip', ['gzip', 'gzip']],
    [' br ,', ['br']],
    ['identity', []]
  ])(
    'decodes Content-Encoding "%s" in the reverse of the order listed',
    async (header, codings) => {
      const answer = await getPage({ 'Content-Encoding': header }, encoded(codings))
      expect(answer).toMatchObject({ status: 200, body: PAGE, undecodable: undefined })
    }
  )

  it('decodes codings sent as Content-Encoding lines of their own, in order', async () => {
    const answer = await getPage({ 'Content-Encoding': ['gzip', 'br'] }, encoded(['gzip', 'br']))
    expect(answer.body).toBe(PAGE)
  })

  it('finds the text in a UTF-16 page under two codings', async () => {
    const bytes = zlib.brotliCompressSync(zlib.gzipSync(Buffer.from(PAGE, 'utf16le')))
    const headers = {
      'Content-Encoding': 'gzip, br',
      'Content-Type': 'text/html; charset=utf-16le'
    }
    const answer = await getPage(headers, bytes, 'abc1234')
    expect(answer.body).toBe(PAGE)
  })

  it.each([
    ['compress', 'Content-Encoding "compress" is not one edge-purge can decode'],
    ['gzip, zstd', 'Content-Encoding "zstd" is not one edge-purge can decode'],
    [
      'gzip, gzip, gzip, gzip, gzip',
      'Content-Encoding "gzip, gzip, gzip, gzip, gzip" lists 5 codings; edge-purge decodes at most 4'
    ]
  ])('refuses "%s": an answer with nothing read that says why', async (header, reason) => {
    const answer = await getPage({ 'Content-Encoding': header, Age: '0' }, encoded(['gzip']))
    expect(answer).toMatchObject({ status: 200, body: '', ageLines: ['0'], undecodable: reason })
  })

  it('refuses an unknown coding even when a header shows the text', async () => {
    const answer = await getPage(
      { 'Content-Encoding': 'compress', 'X-Release': 'abc1234' },
      'x',
      'abc1234'
    )
    expect(answer.undecodable).toBe('Content-Encoding "compress" is not one edge-purge can decode')
  })
})

/** The text of the charset tests: letters that differ in every encoding below. */
const INTL = 'version café ünïcödé abc1234'

describe('charsets', () => {
  it.each([
    ['utf-16le', 'text/html; charset=utf-16le', Buffer.from(INTL, 'utf16le')],
    ['utf-16be', 'text/html; charset=UTF-16BE', Buffer.from(INTL, 'utf16le').swap16()],
    ['windows-1252, quoted', 'text/html; charset="Windows-1252"', Buffer.from(INTL, 'latin1')],
    ['iso-8859-1', 'text/plain;charset=iso-8859-1;format=flowed', Buffer.from(INTL, 'latin1')],
    ['UTF-8 when no charset is given', 'text/html', Buffer.from(INTL)],
    ['UTF-8 when the label is unknown', 'text/html; charset=klingon', Buffer.from(INTL)]
  ])('decodes %s', async (_, contentType, bytes) => {
    const answer = await getPage({ 'Content-Type': contentType }, bytes, 'never there')
    expect(answer.body).toBe(INTL)
  })

  it.each([
    ['UTF-8', 'windows-1252', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(INTL)])],
    ['UTF-16LE', 'utf-8', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(INTL, 'utf16le')])],
    [
      'UTF-16BE',
      'windows-1252',
      Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(INTL, 'utf16le').swap16()])
    ]
  ])('lets a %s byte order mark win over charset=%s', async (_, label, bytes) => {
    const answer = await getPage({ 'Content-Type': `text/html; charset=${label}` }, bytes)
    expect(answer.body).toBe(INTL)
  })

  it('does not read a <meta> charset: a page without one in its header is UTF-8', async () => {
    const page = `<meta charset="windows-1252"><p>${INTL}</p>`
    const answer = await getPage({ 'Content-Type': 'text/html' }, Buffer.from(page))
    expect(answer.body).toBe(page)
  })

  it('finds the text when its UTF-16 bytes are split inside a character, and stops there', async () => {
    const before = streams.dropped
    const answer = response(await get('/split-utf16', 'abc1234'))
    expect(answer.body).toContain('abc1234')
    await waitFor(() => streams.dropped > before)
  })

  it('cuts at 4 MiB of decoded bytes, not characters: 2 Mi UTF-16 characters', async () => {
    const bytes = Buffer.from('é'.repeat(3 * 1024 * 1024), 'utf16le')
    const headers = { 'Content-Type': 'text/plain; charset=utf-16le' }
    const answer = await getPage(headers, bytes, 'never there')
    expect(answer.truncated).toBe(true)
    expect(answer.body).toBe('é'.repeat(FOUR_MIB / 2))
  })
})

describe('compression bombs', () => {
  // A node of its own through tsx, after a 64 MiB compression: tens of seconds on a busy machine.
  it('stop costing anything once the probe stops reading: no zlib work after it settles, and the process ends by itself', async () => {
    // 64 MiB of zeros in a few hundred bytes of brotli: the probe reads 4 MiB of it.
    const bomb = zlib.brotliCompressSync(Buffer.alloc(64 * 1024 * 1024))
    content.page('/bomb.br', { headers: { 'Content-Encoding': 'br' }, body: bomb })
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        join(ROOT, '__tests__', 'support', 'probe-in-child.ts'),
        content.urlOf('/bomb.br')
      ],
      // Without jest's --experimental-vm-modules, whose warning would be all stderr holds.
      {
        cwd: ROOT,
        env: { ...process.env, NODE_OPTIONS: '', TMPDIR: childTmp },
        stdio: ['ignore', 'pipe', 'pipe']
      }
    )
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' })
    const { answer, zlibCallbacksAfter } = JSON.parse(stdout) as {
      answer: unknown
      zlibCallbacksAfter: number
    }
    expect(answer).toEqual({ kind: 'response', truncated: true, length: FOUR_MIB })
    // At most the write already in flight when the decoder was destroyed; left running, the
    // decoder would inflate the other 60 MiB, 16 KiB per callback (some 3,800).
    expect(zlibCallbacksAfter).toBeLessThanOrEqual(1)
  }, 120_000)
})

/** Polls a condition the server sets asynchronously; gives up after 5 s. */
async function waitFor(condition: () => boolean): Promise<void> {
  for (let tries = 0; tries < 500 && !condition(); tries++) {
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  expect(condition()).toBe(true)
}
