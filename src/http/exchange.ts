/**
 * One request from sending to its answer, for the purge transport and the page prober: it ends
 * exactly once, with the answer, at its deadline, at the run's cancel or at a network failure; the
 * body is read up to a cap, and the connection is dropped whenever the rest is not wanted.
 */
import * as http from 'node:http'
import * as https from 'node:https'
import { pipeline, type Readable, type Transform } from 'node:stream'
import { onAbort } from '../clock.js'
import type { Agents, Answer } from './agents.js'
import { blockedBy } from './blocked.js'

export interface ExchangeRequest {
  url: string
  method: string
  headers: http.OutgoingHttpHeaders
  /** Sent after the headers; nothing when undefined. */
  body: string | undefined
  /** The connections: keep-alive per origin, proxies from the environment. */
  agents: Agents
  /** No complete answer by then ends the request as a timeout. */
  timeoutMs: number
  /** The run's cancel: the request ends as cancelled, and is not sent when it has come already. */
  signal: AbortSignal
}

/** How a caller reads a response's body, once its headers are in. */
export interface BodyReader<Read extends object> {
  /** Bytes `take` gets at most: a body going past them is cut there and its connection dropped. */
  limit: number
  /**
   * What the body goes through before `take` (a page's decoders), destroyed with the connection:
   * left running, a decoder would go on inflating what it holds (a compression bomb's gigabytes).
   * `failure` words a decoder's error as the message of the network failure it ends in.
   */
  decoding?: { decoders: Transform[]; failure(error: Error): string }
  /** The next part of the body; true when the caller has what it needs, which ends the reading. */
  take(part: Buffer): boolean
  /** The body ended: the reader gives up what it still holds (the end of a split character). */
  end?(): void
  /** The answer, with the body as far as it was read. */
  answer(truncated: boolean): Answer<Read>
}

/**
 * The body as sent, up to `limit` bytes, read as UTF-8 once whole: a character split between two
 * chunks stays whole.
 */
export function wholeBody(response: http.IncomingMessage, limit: number): BodyReader<object> {
  const chunks: Buffer[] = []
  return {
    limit,
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

/** What a caller makes of a response's headers: its answer at once, or how to read the body. */
export type ReadResponse<Read extends object> = (
  response: http.IncomingMessage
) => Answer<Read> | BodyReader<Read>

/** How the request under way ends: what the response's reading is handed. */
interface Ending<Read extends object> {
  /** The first call settles the request; later ones do nothing. `drop` closes the connection. */
  settle(answer: Answer<Read>, drop: boolean): void
  /** Settles as a network failure, dropping the connection. */
  fail(error: NodeJS.ErrnoException, message?: string): void
  readonly settled: boolean
  /** Destroyed with the connection. */
  decoders: Transform[]
}

/** Sends `request`, reads its response as `read` says, and resolves with how the request ended. */
export function exchange<Read extends object>(
  request: ExchangeRequest,
  read: ReadResponse<Read>
): Promise<Answer<Read>> {
  const { method, headers, agents, timeoutMs, signal } = request
  if (signal.aborted) return Promise.resolve({ kind: 'cancelled' })
  const url = new URL(request.url)
  const module = url.protocol === 'https:' ? https : http
  const outgoing = module.request(url, { method, headers, agent: agents.agentFor(url) })
  const answered = settleOnce(outgoing, url, { timeoutMs, signal }, read)
  outgoing.end(request.body)
  return answered
}

/**
 * Ends `outgoing` once. The closures made here must never reach the body sent, and settling lets
 * go of `resolve`: a settled request's listeners then keep neither the body sent nor the answer
 * read alive while the run's other requests are still out.
 */
function settleOnce<Read extends object>(
  outgoing: http.ClientRequest,
  url: URL,
  { timeoutMs, signal }: Pick<ExchangeRequest, 'timeoutMs' | 'signal'>,
  read: ReadResponse<Read>
): Promise<Answer<Read>> {
  return new Promise((resolve) => {
    let pending: ((answer: Answer<Read>) => void) | undefined = resolve
    const ending: Ending<Read> = {
      settle(answer, drop) {
        if (pending === undefined) return
        const deliver = pending
        pending = undefined
        clearTimeout(timer)
        stopListening()
        if (drop) {
          outgoing.destroy()
          for (const decoder of ending.decoders) decoder.destroy()
        }
        deliver(answer)
      },
      fail(error, message = error.message) {
        const blocked = blockedBy(error, url)
        const answer: Answer<Read> =
          blocked === undefined
            ? { kind: 'network', code: error.code, message }
            : { kind: 'blocked', blocked }
        ending.settle(answer, true)
      },
      get settled() {
        return pending === undefined
      },
      decoders: []
    }
    const timer = setTimeout(() => {
      const message = `no complete answer within ${timeoutMs / 1000} s`
      ending.settle({ kind: 'timeout', message }, true)
    }, timeoutMs)
    const stopListening = onAbort(signal, () => ending.settle({ kind: 'cancelled' }, true))
    outgoing.on('error', (error) => ending.fail(error))
    outgoing.on('response', (response) => readResponse(response, read, ending))
  })
}

/** Reads the body as `read` says, up to its reader's limit, and settles with the answer. */
function readResponse<Read extends object>(
  response: http.IncomingMessage,
  read: ReadResponse<Read>,
  ending: Ending<Read>
): void {
  response.on('error', (error) => ending.fail(error))
  const reader = read(response)
  if ('kind' in reader) {
    ending.settle(reader, true)
    return
  }
  const source = decoded(response, reader, ending)
  let size = 0
  source.on('data', (chunk: Buffer) => {
    if (ending.settled) return
    const room = reader.limit - size
    const part = chunk.length > room ? chunk.subarray(0, room) : chunk
    size += part.length
    if (reader.take(part)) ending.settle(reader.answer(false), true)
    else if (chunk.length > room) ending.settle(reader.answer(true), true)
  })
  source.on('end', () => {
    reader.end?.()
    ending.settle(reader.answer(false), false)
  })
}

/** The stream the body is read from: the response, or the last decoder it goes through. */
function decoded<Read extends object>(
  response: http.IncomingMessage,
  { decoding }: BodyReader<Read>,
  ending: Ending<Read>
): Readable {
  const last = decoding?.decoders.at(-1)
  if (decoding === undefined || last === undefined) return response
  ending.decoders = decoding.decoders
  pipeline([response, ...decoding.decoders], (error: NodeJS.ErrnoException | null | undefined) => {
    if (error === null || error === undefined || ending.settled) return
    ending.fail(error, decoding.failure(error))
  })
  return last
}
