/** The command's cancel: SIGINT, SIGTERM or SIGHUP turned into one AbortSignal, as on the runner. */
import { setMaxListeners } from 'node:events'
import { constants } from 'node:os'
import type { StepLog } from '../log.js'

const CANCEL_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const

export interface Interrupt {
  signal: AbortSignal
  /** The shell's exit code for the first signal received (130 after SIGINT), or undefined. */
  exitCode(): number | undefined
  release(): void
}

export function listenForInterrupt(log: StepLog): Interrupt {
  const cancel = new AbortController()
  // Every call, probe and wait in flight listens for the cancel: more than Node's default of 10.
  setMaxListeners(0, cancel.signal)
  let received: NodeJS.Signals | undefined
  const onSignal = (name: NodeJS.Signals): void => {
    if (cancel.signal.aborted) return
    received = name
    log.info(
      `Received ${name}: cancelling. No new purge call starts; calls in flight are abandoned.`
    )
    cancel.abort()
  }
  for (const name of CANCEL_SIGNALS) process.on(name, onSignal)
  return {
    signal: cancel.signal,
    exitCode: () => (received === undefined ? undefined : 128 + constants.signals[received]),
    release: () => {
      for (const name of CANCEL_SIGNALS) process.off(name, onSignal)
    }
  }
}
