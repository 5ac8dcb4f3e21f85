/** Helpers for the real-cache suites to watch the bundled action while it runs against the bed. */
import type { ActionRun } from '../../support/run-action.js'
import { pollUntil } from './http.js'

/** The action's log, shown when an expectation on its outcome fails. */
export function expectExit(run: ActionRun, code: number): void {
  if (run.code !== code) throw new Error(`action exited ${run.code}, expected ${code}:\n${run.log}`)
}

/**
 * Waits, while the action runs, until `reached()` holds; fails with the action's log if the action
 * ends first. No deadline of its own beyond pollUntil's generous one.
 */
export async function whileRunning(
  running: Promise<ActionRun>,
  reached: () => boolean,
  what: string
): Promise<void> {
  let ended: ActionRun | undefined
  void running.then((run) => (ended = run))
  await pollUntil(
    () => Promise.resolve(reached() || ended !== undefined),
    (done) => done,
    { what }
  )
  if (!reached() && ended !== undefined)
    throw new Error(`the action ended (exit ${ended.code}) before ${what}:\n${ended.log}`)
}
