/**
 * The real-cache test bed: origin → Varnish (xkey, purge) ← management API, all on 127.0.0.1 with
 * free ports and temp dirs. `startTestBed()` starts the three; `stop()` ends them, also after a
 * failure, and leaves no process or directory behind.
 */
import { request } from './http.js'
import { Origin } from './origin.js'
import { PurgeApi, type Role } from './purge-api.js'
import { renderVcl } from './vcl.js'
import { Varnish } from './varnish.js'

export { findVarnishd } from './varnish.js'
export { FIRST_RELEASE, SITE, VERSION_PATH } from './origin.js'

export const SERVICE = 'e2e-site'

/** One API token per permission level of the spec. */
export const TOKENS: Record<Role, string> = {
  purge: 'purge-token',
  billing: 'billing-token',
  engineer: 'engineer-token'
}

/** How one request through Varnish was served, e.g. `HIT v1`, `MISS v2`, `HIT-STALE v1`. */
export type Served = string

/** One page as a visitor gets it through Varnish. */
export interface EdgeCopy {
  /** `X-Cache`: `MISS`, `HIT` or `HIT-STALE`. */
  cache: string
  /** Varnish's `Age` in seconds (0 on a miss, counted from the origin's own `Age` if it sent one). */
  age: number
  /** The origin's version of the page (see Origin). */
  version: number
  /** The release the page was built from. */
  release: string
}

export interface TestBed {
  origin: Origin
  varnish: Varnish
  api: PurgeApi
  /** A request through Varnish: `X-Cache` and the origin's version, as `"<X-Cache> v<version>"`. */
  get(path: string): Promise<Served>
  /** A request through Varnish, told in full. */
  copy(path: string): Promise<EdgeCopy>
  /** `get()` for each path in turn. */
  look(paths: readonly string[]): Promise<Record<string, Served>>
  /** Fetches each path until Varnish serves it from cache (`HIT`), and returns what was served. */
  warm(paths: readonly string[]): Promise<Record<string, Served>>
  stop(): Promise<void>
}

export async function startTestBed({ varnishd }: { varnishd: string }): Promise<TestBed> {
  const stops: (() => Promise<void>)[] = []
  const stop = async (): Promise<void> => {
    const failures: unknown[] = []
    for (const step of stops.reverse()) await step().catch((failure) => failures.push(failure))
    stops.length = 0
    if (failures.length > 0) throw failures[0]
  }
  try {
    const origin = await Origin.start()
    stops.push(() => origin.close())
    const varnish = await Varnish.start({ varnishd, vcl: renderVcl({ originPort: origin.port }) })
    stops.push(() => varnish.stop())
    const api = await PurgeApi.start({
      cacheUrl: varnish.url,
      services: [SERVICE],
      tokens: {
        [TOKENS.purge]: 'purge',
        [TOKENS.billing]: 'billing',
        [TOKENS.engineer]: 'engineer'
      }
    })
    stops.push(() => api.close())

    const copy = async (path: string): Promise<EdgeCopy> => {
      const answer = await request(`${varnish.url}${path}`)
      if (answer.status !== 200)
        throw new Error(`GET ${path} through Varnish: ${answer.status} ${answer.body}`)
      const { release } = JSON.parse(answer.body) as { release: string }
      return {
        cache: String(answer.headers['x-cache']),
        age: Number(answer.headers.age),
        version: Number(answer.headers['x-version']),
        release
      }
    }
    const get = async (path: string): Promise<Served> => {
      const { cache, version } = await copy(path)
      return `${cache} v${version}`
    }
    const look = async (paths: readonly string[]): Promise<Record<string, Served>> => {
      const served: Record<string, Served> = {}
      for (const path of paths) served[path] = await get(path)
      return served
    }
    const warm = async (paths: readonly string[]): Promise<Record<string, Served>> => {
      for (const path of paths) {
        let requests = 1
        while (!(await get(path)).startsWith('HIT ')) {
          requests += 1
          if (requests > 5) throw new Error(`${path} is not served from cache after 5 requests`)
        }
      }
      return look(paths)
    }
    return { origin, varnish, api, get, copy, look, warm, stop }
  } catch (failure) {
    await stop().catch(() => undefined)
    throw failure
  }
}
