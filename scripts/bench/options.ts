/**
 * The bench's command line and what every scenario shares. The network mode (the default) takes
 * `--rtt 20,60`, `--runs`, `--baseline <dist dir>` and `--verbose`; the loopback mode
 * (`--loopback`) takes `--latency`, `--runs` and `--quick`.
 */
import { parseArgs } from 'node:util'

const { values: args } = parseArgs({
  options: {
    loopback: { type: 'boolean', default: false },
    rtt: { type: 'string', default: '20,60' },
    baseline: { type: 'string' },
    verbose: { type: 'boolean', default: false },
    latency: { type: 'string', default: '20' },
    runs: { type: 'string' },
    quick: { type: 'boolean', default: false }
  }
})

/** Runs the loopback suite (the regression guard) instead of the network mode. */
export const LOOPBACK = args.loopback
/** The network mode's round-trip times (ms), each a table of its own. */
export const RTTS = args.rtt.split(',').map((value) => {
  const rtt = Number(value)
  if (!(rtt >= 0)) throw new Error(`--rtt takes round trips in ms, comma-separated: ${args.rtt}`)
  return rtt
})
/** A dist/ directory of another build, timed in turn with this one, run by run. */
export const BASELINE = args.baseline
/** Prints each run's connections, milestone by milestone. */
export const VERBOSE = args.verbose
/** Added to every answer of the fake purge API and of the pages the edge check fetches. */
export const LATENCY_MS = Number(args.latency)
/**
 * Runs per scenario: each scenario reports their median. The network mode takes 15 by default:
 * two builds are compared there over at least 15 pairs of runs.
 */
export const RUNS = Number(args.runs ?? (args.loopback ? 8 : 15))
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
