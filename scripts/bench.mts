/**
 * npm run bench [-- --latency 20 --runs 8 --quick]
 *
 * Runs the bundled action the way the runner does against the fake purge server with added latency,
 * and compares each scenario with its lower bound measured in the same run: the start of an action
 * whose main is an empty file, launched the same way, plus ceil(calls / concurrency) round trips.
 * `verify1k` (a purge-all, then 1,000 pages checked at the edge) starts from the action's own start
 * instead: `cold`, plus the purge round trip, plus ceil(1000 / concurrency) round trips of checks.
 * `cold`, `keys10k` and a bundle of `@actions/core` alone are each timed in turn with an empty
 * action, run by run, and judged by the median of the pairs' ratios, which holds when the machine's
 * speed drifts.
 * keys10k's runs also report where their time goes, from the marks the action sets at the end of
 * each phase. Writes the tables, and what they mean with the figures of the same run, to
 * BENCHMARKS.md.
 */
import { execFile } from 'node:child_process'
import { createServer } from 'node:http'
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { cpus, loadavg, tmpdir } from 'node:os'
import type { AddressInfo, Socket } from 'node:net'
import { join } from 'node:path'
import { parseArgs, promisify } from 'node:util'
import { FakePurgeServer } from '../tools/fake-purge-api/server.js'
import {
  removeRunDirs,
  ROOT,
  RUN_CONTEXT_ENV,
  runAction,
  type ActionRun,
  type RunOptions
} from '../tools/run-like-runner.js'

const { values: args } = parseArgs({
  options: {
    latency: { type: 'string', default: '20' },
    runs: { type: 'string', default: '8' },
    quick: { type: 'boolean', default: false }
  }
})
const LATENCY_MS = Number(args.latency)
const RUNS = Number(args.runs)
/**
 * Pairs of starts for `cold` and a bundle of core alone. A start takes a tenth of a second, and on
 * this shared machine the median of 8 pairs was 3.10 in one run of the bench and 3.81 in the next,
 * a quarter of an hour later: three times as many pairs cost a few seconds and steady it.
 */
const START_PAIRS = 3 * RUNS
const TOKEN = 'bench-token'

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2
}

const keyList = (count: number, prefix: string): string[] =>
  Array.from({ length: count }, (_, index) => `${prefix}-${index}`)

interface Measured {
  medianMs: number
  calls: number
  connections: number
  runs: ActionRun[]
  /** With `pairWith`: the entry's time in each round, launched just before the run. */
  pairedMs: number[]
}

async function measure(
  server: FakePurgeServer,
  inputs: Record<string, string>,
  options: RunOptions = {},
  runs = RUNS,
  envOfRun: (index: number) => Record<string, string> = () => ({}),
  pairWith?: string
): Promise<Measured> {
  const times: number[] = []
  const results: ActionRun[] = []
  const pairedMs: number[] = []
  let calls = 0
  let connections = 0
  for (let index = 0; index < runs; index += 1) {
    if (pairWith !== undefined) {
      pairedMs.push((await runAction({}, { entry: pairWith, env: RUN_CONTEXT_ENV })).elapsedMs)
    }
    const requestsBefore = server.requests.length
    const connectionsBefore = server.connections
    const env = { ...RUN_CONTEXT_ENV, ...options.env, ...envOfRun(index) }
    const run = await runAction(inputs, { ...options, env })
    if (run.code !== 0) throw new Error(`benchmark run failed:\n${run.stdout}\n${run.stderr}`)
    times.push(run.elapsedMs)
    results.push(run)
    calls = server.requests.length - requestsBefore
    connections = server.connections - connectionsBefore
  }
  return { medianMs: median(times), calls, connections, runs: results, pairedMs }
}

/** Median start of an entry launched as the runner launches an action, with no inputs. */
async function actionStart(entry: string): Promise<number> {
  const times: number[] = []
  for (let index = 0; index < Math.max(RUNS, 7); index += 1) {
    times.push((await runAction({}, { entry, env: RUN_CONTEXT_ENV })).elapsedMs)
  }
  return median(times)
}

/** Two entries started in turn, run by run: their medians, and the median of A's time over B's. */
async function pairedStarts(
  a: { inputs: Record<string, string>; entry?: string },
  b: { inputs: Record<string, string>; entry?: string },
  rounds = START_PAIRS
): Promise<{ aMs: number; bMs: number; ratio: number }> {
  const aTimes: number[] = []
  const bTimes: number[] = []
  const ratios: number[] = []
  for (let index = 0; index < rounds; index += 1) {
    const first = await runAction(a.inputs, { entry: a.entry, env: RUN_CONTEXT_ENV })
    const second = await runAction(b.inputs, { entry: b.entry, env: RUN_CONTEXT_ENV })
    if (first.code !== 0) throw new Error(`benchmark run failed:\n${first.stdout}`)
    aTimes.push(first.elapsedMs)
    bTimes.push(second.elapsedMs)
    ratios.push(first.elapsedMs / second.elapsedMs)
  }
  return { aMs: median(aTimes), bMs: median(bTimes), ratio: median(ratios) }
}

/** The phases a run's time is told in, each ending at the action's mark of the same name. */
const PHASES = ['start', 'inputs', 'plan', 'calls', 'outputs', 'summary'] as const

/** Writes the action's marks (ms from the process's start) to BENCH_MARKS_FILE at exit. */
const MARKS_PRELOAD =
  'data:text/javascript,import{writeFileSync}from"node:fs";process.on("exit",()=>writeFileSync(process.env.BENCH_MARKS_FILE,JSON.stringify(performance.getEntriesByType("mark").map((m)=>[m.name,m.startTime]))))'

/** Median milliseconds of each phase, and from the last mark to the exit the harness saw. */
async function phasesOf(runs: ActionRun[], marksFiles: string[]): Promise<Record<string, number>> {
  const perPhase: Record<string, number[]> = {}
  for (const [index, run] of runs.entries()) {
    const marks = new Map(
      JSON.parse(await readFile(marksFiles[index] ?? '', 'utf8')) as [string, number][]
    )
    let previous = 0
    for (const phase of PHASES) {
      const at = marks.get(`edge-purge:${phase}`) ?? NaN
      ;(perPhase[phase] ??= []).push(at - previous)
      previous = at
    }
    ;(perPhase.exit ??= []).push(run.elapsedMs - previous)
  }
  return Object.fromEntries(
    Object.entries(perPhase).map(([phase, times]) => [phase, median(times)])
  )
}

/** The bench's own temporary directories (entries, lists, reports), removed when it ends. */
const scratchDirs: string[] = []

async function scratchDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix))
  scratchDirs.push(dir)
  return dir
}

async function removeScratchDirs(): Promise<void> {
  await Promise.all(scratchDirs.map((dir) => rm(dir, { recursive: true, force: true })))
}

/** An ES module in a directory of its own, so `entry` names a file node runs as ESM. */
async function moduleEntry(code: string): Promise<string> {
  const dir = await scratchDir('edge-purge-entry-')
  await writeFile(join(dir, 'package.json'), '{"type":"module"}')
  await writeFile(join(dir, 'index.js'), code)
  return join(dir, 'index.js')
}

type Ncc = (entry: string, options: { quiet: boolean }) => Promise<{ code: string }>

/**
 * `@actions/core` alone, bundled with ncc as dist/ is: what an action that reads one input costs to
 * start with this stack. The entry sits under node_modules so ncc resolves the project's packages.
 */
async function coreOnlyBundle(): Promise<{ entry: string; bytes: number }> {
  const ncc = createRequire(import.meta.url)('@vercel/ncc') as Ncc
  const dir = join(ROOT, 'node_modules', '.cache', 'edge-purge-bench')
  await mkdir(dir, { recursive: true })
  const source = join(dir, 'core-only.mjs')
  await writeFile(source, "import * as core from '@actions/core'\ncore.getInput('keys')\n")
  try {
    const { code } = await ncc(source, { quiet: true })
    return { entry: await moduleEntry(code), bytes: Buffer.byteLength(code) }
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

async function distSize(): Promise<{ total: number; startup: number }> {
  const dist = join(ROOT, 'dist')
  let total = 0
  for (const name of await readdir(dist)) {
    if (name.endsWith('.js')) total += (await stat(join(dist, name))).size
  }
  return { total, startup: (await stat(join(dist, 'index.js'))).size }
}

const PEAK_RSS_PRELOAD =
  'data:text/javascript,import{writeFileSync}from"node:fs";process.on("exit",()=>writeFileSync(process.env.BENCH_RSS_FILE,String(process.resourceUsage().maxRSS)))'

async function peakRssMb(server: FakePurgeServer, keys: number): Promise<number> {
  const rssFile = join(await scratchDir('edge-purge-rss-'), 'rss')
  const run = await runAction(
    { 'api-token': TOKEN, 'base-url': server.url, 'service-id': 'svc123', 'keys-file': 'keys.txt' },
    {
      files: { 'keys.txt': keyList(keys, 'product-variant').join('\n') },
      env: { ...RUN_CONTEXT_ENV, BENCH_RSS_FILE: rssFile },
      nodeArgs: ['--import', PEAK_RSS_PRELOAD]
    }
  )
  if (run.code !== 0) throw new Error(`memory run failed:\n${run.stdout}`)
  return Number(await readFile(rssFile, 'utf8')) / 1024
}

async function curlLoopMs(urls: string[]): Promise<number> {
  const dir = await scratchDir('edge-purge-curl-')
  const list = join(dir, 'urls.txt')
  await writeFile(list, `${urls.join('\n')}\n`)
  const times: number[] = []
  for (let index = 0; index < Math.min(RUNS, 3); index += 1) {
    const started = performance.now()
    // Asynchronous: the fake server answering curl lives in this process.
    await promisify(execFile)('bash', [
      '-c',
      `while read -r u; do curl -s -o /dev/null -X PURGE "$u"; done < "${list}"`
    ])
    times.push(performance.now() - started)
  }
  return median(times)
}

/** When one run's checks reached the pages: the first GET arrived, the last answer was sent (ms epoch). */
interface PageWindow {
  firstGetMs: number
  lastAnswerMs: number
}

/**
 * Pages as the edge serves them right after a purge: a small page with `Age: 0`, after the same
 * added latency as the purge API. The fake purge server answers no GET, so the checks need this.
 */
interface PageServer {
  url: string
  gets: number
  connections: number
  window: PageWindow
  close(): Promise<void>
}

const PAGE =
  '<!doctype html><html><head><title>Release</title></head><body>The new release.</body></html>'

async function startPageServer(): Promise<PageServer> {
  const sockets = new Set<Socket>()
  const server = createServer((request, response) => {
    pages.gets += 1
    if (Number.isNaN(pages.window.firstGetMs)) pages.window.firstGetMs = Date.now()
    request.resume()
    setTimeout(() => {
      response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', Age: '0' })
      response.end(PAGE, () => {
        pages.window.lastAnswerMs = Date.now()
      })
    }, LATENCY_MS)
  })
  server.on('connection', (socket: Socket) => {
    pages.connections += 1
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const pages: PageServer = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    gets: 0,
    connections: 0,
    window: { firstGetMs: NaN, lastAnswerMs: NaN },
    close: async () => {
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  }
  return pages
}

/** Where a verify run's time goes, medians over the runs (ms). */
interface VerifyMeasured {
  medianMs: number
  /** Spawn → the purge call reached the API: the action's own start. */
  startMs: number
  /** Purge call received → first GET received: the purge round trip and the stage's setup. */
  purgeMs: number
  /** First GET received → last answer sent: the checks themselves. */
  checksMs: number
  /** Last answer sent → exit: judging the last URL, outputs, verification file, summary. */
  endMs: number
  connections: number
}

async function measureVerify(
  server: FakePurgeServer,
  pages: PageServer,
  inputs: Record<string, string>,
  urls: number
): Promise<VerifyMeasured> {
  const phases: Record<'total' | 'start' | 'purge' | 'checks' | 'end', number[]> = {
    total: [],
    start: [],
    purge: [],
    checks: [],
    end: []
  }
  let connections = 0
  for (let index = 0; index < RUNS; index += 1) {
    const requestsBefore = server.requests.length
    const { gets, connections: connectionsBefore } = pages
    pages.window = { firstGetMs: NaN, lastAnswerMs: NaN }
    const run = await runAction(inputs, { env: RUN_CONTEXT_ENV })
    // runAction reads two small files after the exit: the spawn time derived here is that early.
    const exitMs = Date.now()
    const spawnMs = exitMs - run.elapsedMs
    const purge = server.requests[requestsBefore]
    const fresh = Number(run.outputs['fresh-count'])
    if (run.code !== 0 || purge === undefined || fresh !== urls || pages.gets - gets !== urls) {
      throw new Error(
        `verify run failed (${pages.gets - gets} GETs, ${fresh} fresh):\n${run.stdout}\n${run.stderr}`
      )
    }
    const { firstGetMs, lastAnswerMs } = pages.window
    phases.total.push(run.elapsedMs)
    phases.start.push(purge.receivedAt - spawnMs)
    phases.purge.push(firstGetMs - purge.receivedAt)
    phases.checks.push(lastAnswerMs - firstGetMs)
    phases.end.push(exitMs - lastAnswerMs)
    connections = pages.connections - connectionsBefore
  }
  return {
    medianMs: median(phases.total),
    startMs: median(phases.start),
    purgeMs: median(phases.purge),
    checksMs: median(phases.checks),
    endMs: median(phases.end),
    connections
  }
}

/**
 * The floor for the checks: node's own HTTP fetching the same pages in a process of its own, with a
 * keep-alive agent of `concurrency` sockets and the prober's headers, timed from the first request
 * to the last body. What the checks take beyond this is the action's, not node's or the machine's.
 */
async function bareLoopMs(urls: string[], concurrency: number): Promise<number> {
  const entry = await moduleEntry(`
import { Agent, get } from 'node:http'
const urls = process.env.BENCH_URLS.split('\\n')
const agent = new Agent({ keepAlive: true, maxSockets: ${concurrency} })
const headers = { 'User-Agent': 'edge-purge-bench', 'Accept-Encoding': 'gzip, deflate, br' }
let next = 0
const fetchOne = (url) => new Promise((resolve, reject) => {
  get(url, { agent, headers }, (response) => response.resume().on('end', resolve)).on('error', reject)
})
const worker = async () => { while (next < urls.length) await fetchOne(urls[next++]) }
const started = performance.now()
await Promise.all(Array.from({ length: ${concurrency} }, worker))
console.log(performance.now() - started)
agent.destroy()
`)
  const times: number[] = []
  for (let index = 0; index < Math.min(RUNS, 3); index += 1) {
    // Asynchronous: the page server answering it lives in this process.
    const { stdout } = await promisify(execFile)(process.execPath, [entry], {
      env: { PATH: process.env.PATH ?? '', BENCH_URLS: urls.join('\n') }
    })
    times.push(Number(stdout))
  }
  return median(times)
}

/** The project's targets, judged against each run. */
const TARGETS = { coldRatio: 3.4, keys10kRatio: 2.3, verify1kRatio: 1.25, mem100kMb: 120 }

interface Row {
  scenario: string
  calls: number | string
  medianMs: number
  boundMs: number | undefined
  /** A ratio measured run by run; otherwise the median over the bound. */
  pairedRatio?: number
  target: string
  note: string
}

interface CurvePoint {
  concurrency: number
  medianMs: number
  boundMs: number
  connections: number
}

/** What the prose below the tables says, every figure from this run. */
interface Figures {
  /** The 1-minute load average when the run began: other work on the machine slows every figure. */
  loadAtStart: number
  emptyMs: number
  coldMs: number
  coldRatio: number
  core: { startMs: number; bytes: number; ratio: number }
  /** Where keys10k's time goes: the median of each phase. */
  keys10kPhases: Record<string, number>
  concurrency: number
  keys10kCalls: number
  urls1k: { medianMs: number; boundMs: number; connections: number }
  soft1k: { medianMs: number; boundMs: number }
  /** Bound from `cold`'s start, and the same bound from an empty action's start. */
  verify1k: VerifyMeasured & {
    boundMs: number
    emptyBoundMs: number
    checkRounds: number
    bareLoopMs: number
  }
  rssOneKeyMb: number
  rss100kMb: number
  curve: CurvePoint[]
}

const format = (ms: number): string => `${ms.toFixed(0)} ms`
const judged = (text: string, met: boolean): string => `${text} (${met ? 'met' : 'missed'})`
const percent = (part: number, whole: number): string => `${((part / whole) * 100).toFixed(0)}%`

async function main(): Promise<void> {
  const loadAtStart = loadavg()[0] ?? NaN
  const server = await FakePurgeServer.start({
    tokens: { [TOKEN]: 'engineer' },
    latencyMs: LATENCY_MS
  })
  const api = { 'api-token': TOKEN, 'base-url': server.url, 'service-id': 'svc123' }
  const rows: Row[] = []
  const concurrency = 8
  const bound = (start: number, calls: number, perCall = concurrency): number =>
    start + Math.ceil(calls / perCall) * LATENCY_MS
  try {
    const emptyEntry = await moduleEntry('')
    const empty = await actionStart(emptyEntry)
    console.log(`empty action start (median): ${format(empty)}`)

    const keysFile = { files: { 'keys.txt': keyList(10_000, 'product').join('\n') } }
    let keys10kCalls = 0
    let keys10kPhases: Record<string, number> = {}
    for (const [scenario, format_] of [
      ['keys10k', 'json'],
      ['keys10k-header', 'header']
    ] as const) {
      const marksDir = await scratchDir('edge-purge-marks-')
      const marksFiles = Array.from({ length: RUNS }, (_, index) => join(marksDir, `${index}.json`))
      const result = await measure(
        server,
        { ...api, 'keys-file': 'keys.txt', 'batch-format': format_ },
        { ...keysFile, nodeArgs: ['--import', MARKS_PRELOAD] },
        RUNS,
        (index) => ({ BENCH_MARKS_FILE: marksFiles[index] ?? '' }),
        emptyEntry
      )
      if (scenario === 'keys10k') keys10kPhases = await phasesOf(result.runs, marksFiles)
      // Each run against the bound from the empty action launched just before it.
      const ratio = median(
        result.runs.map(
          (run, index) => run.elapsedMs / bound(result.pairedMs[index] ?? NaN, result.calls)
        )
      )
      if (scenario === 'keys10k') keys10kCalls = result.calls
      rows.push({
        scenario,
        calls: result.calls,
        medianMs: result.medianMs,
        boundMs: bound(median(result.pairedMs), result.calls),
        pairedRatio: ratio,
        target:
          scenario === 'keys10k'
            ? judged(`≤ ${TARGETS.keys10kRatio.toFixed(2)}`, ratio <= TARGETS.keys10kRatio)
            : '',
        note: 'timed in turn with the empty action, ratio of the pairs'
      })
    }

    const urls = keyList(1000, `${server.url}/page`)
    const urlsFile = { files: { 'urls.txt': urls.join('\n') } }
    const urlRun = await measure(server, { 'urls-file': 'urls.txt' }, urlsFile)
    const urlBound = bound(empty, urlRun.calls)
    rows.push({
      scenario: 'urls1k',
      calls: urlRun.calls,
      medianMs: urlRun.medianMs,
      boundMs: urlBound,
      target: '',
      note: `${urlRun.connections} TCP connections (concurrency ${concurrency})`
    })

    const soft = await measure(
      server,
      { ...api, 'keys-file': 'keys.txt', soft: 'true' },
      {
        files: { 'keys.txt': keyList(1000, 'article').join('\n') }
      }
    )
    const softBound = bound(empty, soft.calls)
    rows.push({
      scenario: 'soft1k',
      calls: soft.calls,
      medianMs: soft.medianMs,
      boundMs: softBound,
      target: '',
      note: ''
    })

    const coldPair = await pairedStarts(
      { inputs: { ...api, keys: 'k1', 'dry-run': 'true' } },
      { inputs: {}, entry: emptyEntry }
    )
    const cold = { medianMs: coldPair.aMs }
    const size = await distSize()
    rows.push({
      scenario: 'cold',
      calls: 0,
      medianMs: cold.medianMs,
      boundMs: coldPair.bMs,
      pairedRatio: coldPair.ratio,
      target: judged(`≤ ${TARGETS.coldRatio.toFixed(2)}`, coldPair.ratio <= TARGETS.coldRatio),
      note: `timed in turn with the empty action, ratio of the pairs; dist/ ${(size.total / 1024).toFixed(0)} KiB of JS, ${(size.startup / 1024).toFixed(0)} KiB loaded at start`
    })

    const pages = await startPageServer()
    let verify: Figures['verify1k']
    try {
      const pageUrls = keyList(1000, `${pages.url}/page`)
      const measured = await measureVerify(
        server,
        pages,
        { ...api, mode: 'all', 'verify-urls': pageUrls.join('\n') },
        pageUrls.length
      )
      const checkRounds = Math.ceil(pageUrls.length / concurrency)
      verify = {
        ...measured,
        boundMs: cold.medianMs + LATENCY_MS + checkRounds * LATENCY_MS,
        emptyBoundMs: empty + LATENCY_MS + checkRounds * LATENCY_MS,
        checkRounds,
        bareLoopMs: await bareLoopMs(pageUrls, concurrency)
      }
    } finally {
      await pages.close()
    }
    rows.push({
      scenario: 'verify1k',
      calls: '1 + 1000 GETs',
      medianMs: verify.medianMs,
      boundMs: verify.boundMs,
      target: judged(
        `≤ ${TARGETS.verify1kRatio.toFixed(2)}`,
        verify.medianMs / verify.boundMs <= TARGETS.verify1kRatio
      ),
      note:
        `start = \`cold\`; from an empty action's start the bound is ${format(verify.emptyBoundMs)} ` +
        `(ratio ${(verify.medianMs / verify.emptyBoundMs).toFixed(2)}); ` +
        `${verify.connections} TCP connections to the pages`
    })
    console.log(
      `verify1k phases: start ${format(verify.startMs)}, purge ${format(verify.purgeMs)}, ` +
        `checks ${format(verify.checksMs)} (bare node loop ${format(verify.bareLoopMs)}), end ${format(verify.endMs)}`
    )

    const coreBundle = await coreOnlyBundle()
    const corePair = await pairedStarts(
      { inputs: {}, entry: coreBundle.entry },
      { inputs: {}, entry: emptyEntry }
    )
    const core = { startMs: corePair.aMs, bytes: coreBundle.bytes, ratio: corePair.ratio }
    console.log(
      `@actions/core alone: ${format(core.startMs)} (${core.ratio.toFixed(2)}× the empty action)`
    )

    const rssOneKeyMb = await peakRssMb(server, 1)
    const rss100kMb = await peakRssMb(server, 100_000)
    rows.push({
      scenario: 'mem100k',
      calls: Math.ceil(100_000 / 256),
      medianMs: NaN,
      boundMs: undefined,
      target: judged(`peak RSS ≤ ${TARGETS.mem100kMb} MB`, rss100kMb <= TARGETS.mem100kMb),
      note: `peak RSS ${rss100kMb.toFixed(0)} MB`
    })

    const hundred = urls.slice(0, 100)
    const curl = await curlLoopMs(hundred)
    const action100 = await measure(server, { urls: hundred.join('\n') })
    rows.push({
      scenario: 'curl-loop',
      calls: 100,
      medianMs: curl,
      boundMs: undefined,
      target: '',
      note: `curl ${(curl / 100).toFixed(1)} ms per URL; edge-purge ${(action100.medianMs / 100).toFixed(1)} ms per URL (${(curl / action100.medianMs).toFixed(1)}× faster)`
    })

    const curve: CurvePoint[] = []
    if (!args.quick) {
      for (const level of [1, 4, 8, 16, 32]) {
        const runs = level === 1 ? 1 : Math.min(RUNS, 3)
        const result = await measure(
          server,
          { 'urls-file': 'urls.txt', concurrency: String(level) },
          urlsFile,
          runs
        )
        const limit = bound(empty, result.calls, level)
        curve.push({
          concurrency: level,
          medianMs: result.medianMs,
          boundMs: limit,
          connections: result.connections
        })
        console.log(`concurrency ${level}: ${format(result.medianMs)} (bound ${format(limit)})`)
      }
    }
    await writeReport(rows, {
      loadAtStart,
      emptyMs: empty,
      coldMs: cold.medianMs,
      coldRatio: coldPair.ratio,
      core,
      keys10kPhases,
      concurrency,
      keys10kCalls,
      urls1k: { medianMs: urlRun.medianMs, boundMs: urlBound, connections: urlRun.connections },
      soft1k: { medianMs: soft.medianMs, boundMs: softBound },
      verify1k: verify,
      rssOneKeyMb,
      rss100kMb,
      curve
    })
  } finally {
    await server.close()
  }
}

/** Within 5% of a bare loop, the difference is the machine's noise, not the stage's overhead. */
function checksAgainstFloor(verify: Figures['verify1k']): string {
  const ideal = format(verify.checkRounds * LATENCY_MS)
  const beyond = verify.checksMs - verify.bareLoopMs
  return beyond <= verify.bareLoopMs * 0.05
    ? `the checks are as fast as Node's own HTTP here (${format(Math.abs(beyond))} apart), so what both take ` +
        `beyond ${ideal} is Node's per-request cost on this machine, not the stage's.`
    : `the checks take ${percent(beyond, verify.bareLoopMs)} more than that: the stage's own ` +
        'overhead per check.'
}

/** What the figures mean, with this run's figures: no number here comes from another run. */
function reading(figures: Figures): string {
  const { emptyMs, coldMs, coldRatio, core, concurrency, curve } = figures
  const rounds = 1 + Math.ceil((figures.keys10kCalls - 1) / concurrency)
  const worstLongRun = Math.max(
    figures.urls1k.medianMs / figures.urls1k.boundMs,
    figures.soft1k.medianMs / figures.soft1k.boundMs
  )
  const perKeyBytes = ((figures.rss100kMb - figures.rssOneKeyMb) * 1024 * 1024) / 99_999
  const bullets = [
    `- **Start.** An empty action starts in ${format(emptyMs)}, the action's one-key dry run in ` +
      `${format(coldMs)}, ${coldRatio.toFixed(2)}× an empty action timed in turn with it. A bundle ` +
      `of \`@actions/core\` alone (built by this run with ncc, ${(core.bytes / 1024).toFixed(0)} KiB), ` +
      `timed the same way, starts in ${format(core.startMs)}, ${core.ratio.toFixed(2)}× the empty ` +
      `action: ${percent(core.startMs - emptyMs, coldMs - emptyMs)} of the action's start beyond ` +
      'an empty one. `@actions/core` 3 imports `@actions/http-client` 4 and its `undici` for OIDC ' +
      'and proxies, and all of it is evaluated when the action loads, whether or not either is ' +
      'used. The stages only some runs need (changed-files, last-purge, the wait, the edge ' +
      'check) and `@actions/github` (Octokit, for changed-files and last-purge) are chunks of ' +
      "their own, loaded when a run needs them; the summary's run context comes from the runner's " +
      '`GITHUB_*` variables. The entry awaits nothing at the top level: with a top-level await, ' +
      'ncc wraps the whole program in an async module, whose body V8 parses again when it runs.',
    `- **Where keys10k's time goes** (medians, from the marks the action sets at the end of each ` +
      'phase; `start` is the process start and the bundle load, `exit` the last mark to the exit): ' +
      [...PHASES, 'exit']
        .map((phase) => `${phase} ${format(figures.keys10kPhases[phase] ?? NaN)}`)
        .join(', ') +
      '. A regression shows in the phase that grew. The results file and `purge-ids` are made ' +
      "from each call's results as it ends, while later calls are still out, so their time is " +
      'in `calls` (spread over the waits for answers) and `outputs` is what is left at the end.',
    `- **Round trips.** The first call to each host goes alone, so a rejected token costs one ` +
      `request, not \`concurrency\` of them: \`keys10k\`'s ${figures.keys10kCalls} calls take ` +
      `${rounds} round trips at concurrency ${concurrency} instead of ` +
      `${Math.ceil(figures.keys10kCalls / concurrency)}. The long runs (\`urls1k\`, \`soft1k\`) ` +
      `stay within ${percent(worstLongRun - 1, 1)} of their bound, and \`urls1k\` opened ` +
      `${figures.urls1k.connections} TCP connections for concurrency ${concurrency}: one ` +
      'keep-alive connection per call in flight.'
  ]
  const verify = figures.verify1k
  bullets.push(
    `- **Edge check.** \`verify1k\` purges the whole service, then checks 1,000 \`verify-urls\` ` +
      `whose pages answer \`Age: 0\` after ${LATENCY_MS} ms: ${format(verify.medianMs)}, ` +
      `${(verify.medianMs / verify.boundMs).toFixed(2)}× its bound. Its bound starts from \`cold\` ` +
      "(the action's own start, which has a target of its own) so that the ratio judges the stages " +
      `after it. Where the time goes (medians): the purge call reaches the API ${format(verify.startMs)} ` +
      `after the spawn, the first check follows ${format(verify.purgeMs)} later (the purge's round trip and the stage's setup), ` +
      `the checks take ${format(verify.checksMs)} from the first GET to the last answer ` +
      `(${verify.checkRounds} rounds of ${LATENCY_MS} ms would be ${format(verify.checkRounds * LATENCY_MS)}), ` +
      `and writing the outputs, the verification file and the summary until the exit takes ` +
      `${format(verify.endMs)}. A bare Node loop (keep-alive agent with ${concurrency} sockets, ` +
      `the same headers, a process of its own) fetches the same pages in ${format(verify.bareLoopMs)}: ` +
      checksAgainstFloor(verify) +
      ` ${verify.connections} TCP connections: one keep-alive connection per check in flight.`
  )
  const first = curve[0]
  const last = curve[curve.length - 1]
  const chosen = curve.find((point) => point.concurrency === concurrency)
  if (first !== undefined && last !== undefined && chosen !== undefined) {
    bullets.push(
      `- **Default concurrency: ${concurrency}.** 1,000 URL purges at ${LATENCY_MS} ms latency ` +
        `take ${format(chosen.medianMs)} at ${concurrency}, ` +
        `${(first.medianMs / chosen.medianMs).toFixed(1)}× faster than at ${first.concurrency}; ` +
        `${last.concurrency} is another ${(chosen.medianMs / last.medianMs).toFixed(1)}× faster, ` +
        `its ratio to the bound ${(last.medianMs / last.boundMs).toFixed(2)} against ` +
        `${(chosen.medianMs / chosen.boundMs).toFixed(2)}. ${concurrency} keeps a purge API's ` +
        `burst small (${concurrency} requests in flight per token); set \`concurrency\` up to 64 ` +
        'for hosts known to take more.'
    )
  }
  bullets.push(
    `- **Memory.** Peak RSS is ${figures.rssOneKeyMb.toFixed(0)} MB for one key (Node and the ` +
      `bundle) and ${figures.rss100kMb.toFixed(0)} MB for 100,000, about ` +
      `${perKeyBytes.toFixed(0)} bytes more per key. Each key is held once, in the key list: a ` +
      'batch reads its range of it when it is sent or read; each call keeps one record, its purge ' +
      'ids in a text outside the JS heap, and the results are made from it as they are written. ' +
      'The results file and the outputs are written in slices: their JSON is never held whole; ' +
      "the `results` output's text is read back from its file, `purge-ids`' held as bytes outside " +
      "the JS heap while it fits the 1 MB limit, as is a file's next piece. What decides the peak " +
      'is how much outlives young collections: ' +
      'past about 8 MB since it last grew, V8 doubles its young generation (8 to 16 MB ' +
      'semispaces, 16 MB more RSS).'
  )
  return ['## Reading the figures', '', ...bullets, ''].join('\n')
}

async function writeReport(rows: Row[], figures: Figures): Promise<void> {
  const table = [
    '| scenario | calls | median | lower bound | ratio | target | notes |',
    '|---|---|---|---|---|---|---|',
    ...rows.map((row) => {
      const ratio =
        row.pairedRatio !== undefined
          ? row.pairedRatio.toFixed(2)
          : row.boundMs === undefined || Number.isNaN(row.medianMs)
            ? ''
            : (row.medianMs / row.boundMs).toFixed(2)
      const median_ = Number.isNaN(row.medianMs) ? '' : format(row.medianMs)
      const boundCell = row.boundMs === undefined ? '' : format(row.boundMs)
      return `| ${row.scenario} | ${row.calls} | ${median_} | ${boundCell} | ${ratio} | ${row.target} | ${row.note} |`
    })
  ]
  console.log(`\n${table.join('\n')}`)
  const curve = figures.curve.map(
    (point) =>
      `| ${point.concurrency} | ${format(point.medianMs)} | ${format(point.boundMs)} | ${(point.medianMs / point.boundMs).toFixed(2)} | ${point.connections} |`
  )
  const cpu = cpus()[0]?.model ?? 'unknown CPU'
  const text = [
    '# Benchmarks',
    '',
    `Measured by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)}: ${cpus().length} cores (${cpu}), ` +
      `load average ${figures.loadAtStart.toFixed(1)} at the start and ${(loadavg()[0] ?? NaN).toFixed(1)} at the end, node ${process.version}, ` +
      `${LATENCY_MS} ms added latency per request, median of ${RUNS} runs per scenario. ` +
      `Each run is the bundled \`dist/index.js\` launched as the runner launches it (INPUT_* variables, output and summary files).`,
    '',
    `Lower bound = the start of an action whose \`main\` is an empty file, launched the same way (median ${format(figures.emptyMs)}), ` +
      'plus ceil(calls / concurrency) × latency. `cold` compares a one-key dry run with that start alone, ' +
      `the two timed in turn, run by run (${START_PAIRS} pairs): its ratio is the median of the pairs; \`keys10k\` is timed in turn ` +
      'with the empty action the same way, each run against the bound from the start just before it. ' +
      "`verify1k`'s bound starts from `cold` instead: the action's start, plus one purge round trip, plus " +
      'ceil(1000 / concurrency) × latency for the checks.',
    '',
    ...table,
    ...(curve.length === 0
      ? []
      : [
          '',
          '## Concurrency (urls1k, 1,000 calls)',
          '',
          '| concurrency | median | lower bound | ratio | TCP connections |',
          '|---|---|---|---|---|',
          ...curve
        ]),
    '',
    reading(figures)
  ].join('\n')
  await writeFile(join(ROOT, 'BENCHMARKS.md'), text)
  console.log('\nwrote BENCHMARKS.md')
}

await main().finally(() => Promise.all([removeRunDirs(), removeScratchDirs()]))
