/**
 * One plain `GET` of a page as a visitor gets it, for the wait and verification stages: no token,
 * no redirects followed, the body decoded and read only as far as the caller needs it.
 */
import * as http from 'node:http'
import * as https from 'node:https'
import { pipeline, type Readable, type Transform } from 'node:stream'
import { createAgents, type Answer } from './agents.js'
import { codingsOf, decodersFor } from './content-coding.js'
import { charsetOf, PageTextDecoder } from './page-text.js'

/** What a page probe reads beyond what every answer has. */
export interface PageReading {
  /** Every `Age` line as sent, in order: node's `headers.age` keeps only the first. */
  ageLines: string[]
  /** Why the body was not read (a `Content-Encoding` edge-purge cannot undo); undefined when it was. */
  undecodable: string | undefined
}

export interface ProbeOptions {
  timeoutMs: number
  signal: AbortSignal
  /** Text the caller looks for: reading stops once the headers or the decoded body show it. */
  lookFor: string | undefined
}

export interface Prober {
  get(url: string, options: ProbeOptions): Promise<Answer<PageReading>>
  close(): void
}

/**
 * Pages are bigger than purge answers, and a version string may sit near the end of one, but a
 * hostile or runaway page (or a compression bomb) must not fill the runner's memory.
 */
export const MAX_DECODED_BYTES = 4 * 1024 * 1024

/** The variants visitors get: a CDN caches and purges each encoding's copy on its own. */
const ACCEPT_ENCODING = 'gzip, deflate, br'

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

  function get(
    url: string,
    { timeoutMs, signal, lookFor }: ProbeOptions
  ): Promise<Answer<PageReading>> {
    if (signal.aborted) return Promise.resolve({ kind: 'cancelled' })
    const target = new URL(url)
    const module = target.protocol === 'https:' ? https : http
    const headers = { 'User-Agent': options.userAgent, 'Accept-Encoding': ACCEPT_ENCODING }

    return new Promise((resolve) => {
      const request = module.request(target, { method: 'GET', headers, agent: agentFor(target) })
      let decoders: Transform[] = []
      let settled = false
      /**
       * `drop` closes the connection: the rest of the body is not wanted, or never came. Dropping it
       * does not stop the decoders: they would inflate what they hold already (a compression bomb's
       * gigabytes from a few kilobytes) and keep the process alive while they do.
       */
      const settle = (answer: Answer<PageReading>, drop: boolean): void => {
        if (settled) return
        settled = true
        clearTimeout(timer)
        signal.removeEventListener('abort', cancel)
        if (drop) {
          request.destroy()
          for (const decoder of decoders) decoder.destroy()
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
        const answer = (truncated: boolean, undecodable?: string): Answer<PageReading> => ({
          kind: 'response',
          status,
          headers: response.headers,
          body,
          truncated,
          ageLines,
          undecodable
        })
        response.on('error', fail)
        const codings = codingsOf(encoding)
        if (codings.kind === 'refused') {
          settle(answer(false, codings.reason), true)
          return
        }
        if (lookFor !== undefined && headersShow(response.headers, lookFor)) {
          settle(answer(false), true)
          return
        }
        decoders = decodersFor(codings.codings)
        const source: Readable = decoders.at(-1) ?? response
        if (decoders.length > 0) {
          pipeline([response, ...decoders], (error: NodeJS.ErrnoException | null | undefined) => {
            if (error === null || error === undefined || settled) return
            const message = `the ${String(encoding)} body could not be decoded: ${error.message}`
            settle({ kind: 'network', code: error.code, message }, true)
          })
        }
        const text = new PageTextDecoder(charsetOf(response.headers['content-type']))
        let size = 0
        source.on('data', (chunk: Buffer) => {
          if (settled) return
          const room = MAX_DECODED_BYTES - size
          const part = chunk.length > room ? chunk.subarray(0, room) : chunk
          size += part.length
          // The text may straddle two chunks: search from where a match could begin.
          const from = lookFor === undefined ? 0 : Math.max(0, body.length - lookFor.length + 1)
          body += text.write(part)
          if (lookFor !== undefined && body.includes(lookFor, from)) settle(answer(false), true)
          else if (chunk.length > room) settle(answer(true), true)
        })
        source.on('end', () => {
          body += text.end()
          settle(answer(false), false)
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
 * not started at all; `task` is told whether it waited for its slot.
 */
export class ProbeSlots {
  private free: number
  private readonly queue: (() => void)[] = []

  constructor(count: number) {
    this.free = Math.max(1, count)
  }

  async run<T>(task: (queued: boolean) => Promise<T>): Promise<T> {
    const queued = this.free === 0
    if (queued) await new Promise<void>((resolve) => this.queue.push(resolve))
    else this.free -= 1
    try {
      return await task(queued)
    } finally {
      const next = this.queue.shift()
      if (next === undefined) this.free += 1
      else next()
    }
  }
}
