/** The runner's cancel: its signals turned into one AbortSignal that every stage listens to. */
import { setMaxListeners } from 'node:events'
import type { StepLog } from '../log.js'

/** How runners cancel a job: SIGINT, then SIGTERM 7.5 s later; some have sent SIGHUP. */
const CANCEL_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const

export interface CancelListener {
  signal: AbortSignal
  /** Stops listening, once the run has ended. */
  release(): void
}

export function listenForCancel(log: StepLog): CancelListener {
  const cancel = new AbortController()
  // Every call, probe and wait in flight listens for the cancel: more than Node's default of 10.
  setMaxListeners(0, cancel.signal)
  const onSignal = (name: NodeJS.Signals): void => {
    if (cancel.signal.aborted) return
    log.info(
      `Received ${name}: cancelling. No new purge call starts; calls in flight are abandoned.`
    )
    cancel.abort()
  }
  for (const name of CANCEL_SIGNALS) process.on(name, onSignal)
  return {
    signal: cancel.signal,
    release: () => {
      for (const name of CANCEL_SIGNALS) process.off(name, onSignal)
    }
  }
}
