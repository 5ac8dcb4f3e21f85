/** Where a run's time goes, from the marks the action sets at the end of each phase. */
import { readFile } from 'node:fs/promises'
import type { ActionRun } from '../../tools/run-like-runner.js'
import { median } from './numbers.js'

/** The phases a run's time is told in, each ending at the action's mark of the same name. */
export const PHASES = ['start', 'inputs', 'plan', 'calls', 'outputs', 'summary'] as const

/** Writes the action's marks (ms from the process's start) to BENCH_MARKS_FILE at exit. */
export const MARKS_PRELOAD =
  'data:text/javascript,import{writeFileSync}from"node:fs";process.on("exit",()=>writeFileSync(process.env.BENCH_MARKS_FILE,JSON.stringify(performance.getEntriesByType("mark").map((m)=>[m.name,m.startTime]))))'

/** Median milliseconds of each phase, and from the last mark to the exit the harness saw. */
export async function phasesOf(
  runs: ActionRun[],
  marksFiles: string[]
): Promise<Record<string, number>> {
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
