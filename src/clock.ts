/**
 * Time for the stages, handed in so retries, waits and cancellation are tested with a fake clock;
 * how a wait or a request listens for the run's cancel; and how a door hears the cancel's signals.
 */
import { setMaxListeners } from 'node:events'

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number
  /** Resolves after `ms`, or at once when `signal` aborts: a cancelled run waits for nothing. */
  sleep(ms: number, signal: AbortSignal): Promise<void>
}

/**
 * Calls `listener` once when `signal` aborts, until the function returned is called. Whatever ends
 * before the cancel calls it: a run's signal lives as long as the run, and would otherwise keep a
 * listener, and all it reaches, for every wait and request the run made.
 */
export function onAbort(signal: AbortSignal, listener: () => void): () => void {
  signal.addEventListener('abort', listener, { once: true })
  return () => signal.removeEventListener('abort', listener)
}

/**
 * Settles as `work` does, or with what `onCancel` returns (or throws) when the run is cancelled
 * first: a cancelled run waits for nothing, and leaves what is still in flight to the abort it was
 * handed.
 */
export async function unlessCancelled<T>(
  work: Promise<T>,
  signal: AbortSignal,
  onCancel: () => T
): Promise<T> {
  let stopListening = (): void => undefined
  const cancelled = new Promise<T>((resolve, reject) => {
    const settle = (): void => {
      try {
        resolve(onCancel())
      } catch (error) {
        reject(error)
      }
    }
    if (signal.aborted) settle()
    else stopListening = onAbort(signal, settle)
  })
  try {
    return await Promise.race([work, cancelled])
  } finally {
    stopListening()
  }
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer)
        stopListening()
        resolve()
      }
      const timer = setTimeout(done, ms)
      const stopListening = onAbort(signal, done)
      // A signal aborted already fires no more: the sleep ends at once.
      if (signal.aborted) done()
    })
}

/** Marks where a run's time goes, for `npm run bench`; a mark nobody reads costs next to nothing. */
export function mark(phase: string): void {
  performance.mark(`edge-purge:${phase}`)
}

/** How runners cancel a job: SIGINT, then SIGTERM 7.5 s later; some, and a closing terminal, SIGHUP. */
const CANCEL_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const

/** A run's cancel, as both doors hear it: its signals turned into one AbortSignal. */
export interface CancelListener {
  signal: AbortSignal
  /** The signal that cancelled the run, if one did. */
  received(): NodeJS.Signals | undefined
  /** Stops listening, once the run has ended. */
  release(): void
}

export function listenForCancel(log: { info(line: string): void }): CancelListener {
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
    received: () => received,
    release: () => {
      for (const name of CANCEL_SIGNALS) process.off(name, onSignal)
    }
  }
}
