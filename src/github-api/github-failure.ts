/**
 * What a failed GitHub attempt showed, read from Octokit's RequestError and the network errors
 * under it: GitHub's status, headers and message, or the connection's code, and what stands in
 * the way of every attempt alike (a proxy's refusal, a certificate, a web page where GitHub's JSON
 * belongs). Knows Octokit's shapes, not Octokit itself.
 */
import { blockedBy, causeChain } from '../http/blocked.js'
import type { Guard } from '../text/guard.js'
import { plainLine } from '../text/shown.js'
import type { AttemptFailure, InTheWay } from './github-calls.js'

/** Enough of a media type to recognise it (`text/html`), never a page's worth. */
const MEDIA_TYPE_CHARS = 60

/** A 2xx that is not JSON, where every call here expects JSON: a sign-in or error page. */
class WebPageAnswer extends Error {
  /** What the attempt showed, made where the page was seen. */
  constructor(readonly failure: AttemptFailure) {
    super(failure.message)
  }
}

/** Enough of Octokit's answer to tell JSON from a page. */
interface Answer {
  status: number
  headers: { 'content-type'?: string }
}

/**
 * The answer, when it is JSON (`application/json`, or any `+json` type). Octokit hands a sign-in
 * page on as a string in `data`, where the reads would fail as a JavaScript error ("data.map is
 * not a function"); throwing here names it instead. 204 and 205 carry no body to check.
 */
export function jsonAnswer<T extends Answer>(answer: T, guard: Pick<Guard, 'redact'>): T {
  if (answer.status === 204 || answer.status === 205) return answer
  const type = answer.headers['content-type']?.split(';')[0]?.trim().toLowerCase() ?? ''
  if (type === 'application/json' || type.endsWith('+json')) return answer
  const shown = type === '' ? 'without a Content-Type' : plainLine(guard, type, MEDIA_TYPE_CHARS)
  const { status } = answer
  const inTheWay: InTheWay = { kind: 'web-page', status, mediaType: shown }
  const message = `GitHub answered ${shown}`
  throw new WebPageAnswer({ status, headers: {}, message, code: undefined, inTheWay })
}

/**
 * What a failed attempt showed, the run's secrets hidden in its message (a proxy or GitHub can echo
 * the token); `api` is GITHUB_API_URL, whose proxy and host a blocked call names.
 */
export function failureOf(
  error: unknown,
  api: URL | undefined,
  guard: Pick<Guard, 'redact'>
): AttemptFailure {
  if (error instanceof WebPageAnswer) return error.failure
  const failed = error as { message?: unknown; response?: { status?: unknown; headers?: unknown } }
  const message = guard.redact(typeof failed?.message === 'string' ? failed.message : String(error))
  const response = failed?.response
  if (response === undefined || typeof response.status !== 'number') {
    // The chain, not the code: undici's refused tunnel is an abort, as a real cancel is.
    const blocked = api === undefined ? undefined : blockedBy(error, api)
    const inTheWay: InTheWay | undefined =
      blocked === undefined ? undefined : { kind: 'blocked', blocked }
    return { status: undefined, headers: {}, message, code: networkCodeOf(error), inTheWay }
  }
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(response.headers ?? {})) {
    if (value !== undefined && value !== null) headers[name.toLowerCase()] = String(value)
  }
  return { status: response.status, headers, message, code: undefined }
}

/** The `code` of the first error down the `cause` chain that has one (fetch wraps it twice). */
function networkCodeOf(error: unknown): string | undefined {
  const codes = causeChain(error).map((cause) => ('code' in cause ? cause.code : undefined))
  return codes.find((code): code is string => typeof code === 'string')
}
