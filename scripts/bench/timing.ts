/** Timing the action as the runner launches it: a scenario's runs, an entry's start, two in turn. */
import type { FakePurgeServer } from '../../tools/fake-purge-api/server.js'
import {
  RUN_CONTEXT_ENV,
  runAction,
  type ActionRun,
  type RunOptions
} from '../../tools/run-like-runner.js'
import { median } from './numbers.js'
import { RUNS, START_PAIRS } from './options.js'

export interface Measured {
  medianMs: number
  calls: number
  connections: number
  runs: ActionRun[]
  /** With `pairWith`: the entry's time in each round, launched just before the run. */
  pairedMs: number[]
}

export async function measure(
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
export async function actionStart(entry: string): Promise<number> {
  const times: number[] = []
  for (let index = 0; index < Math.max(RUNS, 7); index += 1) {
    times.push((await runAction({}, { entry, env: RUN_CONTEXT_ENV })).elapsedMs)
  }
  return median(times)
}

/** Two entries started in turn, run by run: their medians, and the median of A's time over B's. */
export async function pairedStarts(
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
