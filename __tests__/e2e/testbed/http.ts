/** Small HTTP helpers for the test bed: one-shot requests on 127.0.0.1, free ports, polling. */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http'
import { createServer, type AddressInfo } from 'node:net'

export interface HttpAnswer {
  status: number
  headers: IncomingHttpHeaders
  body: string
}

export interface RequestOptions {
  method?: string
  headers?: Record<string, string>
  body?: string
  timeoutMs?: number
}

/** One request on its own connection (no keep-alive), so nothing stays open after a test. */
export function request(url: string, options: RequestOptions = {}): Promise<HttpAnswer> {
  const timeoutMs = options.timeoutMs ?? 10_000
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { Connection: 'close', ...options.headers }
    if (options.body !== undefined) headers['Content-Length'] = Buffer.byteLength(options.body)
    const outgoing = httpRequest(url, { method: options.method ?? 'GET', headers, agent: false })
    outgoing.setTimeout(timeoutMs, () =>
      outgoing.destroy(new Error(`no answer from ${url} within ${timeoutMs} ms`))
    )
    outgoing.on('error', reject)
    outgoing.on('response', (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('error', reject)
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(chunks).toString('utf8')
        })
      )
    })
    outgoing.end(options.body)
  })
}

/** A TCP port on 127.0.0.1 that was free a moment ago (callers retry if it is taken meanwhile). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo
      server.close(() => resolve(port))
    })
  })
}

export const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Calls `probe` until `done` accepts its value, and returns every value seen (the last one accepted).
 * No tight timing: the deadline is generous, so a loaded machine only makes it slower.
 */
export async function pollUntil<T>(
  probe: () => Promise<T>,
  done: (value: T) => boolean,
  { timeoutMs = 30_000, intervalMs = 50, what = 'condition' } = {}
): Promise<T[]> {
  const deadline = Date.now() + timeoutMs
  const seen: T[] = []
  for (;;) {
    const value = await probe()
    seen.push(value)
    if (done(value)) return seen
    if (Date.now() > deadline) {
      const last = JSON.stringify(seen.slice(-3))
      throw new Error(`${what} not reached within ${timeoutMs} ms; last values: ${last}`)
    }
    await sleep(intervalMs)
  }
}
