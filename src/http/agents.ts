/** Connections for the action's requests: one keep-alive agent per origin, proxies from the environment. */
import { HttpClient } from '@actions/http-client'
import type * as http from 'node:http'
import type { Blocked } from './blocked.js'

/**
 * How a request ended: an answer (its body as far as the caller read it), or one of the ways it can
 * end without one. `Read` is what a caller takes from a response beyond these (the page prober:
 * every `Age` line, a coding it refused).
 */
export type Answer<Read extends object = object> =
  | ({
      kind: 'response'
      status: number
      headers: http.IncomingHttpHeaders
      body: string
      /** The body went past the caller's limit and was cut there. */
      truncated: boolean
    } & Read)
  | { kind: 'network'; code: string | undefined; message: string }
  /** A proxy refused the tunnel, or the certificate was not accepted: no retry gets past it. */
  | { kind: 'blocked'; blocked: Blocked }
  | { kind: 'timeout'; message: string }
  /** The run was cancelled while the request was in flight: its outcome is unknown. */
  | { kind: 'cancelled' }

export interface Agents {
  /** The agent for `url`'s origin, made on first use. */
  agentFor(url: URL): http.Agent
  close(): void
}

/**
 * `@actions/http-client` supplies the agents (keep-alive, proxy settings from the environment),
 * but its `request()` follows redirects with our headers and cannot abort a request at a deadline;
 * so `exchange` (exchange.ts) makes each request with node's own `request` on these agents.
 */
export function createAgents(options: {
  userAgent: string
  /** Sockets per origin: the most requests in flight, so keep-alive reuse covers every one. */
  concurrency: number
}): Agents {
  const clients = new Map<string, HttpClient>()
  const settings = { keepAlive: true, maxSockets: options.concurrency, allowRedirects: false }
  return {
    agentFor(url) {
      const client = clients.get(url.origin) ?? new HttpClient(options.userAgent, [], settings)
      clients.set(url.origin, client)
      return client.getAgent(url.href)
    },
    close() {
      for (const client of clients.values()) client.dispose()
    }
  }
}
