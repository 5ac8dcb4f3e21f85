/** The arithmetic of the figures, and how a figure is written. */
import { CONCURRENCY, LATENCY_MS } from './options.js'

export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2
}

export const keyList = (count: number, prefix: string): string[] =>
  Array.from({ length: count }, (_, index) => `${prefix}-${index}`)

/** A start of `start` ms, then one round trip per `perCall` calls in flight. */
export const bound = (start: number, calls: number, perCall = CONCURRENCY): number =>
  start + Math.ceil(calls / perCall) * LATENCY_MS

/**
 * The network mode's physical bound: a start of `start` ms, the TCP and TLS 1.3 handshakes (one
 * round trip each), then one round trip per `perCall` calls in flight.
 */
export const networkBound = (
  start: number,
  calls: number,
  rttMs: number,
  perCall = CONCURRENCY
): number => start + 2 * rttMs + Math.ceil(calls / perCall) * rttMs

export const format = (ms: number): string => `${ms.toFixed(0)} ms`
export const judged = (text: string, met: boolean): string => `${text} (${met ? 'met' : 'missed'})`
export const percent = (part: number, whole: number): string =>
  `${((part / whole) * 100).toFixed(0)}%`
