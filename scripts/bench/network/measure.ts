/**
 * The network mode's runs, interleaved: for each run, every scenario in turn, each just after an
 * empty action's start (its floor) and, with `--baseline`, beside the other build, the two in
 * alternating order. A shared machine's speed drifts: interleaving spreads the drift over every
 * scenario and build alike, and pairs what ran side by side.
 */
import { RUNS, VERBOSE } from '../options.js'
import type { NetworkHosts } from './hosts.js'
import { runEmpty, runScenario, type NetworkRun } from './run.js'
import type { NetworkScenario } from './scenario.js'
import { printTimeline } from './timeline.js'

/** A scenario's runs at one RTT, index by index: run i of each list ran side by side. */
export interface Samples {
  scenario: NetworkScenario
  rttMs: number
  emptyMs: number[]
  current: NetworkRun[]
  /** Empty without `--baseline`. */
  baseline: NetworkRun[]
}

export interface Entries {
  empty: string
  /** The other build's dist/index.js (`--baseline`). */
  baseline: string | undefined
}

async function oneRound(
  hosts: NetworkHosts,
  entries: Entries,
  samples: Samples,
  index: number
): Promise<void> {
  samples.emptyMs.push(await runEmpty(entries.empty))
  const builds: { entry: string | undefined; into: NetworkRun[]; name: string }[] = [
    { entry: undefined, into: samples.current, name: 'dist/' }
  ]
  if (entries.baseline !== undefined) {
    const other = { entry: entries.baseline, into: samples.baseline, name: 'baseline' }
    if (index % 2 === 0) builds.push(other)
    else builds.unshift(other)
  }
  for (const build of builds) {
    const run = await runScenario(hosts, samples.scenario, build.entry)
    build.into.push(run)
    if (VERBOSE) {
      const label = `${samples.scenario.name} RTT ${samples.rttMs} ms, run ${index + 1}`
      printTimeline(`${label}, ${build.name}`, run)
    }
  }
}

export async function measureAt(
  hosts: NetworkHosts,
  rttMs: number,
  entries: Entries,
  scenarios: NetworkScenario[]
): Promise<Samples[]> {
  const all: Samples[] = scenarios.map((scenario) => ({
    scenario,
    rttMs,
    emptyMs: [],
    current: [],
    baseline: []
  }))
  for (let index = 0; index < RUNS; index += 1) {
    for (const samples of all) await oneRound(hosts, entries, samples, index)
    console.log(`RTT ${rttMs} ms: run ${index + 1} of ${RUNS} done`)
  }
  return all
}
