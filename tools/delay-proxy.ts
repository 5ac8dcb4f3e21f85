/**
 * A TCP proxy on 127.0.0.1 that makes a loopback server as far away as a real one: every chunk is
 * forwarded half a round trip after it arrived, in each direction, so the TCP connect, the TLS
 * handshake and each request and answer pay their round trips as they do between a runner and a
 * purge API. The bench's network mode (scripts/bench/network/) puts one in front of each HTTPS
 * fake.
 *
 * How each cost is modelled:
 * - **Data.** Each direction has a queue of chunks with the time each is due (arrival + RTT/2),
 *   drained by one timer in order: a chunk waits for its own due time only, never for a sleep of
 *   the chunk before it, and bytes keep their order. No bandwidth or congestion window is modelled:
 *   the bench's requests and answers fit in a first flight (a few KiB).
 * - **TCP connect.** The kernel completes the handshake with the client before any userspace code
 *   runs, so a proxy cannot delay the SYN-ACK. What the client loses on a real network is the one
 *   round trip before it may send: so the proxy holds the client's bytes as if they had been sent
 *   no earlier than one RTT after the connection was accepted (the SYN-ACK's arrival), then delays
 *   them half a round trip like any other. Node writes the ClientHello as soon as `connect` fires,
 *   so the ClientHello reaches the server 1.5 RTT after the connect began, as on a network. The
 *   client's `connect` event itself fires early: work it does between `connect` and its first
 *   write overlaps the modelled round trip (in Node that is the TLS socket's setup, well under a
 *   millisecond).
 * - **TLS 1.3.** Nothing special: the ClientHello and the server's flight each cross once, 1 RTT.
 *   The first request leaves with or just after the client's Finished, so it reaches the server
 *   3 RTT after the connect began (TCP, TLS, the request) and its answer is back at 3.5.
 *
 * The proxy watches the TLS records the client sends (their 5-byte headers only: it cannot read
 * them) to time each connection. In TLS 1.3 every encrypted record travels as application data
 * (type 23): the client's first one is its Finished (the handshake is done at the client), its
 * second one the first request. A connection whose first byte is not a TLS handshake record is
 * plain HTTP: its first chunk is the first request. Times are the client's send times in the model
 * (its bytes held for the connect are timed when the SYN-ACK would have let them go).
 */
import {
  createConnection,
  createServer,
  type AddressInfo,
  type Server,
  type Socket
} from 'node:net'

/** When one connection's milestones happened (performance.now() of the proxy's process). */
export interface ConnectionTimeline {
  /** The client's connect reached the proxy: the SYN leaving the client. */
  openedAt: number
  /** The client's first bytes (the ClientHello over TLS) left it. */
  helloAt: number
  /** The client's TLS Finished left it: the handshake was over at the client. NaN over plain HTTP. */
  tlsDoneAt: number
  /** The first request left the client. */
  firstRequestAt: number
  /** The last bytes the server sent reached the client: its last answer. */
  lastAnswerAt: number
}

const HANDSHAKE = 22
const APPLICATION_DATA = 23
const RECORD_HEADER_BYTES = 5

/**
 * Reads the record headers of a client's TLS stream, chunk by chunk (a header may be split across
 * chunks), and stamps the timeline's milestones. Pure apart from the timeline it fills.
 */
export class ClientStreamWatch {
  private header = Buffer.alloc(0)
  /** Bytes of the current record's body still to skip. */
  private remaining = 0
  private encryptedRecords = 0
  private tls: boolean | undefined

  constructor(readonly timeline: ConnectionTimeline) {}

  feed(chunk: Buffer, at: number): void {
    if (chunk.length === 0) return
    if (this.tls === undefined) {
      this.tls = chunk[0] === HANDSHAKE
      this.timeline.helloAt = at
      if (!this.tls) this.timeline.firstRequestAt = at
    }
    if (!this.tls) return
    let offset = 0
    while (offset < chunk.length) {
      if (this.remaining > 0) {
        const skipped = Math.min(this.remaining, chunk.length - offset)
        this.remaining -= skipped
        offset += skipped
        continue
      }
      const needed = RECORD_HEADER_BYTES - this.header.length
      this.header = Buffer.concat([this.header, chunk.subarray(offset, offset + needed)])
      offset += needed
      if (this.header.length < RECORD_HEADER_BYTES) return
      this.record(this.header[0] ?? 0, this.header.readUInt16BE(3), at)
      this.header = Buffer.alloc(0)
    }
  }

  private record(type: number, length: number, at: number): void {
    this.remaining = length
    if (type !== APPLICATION_DATA) return
    this.encryptedRecords += 1
    if (this.encryptedRecords === 1) this.timeline.tlsDoneAt = at
    if (this.encryptedRecords === 2) this.timeline.firstRequestAt = at
  }
}

type Queued = { due: number; chunk: Buffer | 'end' }

/** One direction of a connection: chunks written to `destination` at their due times, in order. */
export class DelayedPipe {
  private readonly queue: Queued[] = []
  private timer: NodeJS.Timeout | undefined

  constructor(
    private readonly destination: Socket,
    /** When a chunk that arrived at `arrival` is due at the other end. */
    private readonly dueOf: (arrival: number) => number,
    /** Told when each chunk is written on. */
    private readonly onWrite: (at: number) => void = () => {}
  ) {}

  push(chunk: Buffer | 'end'): void {
    this.queue.push({ due: this.dueOf(performance.now()), chunk })
    if (this.timer === undefined) this.schedule()
  }

  stop(): void {
    clearTimeout(this.timer)
    this.queue.length = 0
  }

  private schedule(): void {
    const head = this.queue[0]
    if (head === undefined) {
      this.timer = undefined
      return
    }
    // A timer may fire a little before its time (libuv's clock is read once per loop turn): the
    // drain checks the clock itself and waits again for what is not due yet.
    this.timer = setTimeout(
      () => this.drain(),
      Math.max(0, Math.ceil(head.due - performance.now()))
    )
  }

  private drain(): void {
    const now = performance.now()
    while (this.queue[0] !== undefined && this.queue[0].due <= now) {
      const { chunk } = this.queue.shift() as Queued
      if (this.destination.destroyed) continue
      if (chunk === 'end') this.destination.end()
      else {
        this.destination.write(chunk)
        this.onWrite(now)
      }
    }
    this.schedule()
  }
}

export class DelayProxy {
  /** Every connection accepted so far, in order; a caller slices it to read one run's. */
  readonly connections: ConnectionTimeline[] = []
  /** Applies to connections accepted from then on. */
  rttMs: number
  private readonly sockets = new Set<Socket>()
  private readonly pipes = new Set<DelayedPipe>()

  private constructor(
    private readonly server: Server,
    private readonly targetPort: number,
    rttMs: number
  ) {
    this.rttMs = rttMs
  }

  /** A proxy on a free 127.0.0.1 port in front of `targetPort` on 127.0.0.1. */
  static async start(targetPort: number, rttMs: number): Promise<DelayProxy> {
    // Half-open on both sides: an end is forwarded after its delay like any byte, not at once.
    const server = createServer({ allowHalfOpen: true })
    const proxy = new DelayProxy(server, targetPort, rttMs)
    server.on('connection', (client: Socket) => proxy.accept(client))
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(0, '127.0.0.1', resolve)
    })
    return proxy
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port
  }

  async close(): Promise<void> {
    for (const pipe of this.pipes) pipe.stop()
    for (const socket of this.sockets) socket.destroy()
    await new Promise<void>((resolve) => this.server.close(() => resolve()))
  }

  private accept(client: Socket): void {
    const openedAt = performance.now()
    const half = this.rttMs / 2
    // The SYN-ACK reaches the client one round trip after its SYN left: nothing it sends leaves
    // before that.
    const mayLeaveAt = openedAt + this.rttMs
    const timeline: ConnectionTimeline = {
      openedAt,
      helloAt: NaN,
      tlsDoneAt: NaN,
      firstRequestAt: NaN,
      lastAnswerAt: NaN
    }
    this.connections.push(timeline)
    const watch = new ClientStreamWatch(timeline)
    const upstream = createConnection({
      host: '127.0.0.1',
      port: this.targetPort,
      allowHalfOpen: true
    })
    const toServer = new DelayedPipe(upstream, (arrival) => Math.max(arrival, mayLeaveAt) + half)
    const toClient = new DelayedPipe(
      client,
      (arrival) => arrival + half,
      // Bytes after the client's end (a TLS close_notify once it is gone) answer nothing.
      (at) => {
        if (!client.readableEnded) timeline.lastAnswerAt = at
      }
    )
    this.track([client, upstream], [toServer, toClient])
    for (const socket of [client, upstream]) socket.setNoDelay(true)
    client.on('data', (chunk: Buffer) => {
      watch.feed(chunk, Math.max(performance.now(), mayLeaveAt))
      toServer.push(chunk)
    })
    upstream.on('data', (chunk: Buffer) => toClient.push(chunk))
    client.on('end', () => toServer.push('end'))
    upstream.on('end', () => toClient.push('end'))
    // A reset on either side ends the other at once: the bench never resets on purpose.
    client.on('error', () => upstream.destroy())
    upstream.on('error', () => client.destroy())
  }

  private track(sockets: Socket[], pipes: DelayedPipe[]): void {
    for (const pipe of pipes) this.pipes.add(pipe)
    for (const socket of sockets) {
      this.sockets.add(socket)
      socket.on('close', () => {
        this.sockets.delete(socket)
        for (const pipe of pipes) this.pipes.delete(pipe)
      })
    }
  }
}
