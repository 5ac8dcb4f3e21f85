/**
 * The spec's management interface in front of a real Varnish. VCL cannot parse JSON bodies, so this
 * small server checks the request (route, Edge-Key and role, Accept, body: the rules shared with the
 * fake, in `tools/fake-purge-api/rules.ts`) and translates it into requests the VCL turns into real
 * invalidations:
 *
 * | API call                                        | Sent to Varnish                          |
 * | ----------------------------------------------- | ---------------------------------------- |
 * | `POST /service/{id}/purge_all` (Engineer)       | `BAN /` → `std.ban("obj.status != 0")`   |
 * | `POST /service/{id}/purge/{key}`                | `XKEY /`, `xkey-purge: key`              |
 * | same with `Edge-Soft-Purge: 1` (Billing)        | `XKEY /`, `xkey-softpurge: key`          |
 * | `POST /service/{id}/purge`, JSON body or header | one `XKEY /`, `xkey-purge` per key       |
 *
 * Each key's purge id is the one Varnish answered (`<vxid>-<epoch>-<objects>`), and every
 * invalidation is recorded with the number of objects Varnish reports it touched. A test can
 * `hold()` a request (recorded, nothing invalidated yet) to act at a precise point of a run, or make
 * the API `lie()`: accepted calls are answered as usual but invalidate nothing, as when a purge
 * reaches the wrong service or a layer the edge does not read from.
 */
import { LoopbackServer } from '../../../tools/loopback-server.js'
import { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http'
import {
  error,
  json,
  parseManagementRequest,
  type PurgeApiRules,
  type Reply,
  type Role
} from '../../../tools/fake-purge-api/rules.js'
import { request as httpRequest } from './http.js'

export type { Role } from '../../../tools/fake-purge-api/rules.js'

export interface ApiRequest {
  method: string
  path: string
  headers: IncomingHttpHeaders
  body: string
  status: number
  /** `Date.now()` when it arrived, to order it against the origin's records. */
  at: number
}

export interface Invalidation {
  service: string
  operation: 'purge-all' | 'key' | 'soft-key'
  /** The key; undefined for a purge-all. */
  key: string | undefined
  /** Objects Varnish reported invalidated (a ban reports none: it is applied lazily). */
  objects: number
  /** The id Varnish answered. */
  id: string
}

export interface PurgeApiOptions {
  /** The Varnish that does the invalidating (its ACL must admit 127.0.0.1). */
  cacheUrl: string
  tokens: Record<string, Role>
  services: string[]
}

/** vmod xkey splits its argument on spaces and commas, so such a key cannot be addressed alone. */
const XKEY_SEPARATOR = /[ ,]/

class CacheError extends Error {}

/** A request held before it is answered: see `PurgeApi.hold()`. */
export interface Hold {
  /** Resolves with the held request once it has arrived. */
  arrived: Promise<ApiRequest>
  /** Lets the request (if it arrived, or when it does) go on; idempotent. */
  release(): void
}

interface PendingHold {
  match: (request: ApiRequest, index: number) => boolean
  arrive: (request: ApiRequest) => void
  released: Promise<void>
  release: () => void
}

export class PurgeApi {
  readonly requests: ApiRequest[] = []
  readonly invalidations: Invalidation[] = []
  private readonly holds: PendingHold[] = []
  private lying = false
  private lies = 0
  /** The shared rules, with two checks the fake leaves out: no `?` in the route, no empty key. */
  private readonly rules: PurgeApiRules

  private constructor(
    private readonly http: LoopbackServer,
    private readonly options: PurgeApiOptions
  ) {
    const { tokens, services } = options
    this.rules = { tokens, services, queryFindsNoRoute: true, refuseEmptyKeys: true }
  }

  static async start(options: PurgeApiOptions): Promise<PurgeApi> {
    // Node's own 16 KiB header limit would answer 431 before a full 16 KiB Surrogate-Key reached the
    // API's check; real purge APIs take that header whole.
    const http = new LoopbackServer({ maxHeaderSize: 64 * 1024 })
    const api = new PurgeApi(http, options)
    await http.listen((incoming, response) => void api.handle(incoming, response))
    return api
  }

  get url(): string {
    return this.http.url
  }

  /**
   * Holds the first request `match` accepts (given the request and its index in `requests`): it is
   * recorded, then waits before anything is checked or invalidated until `release()`. The caller
   * acts at that point of a run without racing it, e.g. between the two passes of repeat-after.
   */
  hold(match: (request: ApiRequest, index: number) => boolean): Hold {
    let arrive: (request: ApiRequest) => void = () => undefined
    const arrived = new Promise<ApiRequest>((resolve) => (arrive = resolve))
    let release: () => void = () => undefined
    const released = new Promise<void>((resolve) => (release = resolve))
    this.holds.push({ match, arrive, released, release })
    return { arrived, release }
  }

  /**
   * From now on every call the API accepts is answered `ok`, with ids (`lie-<n>`), and nothing is
   * invalidated or recorded in `invalidations`; refusals (token, role, route) are answered as ever.
   */
  lie(): void {
    this.lying = true
  }

  async close(): Promise<void> {
    for (const pending of this.holds.splice(0)) pending.release()
    await this.http.close()
  }

  private async handle(incoming: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = []
    for await (const chunk of incoming) chunks.push(chunk as Buffer)
    const recorded: ApiRequest = {
      method: incoming.method ?? '',
      path: incoming.url ?? '',
      headers: incoming.headers,
      body: Buffer.concat(chunks).toString('utf8'),
      status: 0,
      at: Date.now()
    }
    this.requests.push(recorded)
    const index = this.requests.length - 1
    const held = this.holds.findIndex((pending) => pending.match(recorded, index))
    if (held !== -1) {
      const [pending] = this.holds.splice(held, 1)
      pending?.arrive(recorded)
      await pending?.released
    }
    let reply: Reply
    try {
      reply = await this.answer(recorded)
    } catch (failure) {
      const detail = failure instanceof Error ? failure.message : String(failure)
      reply = error(failure instanceof CacheError ? 502 : 500, 'Purge failed', detail)
    }
    recorded.status = reply.status
    const body = JSON.stringify(reply.body)
    response.writeHead(reply.status, {
      'Content-Type': 'application/json',
      'Content-Length': Buffer.byteLength(body)
    })
    response.end(body)
  }

  private async answer(request: ApiRequest): Promise<Reply> {
    const operation = parseManagementRequest(request, this.rules)
    switch (operation.kind) {
      case 'refused':
        return operation.reply
      case 'purge-all':
        await this.perform(operation.service, 'purge-all', undefined, 'BAN', {})
        return json(200, { status: 'ok' })
      case 'key':
      case 'soft-key': {
        const { service, key } = operation
        if (XKEY_SEPARATOR.test(key) || key === '')
          return error(400, 'Bad request', 'a key cannot contain spaces or commas')
        const id = await this.purgeKey(service, key, operation.kind === 'soft-key')
        return json(200, { status: 'ok', id })
      }
      case 'batch': {
        const { service, keys } = operation
        if (keys.some((key) => XKEY_SEPARATOR.test(key)))
          return error(400, 'Bad request', 'a key cannot contain spaces or commas')
        const ids: Record<string, string> = {}
        for (const key of keys) ids[key] = await this.purgeKey(service, key, false)
        return json(200, ids)
      }
    }
  }

  private purgeKey(service: string, key: string, soft: boolean): Promise<string> {
    const header = soft ? 'xkey-softpurge' : 'xkey-purge'
    return this.perform(service, soft ? 'soft-key' : 'key', key, 'XKEY', { [header]: key })
  }

  /** Has Varnish invalidate and records it, or, while lying, only makes up the id. */
  private async perform(
    service: string,
    operation: Invalidation['operation'],
    key: string | undefined,
    method: 'XKEY' | 'BAN',
    headers: Record<string, string>
  ): Promise<string> {
    if (this.lying) {
      this.lies += 1
      return `lie-${this.lies}`
    }
    const { id, objects } = await this.invalidate(method, headers)
    this.invalidations.push({ service, operation, key, objects, id })
    return id
  }

  /** One request to Varnish's VCL, which performs the invalidation and answers its id and count. */
  private async invalidate(
    method: 'XKEY' | 'BAN',
    headers: Record<string, string>
  ): Promise<{ id: string; objects: number }> {
    const answer = await httpRequest(`${this.options.cacheUrl}/`, { method, headers }).catch(
      (failure: Error) => {
        throw new CacheError(`Varnish unreachable: ${failure.message}`)
      }
    )
    const parsed = parseJsonObject(answer.body)
    const id = parsed?.id
    const objects = Number(answer.headers['x-purged'])
    if (answer.status !== 200 || typeof id !== 'string' || !Number.isInteger(objects))
      throw new CacheError(`Varnish answered ${method} with ${answer.status}: ${answer.body}`)
    return { id, objects }
  }
}

function parseJsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text)
    return typeof value === 'object' && value !== null
      ? (value as Record<string, unknown>)
      : undefined
  } catch {
    return undefined
  }
}
