/**
 * One check of a file a page loads (issue 39, step 2): a `GET` as a visitor sends it, redirects
 * followed, and what its final answer says of the file: whole, missing (from the cache or not),
 * failing (5xx, worth asking again), or proving neither.
 */
import type { IncomingHttpHeaders } from 'node:http'
import type { Answer } from '../../../http/agents.js'
import { observe, saysHit } from '../../../http/observation.js'
import { safeGet, timeoutBefore, type PageCheckDeps } from '../../../http/page-checks.js'
import type { PageReading } from '../../../http/probe.js'
import { headerValue } from '../../../http/retry-policy.js'
import { shownUrl } from '../../../text/shown.js'

/** What a file's final answer says of it. */
type FileReading = 'whole' | 'missing' | 'failing' | 'unjudged'

export interface FileAnswer {
  reading: FileReading
  /** The final answer's status; null when none came. */
  status: number | null
  /** The final answer's `Age` in whole seconds; null when absent or malformed. */
  age: number | null
  /** Where the answer came from: the file's URL, or where its redirects led. */
  url: string
  /** The answer came from a cache: `Age` > 0, or a cache status header saying hit. */
  cached: boolean
  /** What it showed, in a few words, outside text guarded: `HTTP 404 (Age 120 s, X-Cache: HIT)`. */
  shown: string
}

/** Where a check stands when it ends; `cancelled` records nothing. */
type FileCheck = FileAnswer | { reading: 'cancelled' }

/** The issue's bound: a sixth redirect is not followed. */
const MAX_REDIRECTS = 5

/** The redirect statuses the Fetch standard follows; a 300 or 304 is an answer, not a way on. */
const REDIRECTS: ReadonlySet<number> = new Set([301, 302, 303, 307, 308])

/**
 * The file's answer, following up to `MAX_REDIRECTS` redirects on any host. Every request's
 * timeout is cut to the time left before `deadline`, and no redirect is followed after it, so a
 * check ends within one request timeout of the deadline. The caller decides whether the first
 * request may start.
 */
export async function getFile(
  url: string,
  deadline: number,
  requestTimeoutMs: number,
  { prober, clock, signal, guard }: PageCheckDeps
): Promise<FileCheck> {
  let current = url
  for (let redirects = 0; ; redirects++) {
    const timeoutMs = timeoutBefore(deadline, clock.now(), requestTimeoutMs)
    const answer = await safeGet(prober, current, { timeoutMs, signal, lookFor: undefined })
    if (answer.kind === 'cancelled' || signal.aborted) return { reading: 'cancelled' }
    const next = answer.kind === 'response' ? redirectTarget(answer, current) : undefined
    const read = readAnswer(answer, current, redirects, guard)
    if (next === undefined) return read
    const where = `redirected to ${shownUrl(guard, next)}`
    // A redirect loop or a long chain proves neither that the file loads nor that it is missing.
    if (redirects === MAX_REDIRECTS) {
      return unjudged(read, `${where}: more than ${MAX_REDIRECTS} redirects, not followed`)
    }
    if (clock.now() > deadline) {
      return unjudged(read, `${where}, not followed: no time left within verify-timeout`)
    }
    current = next
  }
}

function unjudged(read: FileAnswer, why: string): FileAnswer {
  return { ...read, reading: 'unjudged', shown: `${read.shown}, ${why}` }
}

/** Where a redirect leads, fragment dropped; undefined for an answer that is not one. */
function redirectTarget(answer: { status: number; headers: IncomingHttpHeaders }, from: string) {
  const location = headerValue(answer.headers, 'location')
  if (!REDIRECTS.has(answer.status) || location === undefined) return undefined
  const url = URL.parse(location.trim(), from)
  // Not http(s) (or not a URL): the redirect is read as the answer it is, which proves nothing.
  if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:')) return undefined
  url.hash = ''
  return url.href
}

/** How a final answer reads; `redirects` says how many led to `url`. */
function readAnswer(
  answer: Answer<PageReading>,
  url: string,
  redirects: number,
  guard: PageCheckDeps['guard']
): FileAnswer {
  const { status, age, cacheStatus, failure } = observe(answer, undefined, guard)
  const where =
    redirects === 0
      ? ''
      : ` at ${shownUrl(guard, url)} after ${redirects} redirect${redirects === 1 ? '' : 's'}`
  if (status === null) {
    return {
      reading: 'unjudged',
      status,
      age,
      url,
      cached: false,
      shown: `no answer${where}: ${failure ?? ''}`
    }
  }
  const details = [age === null ? undefined : `Age ${age} s`, cacheStatus].filter(Boolean)
  const shown = `HTTP ${status}${where}${details.length === 0 ? '' : ` (${details.join(', ')})`}`
  const headers = answer.kind === 'response' ? answer.headers : {}
  const cached = (age !== null && age > 0) || saysHit(headers)
  return { reading: readingOf(status), status, age, url, cached, shown }
}

function readingOf(status: number): FileReading {
  if (status >= 200 && status < 300) return 'whole'
  if (status === 404 || status === 410) return 'missing'
  if (status >= 500 && status < 600) return 'failing'
  // 401, 403, 429, a 3xx not followed, any other: neither proof nor disproof for a visitor.
  return 'unjudged'
}
