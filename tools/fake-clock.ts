/**
 * Virtual time for the engine: `sleep` registers a timer, and once every pending promise has run
 * (a `setImmediate` later), time jumps to the earliest timer. Waits of minutes take microseconds,
 * and the order of events is the one real time would give.
 */
import type { Clock } from '../src/clock.js'

interface Timer {
  at: number
  wake: () => void
}

export class FakeClock implements Clock {
  private time: number
  private readonly timers: Timer[] = []
  private ticking = false
  /** Every sleep asked for, in ms, in the order asked. */
  readonly sleeps: number[] = []

  constructor(start = Date.UTC(2026, 0, 1)) {
    this.time = start
  }

  now(): number {
    return this.time
  }

  sleep(ms: number, signal: AbortSignal): Promise<void> {
    this.sleeps.push(ms)
    if (signal.aborted) return Promise.resolve()
    return new Promise((resolve) => {
      const timer: Timer = {
        at: this.time + Math.max(0, ms),
        wake: () => {
          signal.removeEventListener('abort', timer.wake)
          const index = this.timers.indexOf(timer)
          if (index >= 0) this.timers.splice(index, 1)
          resolve()
        }
      }
      signal.addEventListener('abort', timer.wake, { once: true })
      this.timers.push(timer)
      this.schedule()
    })
  }

  private schedule(): void {
    if (this.ticking) return
    this.ticking = true
    setImmediate(() => {
      this.ticking = false
      const [next] = [...this.timers].sort((a, b) => a.at - b.at)
      if (next === undefined) return
      this.time = Math.max(this.time, next.at)
      next.wake()
      if (this.timers.length > 0) this.schedule()
    })
  }
}
