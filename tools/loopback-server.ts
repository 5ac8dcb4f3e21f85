/**
 * What every test server shares: an HTTP server on a free 127.0.0.1 port that keeps track of its
 * sockets, so that closing it ends keep-alive connections instead of waiting for them to idle out.
 */
import {
  createServer,
  type IncomingMessage,
  type Server,
  type ServerOptions,
  type ServerResponse
} from 'node:http'
import type { AddressInfo, Socket } from 'node:net'

export type Handler = (request: IncomingMessage, response: ServerResponse) => void

export class LoopbackServer {
  /** Node's server, for listeners of its own (e.g. counting connections) before `listen`. */
  readonly server: Server
  private readonly sockets = new Set<Socket>()

  constructor(options: ServerOptions = {}) {
    this.server = createServer(options)
    this.server.on('connection', (socket: Socket) => {
      this.sockets.add(socket)
      socket.on('close', () => this.sockets.delete(socket))
    })
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
    return `http://127.0.0.1:${this.port}`
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy()
    await new Promise<void>((resolve) => this.server.close(() => resolve()))
  }
}
