/**
 * One plain `GET` of a page as a visitor gets it, for the wait and verification stages: no token,
 * no redirects followed, the body decoded and read only as far as the caller needs it.
 */
import * as http from 'node:http'
import * as https from 'node:https'
import type { Readable, Transform } from 'node:stream'
import * as zlib from 'node:zlib'
import { createAgents, type Answer } from './agents.js'

/** What a page probe reads beyond what every answer has. */
export interface PageReading {
  /** Every `Age` line as sent, in order: node's `headers.age` keeps only the first. */
  ageLines: string[]
}

/**
 * One page fetch: the body is decoded, ends where `lookFor` was found when the probe stopped
 * reading early, and is cut at `MAX_DECODED_BYTES`.
 */
export type ProbeAnswer = Answer<PageReading>

export interface ProbeOptions {
  timeoutMs: number
  signal: AbortSignal
  /** Text the caller looks for: reading stops once the headers or the decoded body show it. */
  lookFor: string | undefined
}

export interface Prober {
  get(url: string, options: ProbeOptions): Promise<ProbeAnswer>
  close(): void
}

/**
 * Pages are bigger than purge answers, and a version string may sit near the end of one, but a
 * hostile or runaway page (or a compression bomb) must not fill the runner's memory.
 */
export const MAX_DECODED_BYTES = 4 * 1024 * 1024

/** The variants visitors get: a CDN caches and purges each encoding's copy on its own. */
const ACCEPT_ENCODING = 'gzip, deflate, br'

/**
 * Lenient flushing, as browsers are: a body cut short still yields the text decoded so far
 * instead of an error.
 */
function decoderFor(encoding: string | undefined): Transform | undefined {
  switch (encoding?.trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip({ finishFlush: zlib.constants.Z_SYNC_FLUSH })
    case 'deflate':
      return zlib.createInflate({ finishFlush: zlib.constants.Z_SYNC_FLUSH })
    case 'br':
      return zlib.createBrotliDecompress({
        finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH
      })
    default:
      return undefined
  }
}

function headersShow(headers: http.IncomingHttpHeaders, text: string): boolean {
  return Object.values(headers)
    .flat()
    .some((value) => value !== undefined && value.includes(text))
}

/**
 * Agents as the purge transport has them; the request itself is node's, which follows no redirect
 * and can be dropped as soon as the text is found.
 */
export function createProber(options: { userAgent: string; concurrency: number }): Prober {
  const { agentFor, close } = createAgents(options)

  function get(url: string, { timeoutMs, signal, lookFor }: ProbeOptions): Promise<ProbeAnswer> {
    if (signal.aborted) return Promise.resolve({ kind: 'cancelled' })
    const target = new URL(url)
    const module = target.protocol === 'https:' ? https : http
    const headers = { 'User-Agent': options.userAgent, 'Accept-Encoding': ACCEPT_ENCODING }

    return new Promise((resolve) => {
      const request = module.request(target, { method: 'GET', headers, agent: agentFor(target) })
      let decoder: Transform | undefined
      let settled = false
      /**
       * `drop` closes the connection: the rest of the body is not wanted, or never came. Dropping it
       * does not stop the decoder: it would inflate what it holds already (a compression bomb's
       * gigabytes from a few kilobytes) and keep the process alive while it does.
       */
      const settle = (answer: ProbeAnswer, drop: boolean): void => {
        if (settled) return
        settled = true
        clearTimeout(timer)
        signal.removeEventListener('abort', cancel)
        if (drop) {
          request.destroy()
          decoder?.destroy()
        }
        resolve(answer)
      }
      const timer = setTimeout(() => {
        settle(
          { kind: 'timeout', message: `no complete answer within ${timeoutMs / 1000} s` },
          true
        )
      }, timeoutMs)
      const cancel = (): void => settle({ kind: 'cancelled' }, true)
      signal.addEventListener('abort', cancel, { once: true })
      const fail = (error: Error & { code?: string }): void => {
        settle({ kind: 'network', code: error.code, message: error.message }, true)
      }
      request.on('error', fail)
      request.on('response', (response) => {
        const status = response.statusCode ?? 0
        const encoding = response.headers['content-encoding']
        const ageLines = response.headersDistinct.age ?? []
        let body = ''
        const answer = (truncated: boolean): ProbeAnswer => ({
          kind: 'response',
          status,
          headers: response.headers,
          body,
          truncated,
          ageLines
        })
        response.on('error', fail)
        if (lookFor !== undefined && headersShow(response.headers, lookFor)) {
          settle(answer(false), true)
          return
        }
        decoder = decoderFor(encoding)
        const source: Readable = decoder === undefined ? response : response.pipe(decoder)
        const utf8 = new TextDecoder('utf-8')
        let size = 0
        source.on('data', (chunk: Buffer) => {
          if (settled) return
          const room = MAX_DECODED_BYTES - size
          const part = chunk.length > room ? chunk.subarray(0, room) : chunk
          size += part.length
          // The text may straddle two chunks: search from where a match could begin.
          const from = lookFor === undefined ? 0 : Math.max(0, body.length - lookFor.length + 1)
          body += utf8.decode(part, { stream: true })
          if (lookFor !== undefined && body.includes(lookFor, from)) settle(answer(false), true)
          else if (chunk.length > room) settle(answer(true), true)
        })
        source.on('end', () => {
          body += utf8.decode()
          settle(answer(false), false)
        })
        decoder?.on('error', (error: Error & { code?: string }) => {
          const message = `the ${String(encoding)} body could not be decoded: ${error.message}`
          settle({ kind: 'network', code: error.code, message }, true)
        })
      })
      request.end()
    })
  }

  return { get, close }
}

/**
 * At most `count` probes in flight across every origin (the agents bound each origin alone). A
 * stage takes a slot before it decides to start a check, so a check queued past its deadline is
 * not started at all.
 */
export class ProbeSlots {
  private free: number
  private readonly queue: (() => void)[] = []

  constructor(count: number) {
    this.free = Math.max(1, count)
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.free > 0) this.free -= 1
    else await new Promise<void>((resolve) => this.queue.push(resolve))
    try {
      return await task()
    } finally {
      const next = this.queue.shift()
      if (next === undefined) this.free += 1
      else next()
    }
  }
}
