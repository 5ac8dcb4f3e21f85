/**
 * One request's lifecycle against a loopback server: the deadline, the cancel before and during
 * the request, a network failure, the body cut at the reader's limit with its connection dropped,
 * and no listener left on the run's signal however the request ended.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { getEventListeners } from 'node:events'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { createAgents } from '../src/http/agents.js'
import type { Answer } from '../src/http/agents.js'
import { exchange, wholeBody } from '../src/http/exchange.js'
import { LoopbackServer } from '../tools/loopback-server.js'

const LIMIT = 64 * 1024

const seen: string[] = []
/** Counts the streams the client dropped before their end. */
const streams = { dropped: 0 }

const routes: Record<string, (response: ServerResponse) => void> = {
  '/plain': (response) => {
    response.writeHead(200)
    response.end('ok')
  },
  // 1 MiB in 16 KiB writes, far past LIMIT, unless the client drops it.
  '/long': (response) => {
    response.writeHead(200)
    let index = 0
    const timer = setInterval(() => {
      if (index++ === 64) {
        clearInterval(timer)
        response.end()
        return
      }
      response.write(Buffer.alloc(16 * 1024, 'a'))
    }, 2)
    response.on('close', () => {
      if (!response.writableFinished) streams.dropped += 1
      clearInterval(timer)
    })
  },
  '/silent': () => undefined
}

const server = new LoopbackServer()
const agents = createAgents({ userAgent: 'edge-purge-test/1.0', concurrency: 4 })

beforeAll(async () => {
  await server.listen((request: IncomingMessage, response: ServerResponse) => {
    seen.push(request.url ?? '')
    routes[request.url ?? '']?.(response)
  })
})

afterAll(async () => {
  agents.close()
  await server.close()
})

function get(
  url: string,
  timeoutMs = 10_000,
  signal = new AbortController().signal
): Promise<Answer> {
  const request = { url, method: 'GET', headers: {}, body: undefined, agents, timeoutMs, signal }
  return exchange(request, (response) => wholeBody(response, LIMIT))
}

/** Polls a condition the server sets asynchronously; gives up after 5 s. */
async function waitFor(condition: () => boolean): Promise<void> {
  for (let tries = 0; tries < 500 && !condition(); tries++) {
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  expect(condition()).toBe(true)
}

describe('how a request ends', () => {
  it('times out a request that gets no answer', async () => {
    const answer = await get(`${server.url}/silent`, 300)
    expect(answer).toEqual({ kind: 'timeout', message: 'no complete answer within 0.3 s' })
  })

  it('returns cancelled when the signal aborts mid-request', async () => {
    const controller = new AbortController()
    const before = seen.length
    const pending = get(`${server.url}/silent`, 10_000, controller.signal)
    await waitFor(() => seen.length > before)
    controller.abort()
    expect(await pending).toEqual({ kind: 'cancelled' })
  })

  it('sends nothing when already cancelled', async () => {
    const controller = new AbortController()
    controller.abort()
    const before = seen.length
    expect(await get(`${server.url}/plain`, 10_000, controller.signal)).toEqual({
      kind: 'cancelled'
    })
    expect(seen).toHaveLength(before)
  })

  it('reports a refused connection as a network failure with its code', async () => {
    const closed = new LoopbackServer()
    await closed.listen(() => undefined)
    const { url } = closed
    await closed.close()
    expect(await get(url)).toMatchObject({ kind: 'network', code: 'ECONNREFUSED' })
  })

  it('cuts a body at the reader’s limit and drops its connection', async () => {
    const before = streams.dropped
    const answer = await get(`${server.url}/long`)
    expect(answer).toMatchObject({ kind: 'response', status: 200, truncated: true })
    expect(answer.kind === 'response' && answer.body).toHaveLength(LIMIT)
    await waitFor(() => streams.dropped > before)
  })

  it('leaves no listener on the run’s signal, however the request ended', async () => {
    const { signal } = new AbortController()
    const ends = await Promise.all([
      get(`${server.url}/plain`, 10_000, signal),
      get(`${server.url}/silent`, 300, signal),
      get(`${server.url}/long`, 10_000, signal)
    ])
    expect(ends.map((end) => end.kind)).toEqual(['response', 'timeout', 'response'])
    expect(getEventListeners(signal, 'abort')).toHaveLength(0)
  })
})
