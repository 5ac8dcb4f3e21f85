/**
 * Failures that no retry gets past, named for whose they are: a proxy that refuses the tunnel, a
 * certificate Node does not trust. Read from an error's `cause` chain, so the purge transport
 * (`tunnel`'s errors) and GitHub's client (undici's) are read alike. Pure but for the proxy
 * variables, which `@actions/http-client` reads as it routes each request.
 */
import { getProxyUrl } from '@actions/http-client'

export type Blocked =
  | {
      kind: 'proxy'
      /** The proxy's answer to CONNECT: 407 (its credentials), 403 (it forbids the host or port)… */
      status: number
      /** The proxy as `host:port`, never its credentials. */
      proxy: string
      /** Where the tunnel was to go, as `host:port`. */
      target: string
    }
  | { kind: 'certificate'; code: string; host: string }

/** Chains deeper than this are not followed: undici nests the proxy's answer two or three down. */
const MAX_CAUSES = 6

/** What a refused CONNECT reads as: `tunnel` (the purge transport, the page prober) and undici (GitHub). */
const PROXY_REFUSALS = [
  /^tunneling socket could not be established, statusCode=(\d{3})$/,
  /^Proxy response \((\d{3})\) !== 200 when HTTP Tunneling$/
]

/** Codes of a chain no CA Node knows vouches for: a company CA, given through NODE_EXTRA_CA_CERTS, fixes them. */
const UNTRUSTED_CODES = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_UNTRUSTED'
])

/** Codes of a certificate that is wrong whoever trusts it: the server's to fix. */
const INVALID_CODES = new Set([
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'CERT_REVOKED',
  'CERT_SIGNATURE_FAILURE',
  'CERT_REJECTED'
])

/**
 * How far a block reaches: a proxy's 407 (its credentials) is met by every request through that
 * proxy; any other refusal, and a certificate, by every request to the same host and port.
 */
export function reachOf(blocked: Blocked): 'proxy' | 'host' {
  return blocked.kind === 'proxy' && blocked.status === 407 ? 'proxy' : 'host'
}

/** A URL's port, the one its scheme implies when none is written. */
export function portOf(url: URL): string {
  return url.port === '' ? (url.protocol === 'https:' ? '443' : '80') : url.port
}

/** `host:port` of a URL. */
export function hostAndPort(url: URL): string {
  return `${url.hostname}:${portOf(url)}`
}

/** The proxy a request to `url` goes through, as `host:port`; undefined when it goes directly. */
export function proxyFor(url: URL): string | undefined {
  const proxy = getProxyUrl(url.href)
  // Host and port only: the proxy's user and password never leave this line.
  return proxy === '' ? undefined : hostAndPort(new URL(proxy))
}

/** Every error down `error`'s `cause` chain, the outermost first. */
export function causeChain(error: unknown): object[] {
  const chain: object[] = []
  for (let cause = error; chain.length < MAX_CAUSES;) {
    if (typeof cause !== 'object' || cause === null) break
    chain.push(cause)
    cause = 'cause' in cause ? cause.cause : undefined
  }
  return chain
}

function textOf(error: object, field: 'message' | 'code'): string {
  return field in error ? String((error as Record<string, unknown>)[field]) : ''
}

/** What blocks requests to `url` for good, when `error` (a request's failure) says so. */
export function blockedBy(error: unknown, url: URL): Blocked | undefined {
  for (const cause of causeChain(error)) {
    const code = textOf(cause, 'code')
    if (UNTRUSTED_CODES.has(code) || INVALID_CODES.has(code)) {
      return { kind: 'certificate', code, host: url.hostname }
    }
    const message = textOf(cause, 'message')
    for (const refusal of PROXY_REFUSALS) {
      const status = refusal.exec(message)?.[1]
      if (status === undefined) continue
      const proxy = proxyFor(url) ?? 'the proxy'
      return { kind: 'proxy', status: Number(status), proxy, target: hostAndPort(url) }
    }
  }
  return undefined
}

/** What blocked the request, with its status or code, and what fixes it. */
export interface BlockedWords {
  what: string
  fix: string
}

/** The proxy's refusal or the certificate's problem, and what fixes it. */
export function blockedWords(blocked: Blocked): BlockedWords {
  if (blocked.kind === 'certificate') {
    const { code, host } = blocked
    if (UNTRUSTED_CODES.has(code)) {
      const fix = 'a company CA is given to Node with NODE_EXTRA_CA_CERTS (docs/self-hosted.md)'
      return { what: `the certificate of ${host} is not trusted (${code})`, fix }
    }
    const fix =
      "the server's certificate needs fixing; trusting another CA (NODE_EXTRA_CA_CERTS, docs/self-hosted.md) does not help"
    return { what: `the certificate of ${host} is not valid (${code})`, fix }
  }
  const { status, proxy, target } = blocked
  // Its credentials are the same whatever the target: one cause for every call through it.
  if (status === 407) {
    return {
      what: `the proxy ${proxy} did not accept its credentials (407)`,
      fix: 'check the user and password in HTTPS_PROXY'
    }
  }
  const fix =
    status === 403
      ? `the proxy does not allow CONNECT to ${target}; ask its admins to allow it, or list the host in NO_PROXY`
      : "the proxy's answer is not the server's; see docs/self-hosted.md"
  return { what: `the proxy ${proxy} refused the tunnel to ${target} (${status})`, fix }
}

/** The proxy's refusal or the certificate's problem, and what fixes it, in one sentence. */
export function describeBlocked(blocked: Blocked): string {
  const { what, fix } = blockedWords(blocked)
  return `${what}: ${fix}`
}
