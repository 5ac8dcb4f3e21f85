/** A scenario's row at one RTT, from its interleaved runs. */
import { median, networkBound } from '../numbers.js'
import { CONCURRENCY } from '../options.js'
import type { Samples } from './measure.js'
import type { NetworkRun } from './run.js'

export interface BuildFigures {
  medianMs: number
  /** Each run over the bound from the empty start just before it: the median of those ratios. */
  ratio: number
  connections: number
}

export interface NetworkRow {
  scenario: string
  rttMs: number
  calls: number
  emptyMs: number
  boundMs: number
  /** The bound's round trips: 2 for the handshakes, then one per `concurrency` calls. */
  boundRtts: number
  target: number | undefined
  current: BuildFigures
  /** With `--baseline`: the other build, and this build's time over it, the median of the pairs. */
  baseline?: BuildFigures & { paired: number }
}

function buildFigures(runs: NetworkRun[], samples: Samples): BuildFigures {
  const ratios = runs.map(
    (run, index) =>
      run.elapsedMs / networkBound(samples.emptyMs[index] ?? NaN, run.calls, samples.rttMs)
  )
  return {
    medianMs: median(runs.map((run) => run.elapsedMs)),
    ratio: median(ratios),
    connections: median(runs.map((run) => run.connections.length))
  }
}

export function rowOf(samples: Samples): NetworkRow {
  const calls = median(samples.current.map((run) => run.calls))
  const emptyMs = median(samples.emptyMs)
  const boundMs = networkBound(emptyMs, calls, samples.rttMs)
  const row: NetworkRow = {
    scenario: samples.scenario.name,
    rttMs: samples.rttMs,
    calls,
    emptyMs,
    boundMs,
    boundRtts: 2 + Math.ceil(calls / CONCURRENCY),
    target: samples.rttMs === 60 ? samples.scenario.targetAt60 : undefined,
    current: buildFigures(samples.current, samples)
  }
  if (samples.baseline.length > 0) {
    const paired = median(
      samples.current.map(
        (run, index) => run.elapsedMs / (samples.baseline[index]?.elapsedMs ?? NaN)
      )
    )
    row.baseline = { ...buildFigures(samples.baseline, samples), paired }
  }
  return row
}

/** The run whose time is the median (the lower middle of an even count): the one to show whole. */
export function medianRun(runs: NetworkRun[]): NetworkRun | undefined {
  const sorted = [...runs].sort((a, b) => a.elapsedMs - b.elapsedMs)
  return sorted[Math.floor((sorted.length - 1) / 2)]
}
