/**
 * One plain `GET` of a page as a visitor gets it, for the wait and verification stages: no token,
 * no redirects followed, the body decoded and read only as far as the caller needs it.
 */
import type * as http from 'node:http'
import { createAgents, type Answer } from './agents.js'
import { codingsOf, decodersFor } from './content-coding.js'
import { exchange, type BodyReader } from './exchange.js'
import { charsetOf, PageTextDecoder } from './page-text.js'
import type { Guard } from '../text/guard.js'

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
const MAX_DECODED_BYTES = 4 * 1024 * 1024

/** The variants visitors get: a CDN caches and purges each encoding's copy on its own. */
const ACCEPT_ENCODING = 'gzip, deflate, br'

/** Whether any value of any header holds `text`. */
export function headersShow(headers: http.IncomingHttpHeaders, text: string): boolean {
  return Object.values(headers)
    .flat()
    .some((value) => value !== undefined && value.includes(text))
}

/**
 * Requests as the purge transport makes them (http/exchange.ts): node's own, which follows no
 * redirect and can be dropped as soon as the text is found, on the same agents.
 */
/** `guard`, the run's, hides its secrets in what a page says before anything cuts it. */
export function createProber(options: {
  userAgent: string
  concurrency: number
  guard: Guard
}): Prober {
  const agents = createAgents(options)
  const headers = { 'User-Agent': options.userAgent, 'Accept-Encoding': ACCEPT_ENCODING }
  return {
    get(url, { timeoutMs, signal, lookFor }) {
      const request = { url, method: 'GET', headers, body: undefined, agents, timeoutMs, signal }
      return exchange(request, (response) => readPage(response, lookFor, options.guard))
    },
    close: agents.close
  }
}

/**
 * A page as the probe reads it: its codings undone, decoded in the charset its `Content-Type`
 * names, up to `MAX_DECODED_BYTES` decoded, and no further than `lookFor` once that shows. A coding
 * edge-purge cannot undo, or a header already showing `lookFor`, ends it before the body.
 */
function readPage(
  response: http.IncomingMessage,
  lookFor: string | undefined,
  guard: Guard
): Answer<PageReading> | BodyReader<PageReading> {
  const encoding = response.headers['content-encoding']
  let body = ''
  const answer = (truncated: boolean, undecodable?: string): Answer<PageReading> => ({
    kind: 'response',
    status: response.statusCode ?? 0,
    headers: response.headers,
    body,
    truncated,
    ageLines: response.headersDistinct.age ?? [],
    undecodable
  })
  const codings = codingsOf(encoding, guard)
  if (codings.kind === 'refused') return answer(false, codings.reason)
  if (lookFor !== undefined && headersShow(response.headers, lookFor)) return answer(false)
  const text = new PageTextDecoder(charsetOf(response.headers['content-type']))
  return {
    limit: MAX_DECODED_BYTES,
    decoding: {
      decoders: decodersFor(codings.codings),
      failure: (error) => `the ${String(encoding)} body could not be decoded: ${error.message}`
    },
    take(part) {
      // The text may straddle two chunks: search from where a match could begin.
      const from = lookFor === undefined ? 0 : Math.max(0, body.length - lookFor.length + 1)
      body += text.write(part)
      return lookFor !== undefined && body.includes(lookFor, from)
    },
    end() {
      body += text.end()
    },
    answer
  }
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
