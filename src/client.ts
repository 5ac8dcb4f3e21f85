/** One HTTP exchange per call attempt: headers, token, timeout, keep-alive. No retries here. */
import { HttpClient } from '@actions/http-client'
import * as http from 'node:http'
import * as https from 'node:https'
import type { PurgeCall } from './plan.js'

export type Exchange =
  | { kind: 'response'; status: number; headers: http.IncomingHttpHeaders; body: string }
  | { kind: 'network'; code: string | undefined; message: string }
  | { kind: 'timeout'; message: string }

export interface Transport {
  send(call: PurgeCall): Promise<Exchange>
  close(): void
}

export interface TransportOptions {
  apiToken: string
  /** Sockets per origin: the most calls in flight, so keep-alive reuse covers every call. */
  concurrency: number
  timeoutMs: number
  userAgent: string
}

/** Bodies beyond this are cut: the largest valid answer (256 ids) is far smaller. */
const MAX_BODY_BYTES = 4 * 1024 * 1024

/**
 * `@actions/http-client` supplies the agents (keep-alive, proxy settings from the environment),
 * but its `request()` follows redirects with our headers and cannot abort an attempt at a deadline;
 * so the exchange itself is made with node's request on that agent.
 */
export function createTransport(options: TransportOptions): Transport {
  const clients = new Map<string, HttpClient>()

  function agentFor(url: URL): http.Agent {
    let client = clients.get(url.origin)
    if (client === undefined) {
      client = new HttpClient(options.userAgent, [], {
        keepAlive: true,
        maxSockets: options.concurrency,
        allowRedirects: false
      })
      clients.set(url.origin, client)
    }
    return client.getAgent(url.href)
  }

  function send(call: PurgeCall): Promise<Exchange> {
    const url = new URL(call.url)
    const headers: Record<string, string | number> = {
      ...call.headers,
      'User-Agent': options.userAgent
    }
    if (call.authenticated) headers['Edge-Key'] = options.apiToken
    if (call.body !== undefined) headers['Content-Length'] = Buffer.byteLength(call.body)
    const module = url.protocol === 'https:' ? https : http

    return new Promise((resolve) => {
      const request = module.request(url, { method: call.method, headers, agent: agentFor(url) })
      const settle = (exchange: Exchange): void => {
        clearTimeout(timer)
        resolve(exchange)
      }
      const timer = setTimeout(() => {
        settle({
          kind: 'timeout',
          message: `no complete answer within ${options.timeoutMs / 1000} s`
        })
        request.destroy()
      }, options.timeoutMs)
      const fail = (error: Error & { code?: string }): void => {
        settle({ kind: 'network', code: error.code, message: error.message })
      }
      request.on('error', fail)
      request.on('response', (response) => {
        const chunks: Buffer[] = []
        let size = 0
        response.on('data', (chunk: Buffer) => {
          if (size < MAX_BODY_BYTES) chunks.push(chunk)
          size += chunk.length
        })
        response.on('error', fail)
        response.on('end', () => {
          settle({
            kind: 'response',
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString('utf8')
          })
        })
      })
      request.end(call.body)
    })
  }

  return {
    send,
    close: () => {
      for (const client of clients.values()) client.dispose()
    }
  }
}
