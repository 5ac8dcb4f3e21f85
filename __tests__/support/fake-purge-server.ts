/**
 * A purge API on 127.0.0.1 that implements the spec strictly (methods, paths, headers, roles, JSON
 * shapes), records every request, and injects faults. Also answers per-URL PURGE as a content host.
 */
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse
} from 'node:http'
import type { AddressInfo, Socket } from 'node:net'

/** Permission levels named by the spec, lowest first. */
export type Role = 'purge' | 'billing' | 'engineer'
const RANK: Record<Role, number> = { purge: 0, billing: 1, engineer: 2 }

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
}

type Reply = { status: number; body: unknown; headers?: Record<string, string> }

const json = (status: number, body: unknown): Reply => ({ status, body })
const error = (status: number, msg: string, detail?: string): Reply =>
  json(status, detail === undefined ? { msg } : { msg, detail })

const MAX_BATCH = 256
const MAX_HEADER_BYTES = 16 * 1024

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
  private readonly sockets = new Set<Socket>()
  private readonly connectionNumbers = new WeakMap<Socket, number>()

  private constructor(
    private readonly server: Server,
    private readonly options: Required<FakeServerOptions>
  ) {}

  static async start(options: FakeServerOptions = {}): Promise<FakePurgeServer> {
    const settings: Required<FakeServerOptions> = {
      tokens: options.tokens ?? { 'test-token': 'engineer' },
      services: options.services ?? ['svc123'],
      latencyMs: options.latencyMs ?? 0,
      urlPurgeAuth: options.urlPurgeAuth ?? false
    }
    const server = createServer()
    const fake = new FakePurgeServer(server, settings)
    server.on('connection', (socket: Socket) => {
      fake.connections += 1
      fake.connectionNumbers.set(socket, fake.connections)
      fake.sockets.add(socket)
      socket.on('close', () => fake.sockets.delete(socket))
    })
    server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      void fake.handle(request, response)
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    return fake
  }

  get url(): string {
    const { port } = this.server.address() as AddressInfo
    return `http://127.0.0.1:${port}`
  }

  fault(fault: Fault): void {
    this.faults.push(fault)
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy()
    await new Promise<void>((resolve) => this.server.close(() => resolve()))
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
      if (this.options.latencyMs > 0) await sleep(this.options.latencyMs)
      if (fault?.kind === 'delay') await sleep(fault.ms)
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

  private role(headers: IncomingHttpHeaders): Role | undefined {
    const token = headers['edge-key']
    return typeof token === 'string' ? this.options.tokens[token] : undefined
  }

  /** The spec's behaviour for a request, without faults. */
  private answer(request: RecordedRequest, omit: string[]): Reply {
    const soft = request.headers['edge-soft-purge'] !== undefined
    if (request.method === 'PURGE') return this.answerUrlPurge(request, soft)

    const match = /^\/service\/([^/]+)\/(purge_all|purge|purge\/([^/]+))$/.exec(request.path)
    if (match === null)
      return error(404, 'Not found', `No route for ${request.method} ${request.path}`)
    if (request.method !== 'POST') return error(405, 'Method not allowed')
    const role = this.role(request.headers)
    if (role === undefined) return error(401, 'Provided credentials are missing or invalid')
    if (request.headers.accept !== 'application/json')
      return error(406, 'Accept: application/json is required')
    if (soft && request.headers['edge-soft-purge'] !== '1')
      return error(400, 'Edge-Soft-Purge must be 1')
    const service = decodeURIComponent(match[1] ?? '')
    if (!this.options.services.includes(service))
      return error(404, 'Record not found', 'Cannot find service')

    if (match[2] === 'purge_all') {
      if (soft) return error(400, 'Bad request', 'purge_all cannot be soft')
      if (RANK[role] < RANK.engineer) return error(403, 'Forbidden', 'Engineer permission required')
      if (request.body !== '') return error(400, 'Bad request', 'purge_all takes no body')
      this.purgeAlls.push(service)
      return json(200, { status: 'ok' })
    }
    if (match[3] !== undefined) {
      if (soft && RANK[role] < RANK.billing)
        return error(403, 'Forbidden', 'Billing permission required')
      if (request.body !== '') return error(400, 'Bad request', 'single-key purge takes no body')
      const key = decodeURIComponent(match[3])
      this.purgedKeys.push({ service, key, soft })
      return json(200, { status: 'ok', id: this.nextId(3) })
    }
    return this.answerBatch(request, service, soft, omit)
  }

  private answerBatch(
    request: RecordedRequest,
    service: string,
    soft: boolean,
    omit: string[]
  ): Reply {
    if (soft) return error(400, 'Bad request', 'the batch purge has no soft form')
    const header = request.headers['surrogate-key']
    let keys: string[]
    if (typeof header === 'string') {
      if (request.body !== '')
        return error(400, 'Bad request', 'give keys in a header or a body, not both')
      if (Buffer.byteLength(header) > MAX_HEADER_BYTES)
        return error(400, 'Bad request', 'Surrogate-Key header over 16 KiB')
      if (/^ | $| {2}/.test(header))
        return error(400, 'Bad request', 'keys are separated by single spaces')
      keys = header.split(' ')
    } else {
      if (request.headers['content-type'] !== 'application/json') {
        return error(415, 'Unsupported media type', 'Content-Type: application/json is required')
      }
      let parsed: unknown
      try {
        parsed = JSON.parse(request.body)
      } catch {
        return error(400, 'Bad request', 'body is not JSON')
      }
      const list = (parsed as { surrogate_keys?: unknown }).surrogate_keys
      if (
        !Array.isArray(list) ||
        list.length === 0 ||
        !list.every((key) => typeof key === 'string')
      ) {
        return error(400, 'Bad request', 'surrogate_keys must be a non-empty array of strings')
      }
      keys = list as string[]
    }
    if (keys.length > MAX_BATCH) {
      return error(
        400,
        'Bad request',
        'Batch surrogate key request only supports up to 256 surrogate keys'
      )
    }
    const ids: Record<string, string> = {}
    for (const key of keys) {
      if (omit.includes(key)) continue
      this.purgedKeys.push({ service, key, soft: false })
      ids[key] = this.nextId(4)
    }
    return json(200, ids)
  }

  private answerUrlPurge(request: RecordedRequest, soft: boolean): Reply {
    if (this.options.urlPurgeAuth && this.role(request.headers) === undefined) {
      return error(401, 'Provided credentials are missing or invalid')
    }
    if (soft && request.headers['edge-soft-purge'] !== '1')
      return error(400, 'Edge-Soft-Purge must be 1')
    const host = request.headers.host ?? ''
    this.purgedUrls.push({ url: `http://${host}${request.path}`, soft })
    return json(200, { status: 'ok', id: this.nextId(3) })
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
