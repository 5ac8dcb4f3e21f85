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
 * more the Markdown file holds.
 *
 * Exits 0 when the run went as designed (judged from the action's outputs and what the fake
 * received, not from its log), otherwise 1 with a one-line reason.
 */
import { convert } from 'html-to-text'
import { join } from 'node:path'
import { FakePurgeServer } from '../tools/fake-purge-api/server.js'
import { resultsOf, runAction, type ActionRun } from '../tools/run-like-runner.js'

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

/**
 * A workflow command, `::name key=value,…::data`, which the runner obeys instead of showing; the
 * action writes them only through @actions/core, each on a line of its own.
 */
const COMMAND = /^::([A-Za-z-]+)(?: [^:]*)?::(.*)$/
/** What the runner shows an annotation as, in the step log. */
const ANNOTATIONS = new Map([
  ['error', 'Error'],
  ['warning', 'Warning'],
  ['notice', 'Notice']
])
/** A successful call's line that says some of its keys came back without a purge id. */
const KEYS_WITHOUT_ID = /^✓ (?=.*\bwithout (?:a )?purge ids?\b)/

/** A command's data as @actions/core escaped it (`%25`, `%0D`, `%0A`), back to its text. */
function unescapeData(data: string): string {
  return data.replace(/%(25|0D|0A)/g, (_, code: string) =>
    code === '25' ? '%' : code === '0D' ? '\r' : '\n'
  )
}

/**
 * The log as the runner shows it: `add-mask` hides its value as *** from then on and shows nothing,
 * `group` is a heading (▾, folded on GitHub) with its lines indented until `endgroup`, an error,
 * warning or notice reads `Error: message`, and `debug` (shown only with step debug logging) and
 * any other command show nothing. A call marked ✓ that left keys without a purge id is marked ⚠:
 * those keys failed. `remarked` counts those lines.
 */
function asTheRunnerShows(log: string): { text: string; remarked: number } {
  const masks: string[] = []
  const shown: string[] = []
  let indent = ''
  let remarked = 0
  const show = (line: string): void => {
    const masked = masks.reduce((text, mask) => text.split(mask).join('***'), line)
    shown.push(masked === '' ? '' : `${indent}${masked}`)
  }
  for (const line of log.replace(/\n$/, '').split('\n')) {
    const command = COMMAND.exec(line)
    if (command === null) {
      if (KEYS_WITHOUT_ID.test(line)) remarked += 1
      show(line.replace(KEYS_WITHOUT_ID, '⚠ '))
      continue
    }
    const [, name = '', data = ''] = command
    const text = unescapeData(data)
    if (name === 'add-mask') {
      if (text !== '') masks.push(text)
    } else if (name === 'group') {
      // The runner does not nest groups: a group ends where the next one starts.
      indent = ''
      show(`▾ ${text}`)
      indent = '  '
    } else if (name === 'endgroup') {
      indent = ''
    } else if (ANNOTATIONS.has(name)) {
      for (const part of `${ANNOTATIONS.get(name)}: ${text}`.split(/\r?\n/)) show(part)
    }
  }
  return { text: `${shown.join('\n')}\n`, remarked }
}

/** Rows of the summary's tables shown here in all, failures first (the summary's own order). */
const SHOWN_ROWS = 8
/** Rows each table shows even when the tables above it took all of SHOWN_ROWS. */
const MIN_SHOWN_ROWS = 3

const TABLE = /<table\b[^>]*>[\s\S]*?<\/table>/gi
const ROW = /<tr\b[^>]*>[\s\S]*?<\/tr>\n?/gi
const isDataRow = (row: string): boolean => /<td\b/i.test(row)

/**
 * The summary's HTML with each table cut to its first rows, so the log above stays on screen, and
 * under a table that lost rows, how many: the Markdown file the action wrote has them all. A
 * "Showing N of M" line after a table is the summary's own (the file holds N of M).
 */
function cutTables(html: string): string {
  let left = SHOWN_ROWS
  return html.replace(TABLE, (table) => {
    const rows = (table.match(ROW) ?? []).filter(isDataRow).length
    const keep = Math.min(rows, Math.max(left, MIN_SHOWN_ROWS))
    left -= keep
    if (keep === rows) return table
    let seen = 0
    const cut = table.replace(ROW, (row) => (!isDataRow(row) || ++seen <= keep ? row : ''))
    return (
      `${cut}\n<p>(${keep} of this table’s ${rows} rows shown here; ` +
      `the other ${rows - keep} are in the Markdown file named below.)</p>`
    )
  })
}

/** The summary as text with aligned columns, headings as written (a service id keeps its case). */
function forTerminal(html: string): string {
  const heading = { format: 'heading', options: { uppercase: false } }
  return convert(cutTables(html), {
    wordwrap: Math.min(process.stdout.columns ?? 120, 160),
    selectors: [
      ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((selector) => ({ selector, ...heading })),
      { selector: 'table', format: 'dataTable', options: { maxColumnWidth: 72 } }
    ]
  })
}

function section(title: string): void {
  console.log(`\n━━ ${title} ${'━'.repeat(Math.max(3, 76 - title.length))}\n`)
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

  section('The action’s log, as the runner shows it for the step')
  const log = asTheRunnerShows(run.log)
  process.stdout.write(log.text)
  if (log.remarked > 0) {
    console.log(
      '\n⚠ where the action’s line has ✓: the server answered the call but gave no purge id for ' +
        'some of its keys, and a key without a purge id counts as failed (see its Error line).'
    )
  }
  section('The job summary')
  console.log(forTerminal(run.summary))
  console.log(`\nMarkdown written by the action: ${join(run.dir, 'summary.md')}`)
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
