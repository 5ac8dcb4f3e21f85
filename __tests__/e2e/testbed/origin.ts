/**
 * The origin behind Varnish: every page carries a version that goes up each time the origin
 * serves it in full, so a test tells a cached copy (old version) from a fresh fetch (new version).
 * It also plays a host that deploys: `/version` answers the release it serves (`no-store`, so
 * Varnish never caches it), every page's body names the release it was built from, and
 * `release()` switches to the next one at the moment a test chooses.
 *
 * - Tags: `Surrogate-Key` (space-separated), which the VCL hands to vmod xkey. See `SITE`.
 * - Lifetimes: `max-age=3600` (nothing expires on its own during a test: only a purge refreshes)
 *   and `stale-while-revalidate=3600`, which Varnish 7.1 turns into one hour of grace, so a
 *   soft-purged object can still be served stale while Varnish fetches the new one.
 * - `ETag: "v<version>"`: Varnish revalidates a soft-purged object with `If-None-Match`. A page
 *   whose content changes (the default) answers 200 with the next version; a page `freeze()`d
 *   answers 304, and the cache keeps its copy.
 * - `age()`: full answers carry `Age`, as from a shield that has held its copy that long, so a test
 *   gets cached copies that are old by their `Age` without waiting for them to age.
 * - A static site too: `upload()` puts a file (an HTML page, a script, a stylesheet) at a path,
 *   served as it is with its own type and keys. Under `/assets/` (a build's hashed files) only
 *   uploaded files exist: any other answers 404, with no `Cache-Control`, as a storage bucket
 *   answers for a file the deploy has not uploaded (yet); the VCL gives such errors a lifetime.
 */
import { LoopbackServer } from '../../../tools/loopback-server.js'
import {
  type IncomingHttpHeaders,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type ServerResponse
} from 'node:http'

/** The site's pages and their surrogate keys; any other path is served untagged. */
export const SITE: Record<string, string[]> = {
  '/blog/1': ['blog'],
  '/blog/2': ['blog'],
  '/product/1': ['product-1', 'products'],
  '/product/2': ['product-2', 'products'],
  '/about': []
}

export const CACHE_CONTROL = 'public, max-age=3600, stale-while-revalidate=3600'

/** The origin's release until a test calls `release()`. */
export const FIRST_RELEASE = 'release-1'

/** Where the origin says which release it serves (its body is that release, nothing else). */
export const VERSION_PATH = '/version'

/** Where a static site keeps its hashed files: the origin has only those `upload()`ed there. */
export const ASSETS_PREFIX = '/assets/'

/** A file of the static site: served as it is, tagged with its surrogate keys. */
export interface StaticFile {
  contentType: string
  body: string
  keys?: string[]
}

export interface OriginRequest {
  method: string
  /** Path and query, as Varnish asked for it: the resource's identity. */
  path: string
  ifNoneMatch: string | undefined
  /** As they arrived: the action's own requests (e.g. for `/version`) must not carry its tokens. */
  headers: IncomingHttpHeaders
  status: number
  version: number
  /** The release the origin served at that moment. */
  release: string
  /** `Date.now()` when it arrived, to order it against other servers' records. */
  at: number
}

export class Origin {
  readonly requests: OriginRequest[] = []
  private readonly versions = new Map<string, number>()
  private readonly frozen = new Set<string>()
  private readonly files = new Map<string, StaticFile>()
  private current = FIRST_RELEASE
  private heldFor = 0

  private constructor(private readonly http: LoopbackServer) {}

  static async start(): Promise<Origin> {
    const http = new LoopbackServer()
    const origin = new Origin(http)
    await http.listen((request, response) => origin.handle(request, response))
    return origin
  }

  get port(): number {
    return this.http.port
  }

  get url(): string {
    return this.http.url
  }

  /** From now on `/version` answers `next` and pages fetched in full are built from it. */
  release(next: string): void {
    this.current = next
  }

  /** From now on full answers say they were produced `seconds` ago (`Age`); 0 stops it. */
  age(seconds: number): void {
    this.heldFor = seconds
  }

  /** `/version` requests that reached the origin. */
  get versionChecks(): OriginRequest[] {
    return this.requestsFor(VERSION_PATH)
  }

  /** From now on the page's content stays as it is: a conditional request gets 304. */
  freeze(path: string): void {
    this.frozen.add(path)
  }

  /** Undoes `freeze()`: from now on the page changes again with each full fetch. */
  thaw(path: string): void {
    this.frozen.delete(path)
  }

  /** From now on `path` serves this file (a deploy uploaded it); it still changes version. */
  upload(path: string, file: StaticFile): void {
    this.files.set(path, file)
  }

  /** The requests for one path that reached the origin (cache misses and revalidations). */
  requestsFor(path: string): OriginRequest[] {
    return this.requests.filter((request) => request.path === path)
  }

  async close(): Promise<void> {
    await this.http.close()
  }

  private handle(request: IncomingMessage, response: ServerResponse): void {
    const path = request.url ?? '/'
    const method = request.method ?? 'GET'
    const ifNoneMatch = request.headers['if-none-match']
    const seen = {
      method,
      path,
      ifNoneMatch,
      headers: request.headers,
      release: this.current,
      at: Date.now()
    }
    if (method !== 'GET' && method !== 'HEAD') {
      this.requests.push({ ...seen, status: 405, version: 0 })
      response.writeHead(405, { Allow: 'GET, HEAD' }).end()
      return
    }
    const pathname = new URL(path, 'http://origin').pathname
    if (pathname === VERSION_PATH) {
      this.requests.push({ ...seen, status: 200, version: 0 })
      const body = `${this.current}\n`
      response.writeHead(200, {
        'Cache-Control': 'no-store',
        'Content-Type': 'text/plain',
        'Content-Length': Buffer.byteLength(body)
      })
      response.end(method === 'HEAD' ? undefined : body)
      return
    }
    const file = this.files.get(pathname)
    if (file === undefined && pathname.startsWith(ASSETS_PREFIX)) {
      this.requests.push({ ...seen, status: 404, version: 0 })
      const body = 'Not Found\n'
      response.writeHead(404, {
        'Content-Type': 'text/plain',
        'Content-Length': Buffer.byteLength(body)
      })
      response.end(method === 'HEAD' ? undefined : body)
      return
    }
    const current = this.versions.get(path) ?? 0
    const unchanged = this.frozen.has(path) && current > 0
    const version = unchanged ? current : current + 1
    this.versions.set(path, version)

    const tags = file?.keys ?? SITE[pathname] ?? []
    const etag = `"v${version}"`
    const headers: OutgoingHttpHeaders = {
      'Cache-Control': CACHE_CONTROL,
      ETag: etag,
      'X-Version': String(version)
    }
    if (tags.length > 0) headers['Surrogate-Key'] = tags.join(' ')
    if (this.heldFor > 0) headers.Age = String(this.heldFor)

    const status = unchanged && ifNoneMatch === etag ? 304 : 200
    this.requests.push({ ...seen, status, version })
    if (status === 304) {
      response.writeHead(304, headers).end()
      return
    }
    const body = file?.body ?? JSON.stringify({ path, version, tags, release: this.current })
    response.writeHead(200, {
      ...headers,
      'Content-Type': file?.contentType ?? 'application/json',
      'Content-Length': Buffer.byteLength(body)
    })
    response.end(method === 'HEAD' ? undefined : body)
  }
}
