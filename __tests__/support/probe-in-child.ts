/**
 * Run by probe.test.ts in a node of its own (through tsx): one probe of the page at argv[2] that
 * stops reading early, then the prober closed and the process left to end by itself. As it exits it
 * prints the answer's shape and how many zlib callbacks ran after the probe had settled: a decoder
 * left inflating what it holds (a compression bomb) makes thousands, a stopped one none but the one
 * already in flight.
 */
import { createHook } from 'node:async_hooks'
import { writeSync } from 'node:fs'
import { createProber } from '../../src/http/probe.js'
import { NO_SECRETS } from './guard.js'

const zlibResources = new Set<number>()
let settled = false
let zlibCallbacksAfter = 0
createHook({
  init(asyncId, type) {
    if (type === 'ZLIB') zlibResources.add(asyncId)
  },
  before(asyncId) {
    if (settled && zlibResources.has(asyncId)) zlibCallbacksAfter += 1
  }
}).enable()

const prober = createProber({ guard: NO_SECRETS, userAgent: 'edge-purge-test/1.0', concurrency: 1 })
const answer = await prober.get(process.argv[2] ?? '', {
  // Generous: the probe's answer, not its timing, is what the test reads, and a busy machine (the
  // whole suite on two cores) has taken over 10 s to serve and read 4 MiB.
  timeoutMs: 60_000,
  signal: new AbortController().signal,
  lookFor: 'never there'
})
settled = true
prober.close()

process.on('exit', () => {
  const shape =
    answer.kind === 'response'
      ? { kind: answer.kind, truncated: answer.truncated, length: answer.body.length }
      : answer
  // Written at once: a stream write would be work the exiting loop never runs.
  writeSync(1, JSON.stringify({ answer: shape, zlibCallbacksAfter }))
})
