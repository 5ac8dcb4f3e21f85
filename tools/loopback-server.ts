/**
 * What every test server shares: an HTTP server on a free 127.0.0.1 port that keeps track of its
 * sockets, so that closing it ends keep-alive connections instead of waiting for them to idle out.
 * Given a key and certificate it serves HTTPS instead: the bench's network mode, where purge APIs
 * are HTTPS as real ones are.
 */
import {
  createServer,
  type IncomingMessage,
  type Server,
  type ServerOptions,
  type ServerResponse
} from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import type { AddressInfo, Socket } from 'node:net'

export type Handler = (request: IncomingMessage, response: ServerResponse) => void

/** A private key and certificate in PEM. */
export interface TlsIdentity {
  key: string
  cert: string
}

export class LoopbackServer {
  /** Node's server, for listeners of its own (e.g. counting connections) before `listen`. */
  readonly server: Server
  private readonly sockets = new Set<Socket>()

  constructor(
    options: ServerOptions = {},
    private readonly tls?: TlsIdentity
  ) {
    this.server =
      tls === undefined ? createServer(options) : createHttpsServer({ ...options, ...tls })
    this.server.on('connection', (socket: Socket) => {
      this.sockets.add(socket)
      socket.on('close', () => this.sockets.delete(socket))
    })
  }

  /**
   * Calls `listener` with each connection as requests see it (`request.socket`): over HTTPS that is
   * the TLS socket, made once the handshake is over, not the TCP one.
   */
  onConnection(listener: (socket: Socket) => void): void {
    this.server.on(this.tls === undefined ? 'connection' : 'secureConnection', listener)
  }

  async listen(handle: Handler): Promise<void> {
    this.server.on('request', handle)
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject)
      this.server.listen(0, '127.0.0.1', resolve)
    })
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port
  }

  get url(): string {
    return `${this.tls === undefined ? 'http' : 'https'}://127.0.0.1:${this.port}`
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy()
    await new Promise<void>((resolve) => this.server.close(() => resolve()))
  }
}
