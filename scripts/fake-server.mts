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
import { appendFileSync } from 'node:fs'
import { FakePurgeServer } from '../tools/fake-purge-api/server.js'
import { ServerCommandLine, stopOnSignal, writeAtomically } from '../tools/server-cli.js'

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

const commandLine = new ServerCommandLine('fake-server', USAGE)
const args = commandLine.parse({
  port: { type: 'string', default: '0' },
  token: { type: 'string', default: 'test-token' },
  service: { type: 'string', default: 'svc123' },
  'url-file': { type: 'string' },
  'state-file': { type: 'string' },
  'pid-file': { type: 'string' },
  quiet: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false }
})
const port = commandLine.port(args.port)

const fake = await FakePurgeServer.start({
  tokens: { [args.token]: 'engineer' },
  services: [args.service]
})
const { url, close } = await commandLine.listenOn(port, fake)

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

stopOnSignal(async (signal) => {
  clearInterval(poll)
  recordState()
  await close()
  if (!args.quiet) console.error(`fake purge API stopped (${signal})`)
})
