/**
 * npm run fake-server [-- --port 8787 --token test-token --service svc123 --url-file PATH
 *                        --state-file PATH --pid-file PATH --quiet --help]
 *
 * Starts the fake purge API (tools/fake-purge-api/, which the tests, demo and bench use too) on
 * 127.0.0.1 and
 * keeps it running until it is stopped (Ctrl-C, SIGTERM). It answers the management calls
 * (`/service/{id}/purge_all`, `/purge/{key}`, batches) for the given token and service, and per-URL
 * `PURGE` on any path, so URLs under its address can be purged too.
 *
 * Once listening it prints its URL and
 * - writes it to --url-file, when given (created last, so a waiting step can poll for it);
 * - appends `url=<url>` to $GITHUB_OUTPUT and `EDGE_PURGE_FAKE_URL=<url>` to $GITHUB_ENV, when set.
 * It logs each request it receives on stderr (not with --quiet). With --state-file it keeps a JSON
 * record there of every request and what was purged; --pid-file names the process to stop
 * (`kill "$(cat PATH)"`: stopping `npm` itself does not reach the server).
 *
 * The fake always listens on a free port. With --port, a TCP forwarder on that port stands in front
 * of it and the printed URL names the given port.
 */
import { appendFileSync, renameSync, writeFileSync } from 'node:fs'
import { createConnection, createServer, type Server, type Socket } from 'node:net'
import { parseArgs } from 'node:util'
import { FakePurgeServer } from '../tools/fake-purge-api/server.js'

const USAGE = `Usage: npm run fake-server [-- OPTIONS]

Runs the test suite's fake purge API on 127.0.0.1 until stopped (Ctrl-C, SIGTERM).

Options:
  --port N           listen on port N (default: a free port)
  --token TOKEN      the API token it accepts, with engineer role (default: test-token)
  --service ID       the service id it knows (default: svc123)
  --url-file PATH    write its URL there once listening
  --state-file PATH  keep a JSON record there of every request and what was purged
  --pid-file PATH    write the id of the process to stop there
  --quiet            do not log each request on stderr
  -h, --help         show this help`

/** A command-line mistake: one line saying what is wrong, then the usage, exit 2. */
function usageError(message: string): never {
  console.error(`fake-server: ${message}`)
  console.error(USAGE)
  process.exit(2)
}

const OPTIONS = {
  port: { type: 'string', default: '0' },
  token: { type: 'string', default: 'test-token' },
  service: { type: 'string', default: 'svc123' },
  'url-file': { type: 'string' },
  'state-file': { type: 'string' },
  'pid-file': { type: 'string' },
  quiet: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false }
} as const

function parseCommandLine() {
  try {
    return parseArgs({ options: OPTIONS }).values
  } catch (error) {
    // parseArgs adds a second sentence on passing dash-led positionals; the first says what is wrong.
    const message = error instanceof Error ? error.message : String(error)
    return usageError(message.split(/\.\s/)[0] ?? message)
  }
}

const args = parseCommandLine()
if (args.help) {
  console.log(USAGE)
  process.exit(0)
}

const port = Number(args.port)
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  usageError(`--port must be a port number (0 for a free one), got ${args.port}`)
}

const fake = await FakePurgeServer.start({
  tokens: { [args.token]: 'engineer' },
  services: [args.service]
})

/** Forwards connections on `listenPort` to the fake, which itself can only take a free port. */
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

/** Listening errors as one line: a busy or forbidden port is the user's to fix, not a stack. */
async function forwardOrExit(listenPort: number): Promise<Server> {
  try {
    return await forward(listenPort, new URL(fake.url))
  } catch (error) {
    await fake.close()
    const code = (error as NodeJS.ErrnoException).code
    console.error(
      code === 'EADDRINUSE'
        ? `fake-server: port ${listenPort} is in use (choose another with --port, or leave it out for a free one)`
        : `fake-server: cannot listen on 127.0.0.1:${listenPort}: ${code ?? String(error)}`
    )
    process.exit(1)
  }
}

const forwarder = port === 0 ? undefined : await forwardOrExit(port)
const url = forwarder === undefined ? fake.url : `http://127.0.0.1:${port}`

/** Written to a temporary name and renamed, so a reader never sees a half-written file. */
function writeAtomically(path: string, text: string): void {
  writeFileSync(`${path}.tmp`, text)
  renameSync(`${path}.tmp`, path)
}

let recorded = -1
function recordState(): void {
  if (fake.requests.length === recorded) return
  for (const request of fake.requests.slice(Math.max(recorded, 0))) {
    if (!args.quiet) console.error(`${request.method} ${request.path}`)
  }
  recorded = fake.requests.length
  const path = args['state-file']
  if (path === undefined) return
  const state = {
    url,
    requests: fake.requests.map(({ method, path: target, headers }) => ({
      method,
      path: target,
      host: headers.host,
      softPurge: headers['edge-soft-purge'] ?? null,
      surrogateKey: headers['surrogate-key'] ?? null
    })),
    purgedKeys: fake.purgedKeys,
    purgedUrls: fake.purgedUrls,
    purgeAlls: fake.purgeAlls
  }
  writeAtomically(path, `${JSON.stringify(state, null, 2)}\n`)
}
recordState()
const poll = setInterval(recordState, 100)

if (process.env.GITHUB_OUTPUT) appendFileSync(process.env.GITHUB_OUTPUT, `url=${url}\n`)
if (process.env.GITHUB_ENV) appendFileSync(process.env.GITHUB_ENV, `EDGE_PURGE_FAKE_URL=${url}\n`)
if (args['pid-file'] !== undefined) writeAtomically(args['pid-file'], `${process.pid}\n`)
if (args['url-file'] !== undefined) writeAtomically(args['url-file'], `${url}\n`)
console.log(url)
if (!args.quiet) {
  console.error(
    `fake purge API listening: token ${args.token} (engineer), service ${args.service}; stop with Ctrl-C`
  )
}

let stopping = false
async function stop(signal: NodeJS.Signals): Promise<void> {
  if (stopping) return
  stopping = true
  clearInterval(poll)
  recordState()
  forwarder?.close()
  await fake.close()
  if (!args.quiet) console.error(`fake purge API stopped (${signal})`)
  process.exit(0)
}
process.on('SIGINT', (signal) => void stop(signal))
process.on('SIGTERM', (signal) => void stop(signal))
