/**
 * verify1k: a purge-all, then 1,000 pages checked at the edge. Its bound starts from `cold`, the
 * action's own start, so that the ratio judges the stages after it.
 */
import { runAction, RUN_CONTEXT_ENV } from '../../../tools/run-like-runner.js'
import type { FakePurgeServer } from '../../../tools/fake-purge-api/server.js'
import { bareLoopMs } from '../bare-loop.js'
import type { Bench } from '../context.js'
import type { Scenario, EdgeCheckFigures, EdgeCheckMeasured } from '../figures.js'
import { format, judged, keyList, median } from '../numbers.js'
import { CONCURRENCY, LATENCY_MS, RUNS, TARGETS } from '../options.js'
import { PageServer } from '../pages.js'

async function measureEdgeCheck(
  server: FakePurgeServer,
  pages: PageServer,
  inputs: Record<string, string>,
  urls: number
): Promise<EdgeCheckMeasured> {
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

/** The runs against 1,000 pages on a page server of their own, closed however they end. */
async function edgeCheckFigures(bench: Bench, coldMs: number): Promise<EdgeCheckFigures> {
  const pages = await PageServer.start()
  try {
    const pageUrls = keyList(1000, `${pages.url}/page`)
    const measured = await measureEdgeCheck(
      bench.server,
      pages,
      { ...bench.api, mode: 'all', 'verify-urls': pageUrls.join('\n') },
      pageUrls.length
    )
    const checkRounds = Math.ceil(pageUrls.length / CONCURRENCY)
    return {
      ...measured,
      boundMs: coldMs + LATENCY_MS + checkRounds * LATENCY_MS,
      emptyBoundMs: bench.emptyMs + LATENCY_MS + checkRounds * LATENCY_MS,
      checkRounds,
      bareLoopMs: await bareLoopMs(pageUrls, CONCURRENCY)
    }
  } finally {
    await pages.close()
  }
}

export async function verify1k(bench: Bench, coldMs: number): Promise<Scenario<EdgeCheckFigures>> {
  const verify = await edgeCheckFigures(bench, coldMs)
  console.log(
    `verify1k phases: start ${format(verify.startMs)}, purge ${format(verify.purgeMs)}, ` +
      `checks ${format(verify.checksMs)} (bare node loop ${format(verify.bareLoopMs)}), end ${format(verify.endMs)}`
  )
  return {
    row: {
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
    },
    figures: verify
  }
}
