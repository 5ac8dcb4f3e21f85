/**
 * npm run fake-github [-- --port 8788 --token gh-test-token --env-file PATH --pid-file PATH
 *                        --quiet --help]
 *
 * Starts the fake GitHub API (tools/fake-github-api/, which the tests use too) on 127.0.0.1 with
 * a small demo repository (tools/fake-github-api/demo-repository.ts) and keeps it running until it
 * is stopped (Ctrl-C, SIGTERM), so that changed-files and `changed-since: last-purge` can be tried
 * offline.
 *
 * Once listening it prints the variables a run on the demo's push needs, as `NAME=value` lines (the
 * format of .env.example, which `npm run action -- --env-file` reads), and writes them to
 * --env-file when given (created last, so a waiting step can poll for it). They are not shell
 * exports: `INPUT_GITHUB-TOKEN` is no shell name. The push event is a file in a directory of its
 * own under the system's temporary directory, removed when the fake stops. It describes the demo's
 * history on stderr, and logs each request it receives there (not with --quiet).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  DEMO_SERVICE,
  demoRepository,
  type DemoCommit
} from '../tools/fake-github-api/demo-repository.js'
import { FakeGitHubApi } from '../tools/fake-github-api/server.js'
import { ServerCommandLine, stopOnSignal, writeAtomically } from '../tools/server-cli.js'

const USAGE = `Usage: npm run fake-github [-- OPTIONS]

Runs the test suite's fake GitHub API on 127.0.0.1 with a demo repository (acme/site) until
stopped (Ctrl-C, SIGTERM), and prints the variables a run on its latest push needs.

Options:
  --port N           listen on port N (default: a free port)
  --token TOKEN      the GitHub token it accepts, with contents: read and deployments: write
                     (default: gh-test-token)
  --env-file PATH    write the variables there once listening, for npm run action -- --env-file
  --pid-file PATH    write the id of the process to stop there
  --quiet            do not describe the repository and log each request on stderr
  -h, --help         show this help`

const commandLine = new ServerCommandLine('fake-github', USAGE)
const args = commandLine.parse({
  port: { type: 'string', default: '0' },
  token: { type: 'string', default: 'gh-test-token' },
  'env-file': { type: 'string' },
  'pid-file': { type: 'string' },
  quiet: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false }
})
const port = commandLine.port(args.port)

const fake = await FakeGitHubApi.start({ tokens: { [args.token]: 'read' } })
const repository = demoRepository(fake)
const { url, close } = await commandLine.listenOn(port, fake)

const eventDir = mkdtempSync(join(tmpdir(), 'edge-purge-fake-github-'))
const eventPath = join(eventDir, 'push.json')
writeFileSync(eventPath, `${JSON.stringify(repository.event, null, 2)}\n`)

const variables = [
  `GITHUB_API_URL=${url}`,
  `GITHUB_REPOSITORY=${fake.owner}/${fake.repo}`,
  'GITHUB_EVENT_NAME=push',
  `GITHUB_EVENT_PATH=${eventPath}`,
  `GITHUB_SHA=${repository.event.after}`,
  `INPUT_GITHUB-TOKEN=${args.token}`
].join('\n')

const short = (commit: DemoCommit): string => commit.sha.slice(0, 7)
/** The demo's history, as a newcomer needs it to read what a run compares. */
function describe(): void {
  const { root, draft, about, post } = repository
  console.error(
    `fake GitHub API listening: repository ${fake.owner}/${fake.repo}, token ${args.token} ` +
      '(contents: read, deployments: write)'
  )
  console.error(`  main: ${short(root)} ${root.message}`)
  console.error(`        ${short(about)} ${about.message}`)
  console.error(
    `        ${short(post)} ${post.message}   ← the push: ${short(about)}...${short(post)}`
  )
  console.error(`  force-pushed away: ${short(draft)} ${draft.message}, on top of ${short(root)}`)
  console.error(
    `  purge mark of ${DEMO_SERVICE}: ${short(draft)} purged completely ` +
      `(a deployment in edge-purge/${DEMO_SERVICE})`
  )
  console.error('stop with Ctrl-C')
}

let logged = 0
function logRequests(): void {
  for (const request of fake.requests.slice(logged)) {
    const query = request.query.toString()
    console.error(`${request.method} ${request.path}${query === '' ? '' : `?${query}`}`)
  }
  logged = fake.requests.length
}
const poll = args.quiet ? undefined : setInterval(logRequests, 100)

if (args['pid-file'] !== undefined) writeAtomically(args['pid-file'], `${process.pid}\n`)
if (args['env-file'] !== undefined) writeAtomically(args['env-file'], `${variables}\n`)
console.log(variables)
if (!args.quiet) describe()

stopOnSignal(async (signal) => {
  clearInterval(poll)
  if (!args.quiet) logRequests()
  await close()
  rmSync(eventDir, { recursive: true, force: true })
  if (!args.quiet) console.error(`fake GitHub API stopped (${signal})`)
})
