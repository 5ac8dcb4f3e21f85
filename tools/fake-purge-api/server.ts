/**
 * A purge API on 127.0.0.1 that implements the spec strictly (methods, paths, headers, roles, JSON
 * shapes), records every request, and injects faults. Also answers per-URL PURGE as a content host.
 * The request rules themselves are in `rules.ts`, shared with the e2e test bed's API.
 */
import { LoopbackServer, type TlsIdentity } from '../loopback-server.js'
import { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import {
  json,
  parseManagementRequest,
  roleOf,
  softPurge,
  unauthorized,
  type Reply,
  type Role
} from './rules.js'

export type { Role } from './rules.js'

export interface RecordedRequest {
  method: string
  /** The raw request target, exactly as sent (percent-encoding kept). */
  path: string
  headers: IncomingHttpHeaders
  body: string
  /** Which TCP connection carried it (1, 2, ...). */
  connection: number
  /** When its body had arrived (ms epoch). */
  receivedAt: number
}

export type FaultAction =
  | { kind: 'reply'; status: number; headers?: Record<string, string>; body?: string }
  | { kind: 'reset' }
  /** Answers normally, after a pause. */
  | { kind: 'delay'; ms: number }
  | { kind: 'omit'; keys: string[] }

export interface Fault {
  match?: (request: RecordedRequest) => boolean
  /** How many matching requests it applies to; unlimited when absent. */
  times?: number
  action: FaultAction
}

export interface Purged {
  service: string
  key: string
  soft: boolean
}

export interface FakeServerOptions {
  /** Token → role. Default: one token, `test-token`, with engineer role. */
  tokens?: Record<string, Role>
  /** Known service ids. Default: `svc123`. */
  services?: string[]
  /** Added to every answer, for benchmarks. */
  latencyMs?: number
  /** Whether per-URL PURGE requires a valid Edge-Key (disabled by default, as in the spec). */
  urlPurgeAuth?: boolean
  /** Serve HTTPS with this key and certificate (the bench's network mode); plain HTTP without. */
  tls?: TlsIdentity
}

export class FakePurgeServer {
  readonly requests: RecordedRequest[] = []
  readonly purgedKeys: Purged[] = []
  readonly purgedUrls: { url: string; soft: boolean }[] = []
  readonly purgeAlls: string[] = []
  inFlight = 0
  maxInFlight = 0
  connections = 0
  private faults: Fault[] = []
  private sequence = 0
  private readonly connectionNumbers = new WeakMap<Socket, number>()
  /** Ends the pauses of answers still waiting when the server closes, so no timer outlives it. */
  private readonly closing = new AbortController()

  private constructor(
    private readonly http: LoopbackServer,
    private readonly options: Required<Omit<FakeServerOptions, 'tls'>>,
    /** Whether it serves HTTPS; known without asking the server, which may be closed mid-request. */
    private readonly tls: boolean
  ) {}

  static async start(options: FakeServerOptions = {}): Promise<FakePurgeServer> {
    const settings: Required<Omit<FakeServerOptions, 'tls'>> = {
      tokens: options.tokens ?? { 'test-token': 'engineer' },
      services: options.services ?? ['svc123'],
      latencyMs: options.latencyMs ?? 0,
      urlPurgeAuth: options.urlPurgeAuth ?? false
    }
    // Node's own 16 KiB header limit would answer 431 before a full 16 KiB Surrogate-Key reached the
    // API's check; real purge APIs take that header whole.
    const http = new LoopbackServer({ maxHeaderSize: 64 * 1024 }, options.tls)
    const fake = new FakePurgeServer(http, settings, options.tls !== undefined)
    http.onConnection((socket: Socket) => {
      fake.connections += 1
      fake.connectionNumbers.set(socket, fake.connections)
    })
    await http.listen((request, response) => void fake.handle(request, response))
    return fake
  }

  get url(): string {
    return this.http.url
  }

  fault(fault: Fault): void {
    this.faults.push(fault)
  }

  async close(): Promise<void> {
    this.closing.abort()
    await this.http.close()
  }

  private nextId(parts: 3 | 4): string {
    this.sequence += 1
    const base = `${1740000 + this.sequence}-1756794994-${11990000 + this.sequence}`
    return parts === 4 ? `${base}-1` : base
  }

  private takeFault(request: RecordedRequest): FaultAction | undefined {
    const fault = this.faults.find(
      (candidate) => candidate.match === undefined || candidate.match(request)
    )
    if (fault === undefined) return undefined
    if (fault.times !== undefined) {
      fault.times -= 1
      if (fault.times <= 0) this.faults = this.faults.filter((candidate) => candidate !== fault)
    }
    return fault.action
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    this.inFlight += 1
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight)
    const chunks: Buffer[] = []
    for await (const chunk of request) chunks.push(chunk as Buffer)
    const recorded: RecordedRequest = {
      method: request.method ?? '',
      path: request.url ?? '',
      headers: request.headers,
      body: Buffer.concat(chunks).toString('utf8'),
      connection: this.connectionNumbers.get(request.socket) ?? 0,
      receivedAt: Date.now()
    }
    this.requests.push(recorded)
    try {
      const fault = this.takeFault(recorded)
      const { signal } = this.closing
      if (this.options.latencyMs > 0) await sleep(this.options.latencyMs, signal)
      if (fault?.kind === 'delay') await sleep(fault.ms, signal)
      if (signal.aborted) return
      if (fault?.kind === 'reset') {
        request.socket.destroy()
        return
      }
      const reply =
        fault?.kind === 'reply'
          ? { status: fault.status, body: fault.body ?? '', headers: fault.headers }
          : this.answer(recorded, fault?.kind === 'omit' ? fault.keys : [])
      if (response.destroyed) return
      const body = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body)
      const headers = typeof reply.body === 'string' ? {} : { 'Content-Type': 'application/json' }
      response.writeHead(reply.status, { ...headers, ...reply.headers })
      response.end(body)
    } finally {
      this.inFlight -= 1
    }
  }

  /** The spec's behaviour for a request, without faults. */
  private answer(request: RecordedRequest, omit: string[]): Reply {
    if (request.method === 'PURGE') return this.answerUrlPurge(request)
    const operation = parseManagementRequest(request, this.options)
    switch (operation.kind) {
      case 'refused':
        return operation.reply
      case 'purge-all':
        this.purgeAlls.push(operation.service)
        return json(200, { status: 'ok' })
      case 'key':
      case 'soft-key': {
        const { service, key } = operation
        this.purgedKeys.push({ service, key, soft: operation.kind === 'soft-key' })
        return json(200, { status: 'ok', id: this.nextId(3) })
      }
      case 'batch': {
        const ids: Record<string, string> = {}
        for (const key of operation.keys) {
          if (omit.includes(key)) continue
          this.purgedKeys.push({ service: operation.service, key, soft: false })
          ids[key] = this.nextId(4)
        }
        return json(200, ids)
      }
    }
  }

  private answerUrlPurge(request: RecordedRequest): Reply {
    if (this.options.urlPurgeAuth && roleOf(request.headers, this.options.tokens) === undefined) {
      return unauthorized()
    }
    const soft = softPurge(request.headers)
    if (typeof soft !== 'boolean') return soft
    const host = request.headers.host ?? ''
    const scheme = this.tls ? 'https' : 'http'
    this.purgedUrls.push({ url: `${scheme}://${host}${request.path}`, soft })
    return json(200, { status: 'ok', id: this.nextId(3) })
  }
}

/** Resolves after `ms`, or at once when `signal` aborts (the server closing): never rejects. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve()
    const done = (): void => {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      resolve()
    }
    const timer = setTimeout(done, ms)
    signal.addEventListener('abort', done, { once: true })
  })
}
