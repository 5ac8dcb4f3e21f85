/**
 * What the command lines of the fakes (`npm run fake-server`, `npm run fake-github`) share: the
 * fake put on a chosen port, files a waiting step polls for written whole, and a stop on Ctrl-C or
 * SIGTERM.
 */
import { renameSync, writeFileSync } from 'node:fs'
import { createConnection, createServer, type Server, type Socket } from 'node:net'
import { CommandLine } from './command-line.js'

/** A fake as its command line sees it: where it listens, and how to stop it. */
export interface Listening {
  url: string
  close: () => Promise<void>
}

export class ServerCommandLine extends CommandLine {
  /** `--port`'s value as a port number, 0 for a free one. */
  port(value: string): number {
    const port = Number(value)
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
      this.usageError(`--port must be a port number (0 for a free one), got ${value}`)
    }
    return port
  }

  /**
   * The fake's address on `port`: its own for 0, else a forwarder's on that port (the fakes can
   * only take a free one). A busy or forbidden port is the user's to fix: one line, exit 1.
   */
  async listenOn(port: number, fake: Listening): Promise<Listening> {
    if (port === 0) return fake
    try {
      const forwarder = await forward(port, new URL(fake.url))
      const close = async (): Promise<void> => {
        forwarder.close()
        await fake.close()
      }
      return { url: `http://127.0.0.1:${port}`, close }
    } catch (error) {
      await fake.close()
      const code = (error as NodeJS.ErrnoException).code
      console.error(
        code === 'EADDRINUSE'
          ? `${this.name}: port ${port} is in use (choose another with --port, or leave it out for a free one)`
          : `${this.name}: cannot listen on 127.0.0.1:${port}: ${code ?? String(error)}`
      )
      process.exit(1)
    }
  }
}

/** Forwards connections on `listenPort` to `target`. */
async function forward(listenPort: number, target: URL): Promise<Server> {
  const sockets = new Set<Socket>()
  const forwarder = createServer((client) => {
    const upstream = createConnection(Number(target.port), target.hostname)
    for (const socket of [client, upstream]) {
      sockets.add(socket)
      socket.on('close', () => sockets.delete(socket))
      socket.on('error', () => {
        client.destroy()
        upstream.destroy()
      })
    }
    client.pipe(upstream).pipe(client)
  })
  forwarder.on('close', () => {
    for (const socket of sockets) socket.destroy()
  })
  await new Promise<void>((resolve, reject) => {
    forwarder.once('error', reject)
    forwarder.listen(listenPort, '127.0.0.1', resolve)
  })
  return forwarder
}

/** Written to a temporary name and renamed, so a reader never sees a half-written file. */
export function writeAtomically(path: string, text: string): void {
  writeFileSync(`${path}.tmp`, text)
  renameSync(`${path}.tmp`, path)
}

/** Runs `stop` once, on the first Ctrl-C or SIGTERM, then exits 0. */
export function stopOnSignal(stop: (signal: NodeJS.Signals) => Promise<void>): void {
  let stopping = false
  const onSignal = async (signal: NodeJS.Signals): Promise<void> => {
    if (stopping) return
    stopping = true
    await stop(signal)
    process.exit(0)
  }
  process.on('SIGINT', (signal) => void onSignal(signal))
  process.on('SIGTERM', (signal) => void onSignal(signal))
}
