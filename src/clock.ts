/** Time for the stages: handed in, so retries, waits and cancellation are tested with a fake clock. */

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number
  /** Resolves after `ms`, or at once when `signal` aborts: a cancelled run waits for nothing. */
  sleep(ms: number, signal: AbortSignal): Promise<void>
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise((resolve) => {
      if (signal.aborted) {
        resolve()
        return
      }
      const done = (): void => {
        clearTimeout(timer)
        signal.removeEventListener('abort', done)
        resolve()
      }
      const timer = setTimeout(done, ms)
      signal.addEventListener('abort', done, { once: true })
    })
}

/** Marks where a run's time goes, for `npm run bench`; a mark nobody reads costs next to nothing. */
export function mark(phase: string): void {
  performance.mark(`edge-purge:${phase}`)
}
