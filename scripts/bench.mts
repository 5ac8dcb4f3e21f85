/**
 * npm run bench [-- --rtt 20,60 --runs 15 --baseline <dist dir> --verbose]
 * npm run bench -- --loopback [--latency 20 --runs 8 --quick]
 *
 * By default, the network mode (scripts/bench/network/): the action against an HTTPS fake purge
 * API behind a proxy that delays every chunk by half a round trip each way, as a runner meets a
 * real purge API; each scenario against its physical bound. Needs `openssl` for its certificate.
 *
 * With `--loopback`, the regression guard below: the bundled action the way the runner runs it
 * against the fake purge server on plain HTTP with added latency,
 * and compares each scenario with its lower bound measured in the same run: the start of an action
 * whose main is an empty file, launched the same way, plus ceil(calls / concurrency) round trips.
 * `verify1k` (a purge-all, then 1,000 pages checked at the edge) starts from the action's own start
 * instead: `cold`, plus the purge round trip, plus ceil(1000 / concurrency) round trips of checks.
 * `cold`, `keys10k` and a bundle of `@actions/core` alone are each timed in turn with an empty
 * action, run by run, and judged by the median of the pairs' ratios, which holds when the machine's
 * speed drifts.
 * keys10k's runs also report where their time goes, from the marks the action sets at the end of
 * each phase. Writes the tables, and what they mean with the figures of the same run, to
 * BENCHMARKS.md's loopback section.
 *
 * Each scenario is a module of scripts/bench/scenarios/, run here in the order of the table; what
 * they share (the command line, timing, the page server, the report) is in scripts/bench/.
 */
import { loadavg } from 'node:os'
import { FakePurgeServer } from '../tools/fake-purge-api/server.js'
import { removeRunDirs } from '../tools/run-like-runner.js'
import { openBench } from './bench/context.js'
import { networkBench } from './bench/network/index.js'
import { CONCURRENCY, LATENCY_MS, LOOPBACK, QUICK, TOKEN } from './bench/options.js'
import { writeReport } from './bench/report.js'
import { cold } from './bench/scenarios/cold.js'
import { concurrencyCurve } from './bench/scenarios/concurrency.js'
import { coreAlone } from './bench/scenarios/core-alone.js'
import { curlLoop } from './bench/scenarios/curl-loop.js'
import { keys10k } from './bench/scenarios/keys10k.js'
import { mem100k } from './bench/scenarios/mem100k.js'
import { soft1k } from './bench/scenarios/soft1k.js'
import { urls1k } from './bench/scenarios/urls1k.js'
import { verify1k } from './bench/scenarios/verify1k.js'
import { removeScratchDirs } from './bench/scratch.js'

async function loopbackBench(): Promise<void> {
  const loadAtStart = loadavg()[0] ?? NaN
  const server = await FakePurgeServer.start({
    tokens: { [TOKEN]: 'engineer' },
    latencyMs: LATENCY_MS
  })
  try {
    const bench = await openBench(server)
    const keys = await keys10k(bench)
    const urls = await urls1k(bench)
    const soft = await soft1k(bench)
    const start = await cold(bench)
    const verify = await verify1k(bench, start.figures.medianMs)
    const core = await coreAlone(bench)
    const memory = await mem100k(bench)
    const curl = await curlLoop(bench)
    const curve = QUICK ? [] : await concurrencyCurve(bench)
    await writeReport([...keys.rows, urls.row, soft.row, start.row, verify.row, memory.row, curl], {
      loadAtStart,
      emptyMs: bench.emptyMs,
      coldMs: start.figures.medianMs,
      coldRatio: start.figures.ratio,
      core,
      keys10kPhases: keys.figures.phases,
      concurrency: CONCURRENCY,
      keys10kCalls: keys.figures.calls,
      urls1k: urls.figures,
      soft1k: soft.figures,
      verify1k: verify.figures,
      rssOneKeyMb: memory.figures.rssOneKeyMb,
      rss100kMb: memory.figures.rss100kMb,
      curve
    })
  } finally {
    await server.close()
  }
}

await (LOOPBACK ? loopbackBench() : networkBench()).finally(() =>
  Promise.all([removeRunDirs(), removeScratchDirs()])
)
