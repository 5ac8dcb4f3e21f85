/**
 * npm run demo
 *
 * Shows the action at work in one command, with nothing to set up: starts the fake
 * purge API (tools/fake-purge-api/) on a free 127.0.0.1 port, runs the bundled
 * dist/index.js against it as the GitHub runner does (tools/run-like-runner.ts), prints the
 * action's log and its job summary, and stops the server.
 *
 * One run purges 600 surrogate keys (three JSON batch calls at the default batch-size of 256) and
 * three URLs under the fake's address. The fake leaves one key out of its batch answer, as a real
 * purge API does with a key it did not purge, so the run shows a failure too and the step fails,
 * as it would on GitHub.
 *
 * The log is shown as the runner shows it, not as the action writes it: workflow commands are
 * acted on (a masked value becomes ***, a group a folded heading, an error an `Error:` line), and a
 * call that left a key without a purge id is marked ⚠, not ✓ (a note says why). The summary is
 * shown as text, its headings as written, each table cut to a few rows with a note of how many
 * more the Markdown file holds (tools/run-as-text.ts, which `npm run action` prints with too).
 *
 * Exits 0 when the run went as designed (judged from the action's outputs and what the fake
 * received, not from its log), otherwise 1 with a one-line reason.
 */
import { FakePurgeServer } from '../tools/fake-purge-api/server.js'
import { resultsOf, runAction, type ActionRun } from '../tools/run-like-runner.js'
import { printLog, printSummary, section } from '../tools/run-as-text.js'

const TOKEN = 'demo-token'
const SERVICE = 'svc123'
const REFUSED = 'product-300'
const KEYS = [
  'homepage',
  'sitemap',
  'category-shoes',
  ...Array.from({ length: 597 }, (_, index) => `product-${index + 1}`)
]
const BATCHES = 3
const PATHS = ['/', '/products/42', '/css/site.css']

/** What the run must show; the first broken expectation, or undefined when all hold. */
function departure(run: ActionRun, fake: FakePurgeServer, urls: string[]): string | undefined {
  const results = resultsOf(run)
  const failed = results.filter((result) => result.status === 'failed')
  const purged = results.filter((result) => result.status === 'purged')
  const ids = JSON.parse(run.outputs['purge-ids'] ?? '{}') as Record<string, string>
  const batchCalls = fake.requests.filter((request) => request.path.endsWith('/purge')).length
  const expected = KEYS.length + urls.length - 1
  const checks: [boolean, string][] = [
    [run.code === 1, `the action exited ${run.code}, not 1 (step failed for the refused key)`],
    [results.length === KEYS.length + urls.length, `results has ${results.length} entries`],
    [
      failed.length === 1 && failed[0]?.target === REFUSED,
      `failed targets are [${failed.map((result) => result.target).join(', ')}], not [${REFUSED}]`
    ],
    [
      purged.length === expected && purged.every((result) => result.id !== null),
      `${purged.length} targets purged with an id, not ${expected}`
    ],
    [
      run.outputs['purged-count'] === String(expected),
      `purged-count is ${run.outputs['purged-count']}, not ${expected}`
    ],
    [run.outputs['failed-count'] === '1', `failed-count is ${run.outputs['failed-count']}`],
    [
      Object.keys(ids).length === expected && !(REFUSED in ids),
      'purge-ids does not hold exactly the purged targets'
    ],
    [batchCalls === BATCHES, `the fake received ${batchCalls} batch calls, not ${BATCHES}`],
    [
      fake.purgedUrls.length === urls.length,
      `the fake purged ${fake.purgedUrls.length} URLs, not ${urls.length}`
    ],
    [run.summary.includes(REFUSED), 'the job summary does not name the refused key']
  ]
  return checks.find(([holds]) => !holds)?.[1]
}

const fake = await FakePurgeServer.start({ tokens: { [TOKEN]: 'engineer' }, services: [SERVICE] })
let reason: string | undefined
try {
  fake.fault({
    match: (request) => request.body.includes(`"${REFUSED}"`),
    action: { kind: 'omit', keys: [REFUSED] }
  })
  const urls = PATHS.map((path) => `${fake.url}${path}`)
  console.log(
    `Fake purge API on ${fake.url}: ${KEYS.length} keys and ${urls.length} URLs to purge;`
  )
  console.log(`it will leave ${REFUSED} out of its answer, so that key fails.`)
  const run = await runAction({
    'api-token': TOKEN,
    'base-url': fake.url,
    'service-id': SERVICE,
    keys: KEYS.join('\n'),
    urls: urls.join('\n'),
    // Only the runner expands action.yml's default `${{ github.token }}`; without changed-files no
    // GitHub token is needed, and a literal one would only be masked in the log.
    'github-token': ''
  })

  printLog(run)
  printSummary(run)
  console.log(`Every result as JSON: ${run.outputs['results-file'] ?? '(no results-file output)'}`)
  reason = departure(run, fake, urls)
} catch (error) {
  reason = (error instanceof Error ? error.message : String(error)).split('\n')[0]
} finally {
  await fake.close()
}

section('Demo')
if (reason === undefined) {
  console.log(
    `As designed: ${KEYS.length - 1} keys in ${BATCHES} batch calls and ${PATHS.length} URLs purged, ` +
      `${REFUSED} failed, and the step failed as it would on GitHub.`
  )
} else {
  console.error(`demo: not as designed: ${reason}`)
  process.exitCode = 1
}
