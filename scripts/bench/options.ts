/** The bench's command line (`--latency`, `--runs`, `--quick`) and what every scenario shares. */
import { parseArgs } from 'node:util'

const { values: args } = parseArgs({
  options: {
    latency: { type: 'string', default: '20' },
    runs: { type: 'string', default: '8' },
    quick: { type: 'boolean', default: false }
  }
})

/** Added to every answer of the fake purge API and of the pages the edge check fetches. */
export const LATENCY_MS = Number(args.latency)
/** Runs per scenario: each scenario reports their median. */
export const RUNS = Number(args.runs)
/** Skips the concurrency curve. */
export const QUICK = args.quick
/**
 * Pairs of starts for `cold` and a bundle of core alone. A start takes a tenth of a second and a
 * shared machine's speed drifts between runs of the bench: three pairs per run steady the median
 * for a few seconds more.
 */
export const START_PAIRS = 3 * RUNS
export const TOKEN = 'bench-token'
/** The action's default `concurrency`: every bound but the curve's assumes it. */
export const CONCURRENCY = 8
/** The project's targets, judged against each run. */
export const TARGETS = { coldRatio: 3.4, keys10kRatio: 2.75, verify1kRatio: 1.25, mem100kMb: 160 }
