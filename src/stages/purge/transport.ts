/** One HTTP exchange per call attempt: headers, token, timeout, keep-alive. No retries here. */
import type { IncomingMessage } from 'node:http'
import { createAgents, type Answer } from '../../http/agents.js'
import { exchange, type BodyReader } from '../../http/exchange.js'
import type { PurgeCall } from '../../record/index.js'

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

  function send(call: PurgeCall, signal: AbortSignal): Promise<Answer> {
    const { body } = call
    const headers: Record<string, string | number> = {
      ...call.headers,
      'User-Agent': options.userAgent
    }
    if (call.authenticated) headers['Edge-Key'] = options.apiToken
    if (body !== undefined) headers['Content-Length'] = Buffer.byteLength(body)
    const { timeoutMs } = options
    const request = { url: call.url, method: call.method, headers, body, agents, timeoutMs, signal }
    return exchange(request, readAnswer)
  }

  return { send, close: agents.close }
}

/**
 * The purge API's answer as sent, up to `MAX_BODY_BYTES`, read as UTF-8 once whole: a character
 * split between two chunks stays whole.
 */
function readAnswer(response: IncomingMessage): BodyReader<object> {
  const chunks: Buffer[] = []
  return {
    limit: MAX_BODY_BYTES,
    take(part) {
      chunks.push(part)
      return false
    },
    answer: (truncated) => ({
      kind: 'response',
      status: response.statusCode ?? 0,
      headers: response.headers,
      body: Buffer.concat(chunks).toString('utf8'),
      truncated
    })
  }
}
