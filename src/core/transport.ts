/** One HTTP exchange per call attempt: headers, token, timeout, keep-alive. No retries here. */
import { createAgents, type Answer } from '../http/agents.js'
import { exchange, wholeBody } from '../http/exchange.js'
import type { PurgeCall } from '../record/index.js'

export interface Transport {
  /** One attempt of `call`: the body is cut at `MAX_BODY_BYTES`. */
  send(call: PurgeCall, signal: AbortSignal): Promise<Answer>
  close(): void
}

export interface TransportOptions {
  apiToken: string
  /** Sockets per origin: the most calls in flight, so keep-alive reuse covers every call. */
  concurrency: number
  timeoutMs: number
  userAgent: string
}

/**
 * Bodies beyond this are cut and the connection dropped: the largest valid answer (256 ids under
 * 1024-byte keys) is about a quarter of it, and a hostile server must not fill the runner's memory.
 */
export const MAX_BODY_BYTES = 1024 * 1024

export function createTransport(options: TransportOptions): Transport {
  const agents = createAgents(options)
  const { apiToken, userAgent, timeoutMs } = options

  function send(call: PurgeCall, signal: AbortSignal): Promise<Answer> {
    const { body } = call
    const headers: Record<string, string | number> = { ...call.headers, 'User-Agent': userAgent }
    if (call.authenticated) headers['Edge-Key'] = apiToken
    if (body !== undefined) headers['Content-Length'] = Buffer.byteLength(body)
    const request = { url: call.url, method: call.method, headers, body, agents, timeoutMs, signal }
    return exchange(request, (response) => wholeBody(response, MAX_BODY_BYTES))
  }

  return { send, close: agents.close }
}
