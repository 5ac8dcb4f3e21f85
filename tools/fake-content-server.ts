/**
 * A content host and origin on 127.0.0.1 for the wait and edge-check stages and the prober: a
 * version endpoint whose release a test switches, pages with a chosen status, `Age`, headers (a
 * header sent as several lines) and body (optionally gzip-compressed, or raw bytes), per-URL PURGE
 * answered as the spec says, and faults (a status such as 503, or a slow answer) for a number of
 * requests. Every request is recorded with its headers. Given a key and certificate it serves HTTPS,
 * and counts the handshakes a client gave up on too.
 *
 * Pages do not change on a purge: a test says what the edge serves, so a lying purge API and an
 * honest one are the same to this server.
 */
import { LoopbackServer, type TlsIdentity } from './loopback-server.js'
import {
  type IncomingHttpHeaders,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type ServerResponse
} from 'node:http'
import { gzipSync } from 'node:zlib'

/** Where the origin says which release it serves: its body is that release, nothing else. */
export const VERSION_PATH = '/version'

export interface Page {
  /** Default 200. */
  status?: number
  /** Sent as the `Age` header; absent when undefined. */
  age?: number
  /** An array is sent as one header line per value, as an intermediary may (`Age: 0`, `Age: 7200`). */
  headers?: Record<string, string | string[]>
  /** Bytes are sent as they are: a test gives them already encoded, with the headers that say how. */
  body?: string | Buffer
  /** Send the body gzip-compressed, with `Content-Encoding: gzip`. */
  gzip?: boolean
}

export interface ContentRequest {
  method: string
  path: string
  headers: IncomingHttpHeaders
  /** When it arrived (ms epoch), to order it against the purge API's requests. */
  at: number
}

export interface ContentFault {
  path: string
  /** Default GET: the stages' checks. */
  method?: string
  /** How many matching requests it applies to; default 1. */
  times?: number
  /** A status such as 503 instead of the answer, or the answer after a pause. */
  action: { kind: 'status'; status: number } | { kind: 'delay'; ms: number }
}

export class FakeContentServer {
  readonly requests: ContentRequest[] = []
  /** Requests being answered now, and the most there have been at once. */
  inFlight = 0
  maxInFlight = 0
  /**
   * TCP connections accepted: over HTTPS each is a handshake begun, including one the client ended
   * because it did not trust the certificate, which no request follows.
   */
  connections = 0
  private readonly pages = new Map<string, Page>()
  private releases: string[] = ['release-1']
  private faults: Required<ContentFault>[] = []
  private purgeIds = 0
  private readonly timers = new Set<NodeJS.Timeout>()

  private constructor(private readonly http: LoopbackServer) {}

  static async start(options: { tls?: TlsIdentity } = {}): Promise<FakeContentServer> {
    const http = new LoopbackServer({}, options.tls)
    const fake = new FakeContentServer(http)
    http.server.on('connection', () => (fake.connections += 1))
    await http.listen((request, response) => void fake.handle(request, response))
    return fake
  }

  get url(): string {
    return this.http.url
  }

  urlOf(path: string): string {
    return `${this.url}${path}`
  }

  /**
   * The version endpoint answers these releases to the next requests in turn, then the last one
   * from then on: a test scripts an origin that flips between releases without racing its checks.
   */
  release(...releases: [string, ...string[]]): void {
    this.releases = [...releases]
  }

  page(path: string, page: Page): void {
    this.pages.set(path, page)
  }

  fault({ path, method = 'GET', times = 1, action }: ContentFault): void {
    this.faults.push({ path, method, times, action })
  }

  /** The GETs of `path` that arrived: the stages' checks. */
  gets(path: string): ContentRequest[] {
    return this.requests.filter((request) => request.method === 'GET' && request.path === path)
  }

  get purges(): ContentRequest[] {
    return this.requests.filter((request) => request.method === 'PURGE')
  }

  async close(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer)
    await this.http.close()
  }

  private takeFault(method: string, path: string): ContentFault['action'] | undefined {
    const fault = this.faults.find(
      (candidate) => candidate.method === method && candidate.path === path
    )
    if (fault === undefined) return undefined
    fault.times -= 1
    if (fault.times <= 0) this.faults = this.faults.filter((candidate) => candidate !== fault)
    return fault.action
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.timers.delete(timer)
        resolve()
      }, ms)
      this.timers.add(timer)
    })
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const method = request.method ?? ''
    const path = request.url ?? '/'
    this.requests.push({ method, path, headers: request.headers, at: Date.now() })
    request.resume()
    this.inFlight += 1
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight)
    try {
      await this.answer(method, path, response)
    } finally {
      this.inFlight -= 1
    }
  }

  private async answer(method: string, path: string, response: ServerResponse): Promise<void> {
    const fault = this.takeFault(method, path)
    if (fault?.kind === 'delay') await this.sleep(fault.ms)
    if (fault?.kind === 'status') {
      send(response, fault.status, { 'Content-Type': 'text/plain' }, 'upstream unavailable')
      return
    }
    if (method === 'PURGE') {
      this.purgeIds += 1
      send(response, 200, { 'Content-Type': 'application/json' }, purgeAnswer(this.purgeIds))
      return
    }
    if (method !== 'GET') {
      send(response, 405, { Allow: 'GET, PURGE' }, '')
      return
    }
    if (path === VERSION_PATH) {
      const [current, ...rest] = this.releases as [string, ...string[]]
      if (rest.length > 0) this.releases = rest
      send(response, 200, { 'Cache-Control': 'no-store' }, `${current}\n`)
      return
    }
    const page = this.pages.get(path)
    if (page === undefined) {
      send(response, 404, { 'Content-Type': 'text/plain' }, 'no such page')
      return
    }
    const headers: OutgoingHttpHeaders = { 'Content-Type': 'text/html', ...page.headers }
    if (page.age !== undefined) headers.Age = String(page.age)
    const text = page.body ?? ''
    if (page.gzip === true) headers['Content-Encoding'] = 'gzip'
    send(response, page.status ?? 200, headers, page.gzip === true ? gzipSync(text) : text)
  }
}

function purgeAnswer(sequence: number): string {
  return JSON.stringify({ status: 'ok', id: `${1750000 + sequence}-1756794994-1` })
}

function send(
  response: ServerResponse,
  status: number,
  headers: OutgoingHttpHeaders,
  body: string | Buffer
): void {
  if (response.destroyed) return
  response.writeHead(status, { ...headers, 'Content-Length': Buffer.byteLength(body) })
  response.end(body)
}
