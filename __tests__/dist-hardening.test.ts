/**
 * What no hostile server and no cancel may take away: every target reported, outputs, results file
 * and summary written, through dist/index.js run as the runner runs it.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { readFile } from 'node:fs/promises'
import { FakePurgeServer } from '../tools/fake-purge-api/server.js'
import { resultsOf, runAction, type ActionRun } from '../tools/run-like-runner.js'

let server: FakePurgeServer
afterEach(async () => {
  await server.close()
})

const urls = (count: number): string =>
  Array.from({ length: count }, (_, index) => `${server.url}/page/${index}`).join('\n')

async function resultsFileOf(run: ActionRun): Promise<unknown[]> {
  return JSON.parse(await readFile(run.outputs['results-file'] ?? '', 'utf8')) as unknown[]
}

/** A runner command an answer tries to slip into the log. */
const FORGED = '::error::forged'

describe('a hostile answer fails only its own call', () => {
  beforeEach(async () => {
    server = await FakePurgeServer.start()
  })

  it.each([
    ['an absurd Retry-After', { headers: { 'Retry-After': '99999999999999' }, status: 429 }],
    [
      'an absurd Edge-RateLimit-Reset',
      { headers: { 'Edge-RateLimit-Reset': '9'.repeat(20) }, status: 429 }
    ],
    [
      'an error body nested 5,000 deep',
      { body: `${'{"errors":['.repeat(5000)}{}${']}'.repeat(5000)}`, status: 400 }
    ],
    [
      'an answer of 4 MB',
      { body: JSON.stringify({ status: 'ok', id: 'x'.repeat(4_000_000) }), status: 200 }
    ],
    [
      'an id with a line break',
      { body: JSON.stringify({ status: 'ok', id: `1-2-3\n${FORGED}` }), status: 200 }
    ]
  ])('%s', async (_what, reply) => {
    server.fault({
      match: (request) => request.path === '/page/1',
      action: { kind: 'reply', ...reply }
    })
    const run = await runAction({ urls: urls(3), 'max-attempts': '1' })
    expect(run.code).toBe(1)
    const results = resultsOf(run)
    expect(results.map((result) => result.status)).toEqual(['purged', 'failed', 'purged'])
    expect(results[1]?.error?.length).toBeLessThan(400)
    expect(run.outputs['purged-count']).toBe('2')
    expect(await resultsFileOf(run)).toHaveLength(3)
    // The summary is written, with the one failure in it.
    expect(run.summary.match(/<td>❌ /g)).toHaveLength(1)
    expect(run.log.split('\n').some((line) => line.startsWith(FORGED))).toBe(false)
  })
})

describe('cancellation', () => {
  beforeEach(async () => {
    server = await FakePurgeServer.start({ latencyMs: 150 })
  })

  it.each(['SIGINT', 'SIGTERM', 'SIGHUP'] as const)(
    'on %s: no new call, every target reported, groups closed, non-zero exit within 2 s',
    async (signal) => {
      let signalledAt = 0
      const run = await runAction(
        { urls: urls(20), concurrency: '1' },
        {
          onStart: (child) => {
            const poll = setInterval(() => {
              if (server.requests.length < 10) return
              clearInterval(poll)
              signalledAt = performance.now()
              child.kill(signal)
            }, 5)
            child.on('exit', () => clearInterval(poll))
          }
        }
      )
      const exitedAfterMs = performance.now() - signalledAt
      expect(run.code).toBe(1)
      expect(exitedAfterMs).toBeLessThan(2000)
      expect(server.requests).toHaveLength(10)

      const results = resultsOf(run)
      expect(results).toHaveLength(20)
      const errors = results.map((result) => result.error)
      expect(errors.slice(0, 9)).toEqual(Array(9).fill(null))
      expect(errors[9]).toBe('cancelled before it was confirmed')
      expect(errors.slice(10)).toEqual(Array(10).fill('not sent: the run was cancelled'))
      expect(await resultsFileOf(run)).toHaveLength(20)
      expect(run.outputs['purged-count']).toBe('9')
      expect(run.outputs['failed-count']).toBe('11')

      expect(run.summary.match(/<td>❌ /g)?.length).toBeGreaterThan(0)
      expect(run.stdout.split('\n').some((line) => line.startsWith('::error::'))).toBe(true)
      const opened = run.stdout.split('\n').filter((line) => line.startsWith('::group::'))
      const closed = run.stdout.split('\n').filter((line) => line === '::endgroup::')
      expect(closed).toHaveLength(opened.length)
    }
  )
})
