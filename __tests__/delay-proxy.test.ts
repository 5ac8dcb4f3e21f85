/**
 * The bench's delaying proxy (tools/delay-proxy.ts): bytes cross it whole and in order, and the
 * record headers of a client's TLS stream time its milestones however the chunks split them. How
 * long it delays is the bench's to measure, not a test's.
 */
import { afterEach, describe, expect, it } from '@jest/globals'
import { createConnection, createServer, type AddressInfo, type Server } from 'node:net'
import { ClientStreamWatch, DelayProxy, type ConnectionTimeline } from '../tools/delay-proxy.js'

const emptyTimeline = (): ConnectionTimeline => ({
  openedAt: 0,
  helloAt: NaN,
  tlsDoneAt: NaN,
  firstRequestAt: NaN,
  lastAnswerAt: NaN
})

/** A TLS record: its 5-byte header (type, version 3.3, length) and a body of `length` bytes. */
const record = (type: number, length: number): Buffer =>
  Buffer.concat([Buffer.from([type, 3, 3, length >> 8, length & 0xff]), Buffer.alloc(length, 7)])

describe('ClientStreamWatch', () => {
  it('times the ClientHello, the Finished and the first request of a TLS 1.3 client', () => {
    // ClientHello; then ChangeCipherSpec, Finished (encrypted: application data) and the request.
    const hello = record(22, 300)
    const secondFlight = Buffer.concat([record(20, 1), record(23, 53), record(23, 400)])
    const watch = new ClientStreamWatch(emptyTimeline())
    watch.feed(hello.subarray(0, 3), 10)
    watch.feed(hello.subarray(3), 11)
    // Split inside the Finished's header and inside the request's header.
    const cuts = [0, 8, 12, 60, 66, secondFlight.length]
    cuts
      .slice(1)
      .forEach((cut, index) => watch.feed(secondFlight.subarray(cuts[index], cut), 20 + index))
    expect(watch.timeline).toEqual({
      openedAt: 0,
      helloAt: 10,
      tlsDoneAt: 21,
      firstRequestAt: 24,
      lastAnswerAt: NaN
    })
  })

  it('takes a stream that does not open with a handshake record as plain HTTP', () => {
    const watch = new ClientStreamWatch(emptyTimeline())
    watch.feed(Buffer.from('POST /service/svc123/purge HTTP/1.1\r\n'), 5)
    watch.feed(Buffer.from([23, 3, 3, 0, 1, 0]), 6)
    expect(watch.timeline).toEqual({
      openedAt: 0,
      helloAt: 5,
      tlsDoneAt: NaN,
      firstRequestAt: 5,
      lastAnswerAt: NaN
    })
  })
})

describe('DelayProxy', () => {
  let echo: Server | undefined
  let proxy: DelayProxy | undefined
  afterEach(async () => {
    await proxy?.close()
    await new Promise<void>((resolve) =>
      echo === undefined ? resolve() : echo.close(() => resolve())
    )
  })

  it('forwards every chunk both ways in order, and records the connection', async () => {
    echo = createServer((socket) => socket.pipe(socket))
    await new Promise<void>((resolve) => echo?.listen(0, '127.0.0.1', resolve))
    proxy = await DelayProxy.start((echo.address() as AddressInfo).port, 4)
    const chunks = Array.from({ length: 200 }, (_, index) => Buffer.alloc(1 + (index % 37), index))
    const sent = Buffer.concat(chunks)
    const client = createConnection({ host: '127.0.0.1', port: proxy.port })
    const received: Buffer[] = []
    let length = 0
    // Ends once every byte is back: an answer that crosses after the client's end counts for none.
    client.on('data', (chunk: Buffer) => {
      received.push(chunk)
      length += chunk.length
      if (length >= sent.length) client.end()
    })
    const closed = new Promise<void>((resolve) => client.on('close', () => resolve()))
    for (const chunk of chunks) client.write(chunk)
    await closed
    expect(Buffer.concat(received).equals(sent)).toBe(true)
    expect(proxy.connections).toHaveLength(1)
    const [connection] = proxy.connections
    expect(connection?.firstRequestAt).toBe(connection?.helloAt)
    expect(connection?.lastAnswerAt).toBeGreaterThan(connection?.firstRequestAt ?? NaN)
  })
})
