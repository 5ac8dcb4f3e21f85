/** Inputs refused and outputs kept whole, against dist/index.js run as the runner runs it. */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { FakePurgeServer } from '../tools/fake-purge-api/server.js'
import { runAction, type ActionRun } from '../tools/run-like-runner.js'

let server: FakePurgeServer
beforeEach(async () => {
  server = await FakePurgeServer.start({ tokens: { 'test-token': 'engineer' } })
})
afterEach(async () => {
  await server.close()
})

let dir: string
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'edge-purge-dist-inputs-'))
})
afterAll(() => {
  rmSync(dir, { recursive: true, force: true })
})

const api = (): Record<string, string> => ({
  'api-token': 'test-token',
  'base-url': server.url,
  'service-id': 'svc123'
})

/** A refusal as any input error ends a run: one error, nothing sent, no output, no summary. */
function expectRefusal(run: ActionRun): string {
  expect(run.code).toBe(1)
  const errors = run.stdout.split('\n').filter((line) => line.startsWith('::error'))
  expect(errors).toHaveLength(1)
  expect(server.requests).toEqual([])
  expect(run.outputs).toEqual({})
  expect(run.summary).toBe('')
  return errors[0] ?? ''
}

describe('list files that are not regular files are refused before anything is read', () => {
  // The jest timeout is the bound: read as before, a FIFO blocked forever and /dev/zero grew
  // until memory ran out.
  it('a FIFO as keys-file', async () => {
    const fifo = join(dir, 'keys.fifo')
    execFileSync('mkfifo', [fifo])
    const run = await runAction({ ...api(), 'keys-file': fifo })
    expect(expectRefusal(run)).toBe(
      `::error::keys-file: cannot read ${JSON.stringify(fifo)}: it is a FIFO (named pipe); give a regular file`
    )
  }, 10_000)

  it('/dev/zero as urls-file', async () => {
    const run = await runAction({ 'urls-file': '/dev/zero' })
    expect(expectRefusal(run)).toBe(
      '::error::urls-file: cannot read "/dev/zero": it is a character device; give a regular file'
    )
  }, 10_000)
})

it('refuses service-id .., which would send the token to {base-url}/purge_all', async () => {
  const run = await runAction({ ...api(), 'service-id': '..', mode: 'all' })
  expect(expectRefusal(run)).toMatch(/^::error::service-id: "\.\." is not a service id: /)
})

it('refuses an api-token with a line break before any request, without echoing it', async () => {
  const run = await runAction({ ...api(), 'api-token': 'first-half\nsecond-half', keys: 'k1' })
  expect(expectRefusal(run)).toMatch(/^::error::api-token holds a line break, /)
  const shown = run.log.split('\n').filter((line) => !line.startsWith('::add-mask::'))
  expect(shown.join('\n')).not.toMatch(/first-half|second-half/)
})

it('refuses URLs joined by a comma instead of purging the path they make together', async () => {
  const joined = `${server.url}/a,${server.url}/b`
  const run = await runAction({ urls: joined })
  expect(expectRefusal(run)).toBe(
    `::error::urls: ${JSON.stringify(joined)} holds two URLs joined by a comma; separate URLs with newlines or spaces`
  )
})

describe('purge-ids keeps every key', () => {
  it('a key named __proto__', async () => {
    const run = await runAction({ ...api(), keys: '__proto__' })
    expect(run.code).toBe(0)
    const ids = JSON.parse(run.outputs['purge-ids'] ?? '') as Record<string, unknown>
    expect(Object.keys(ids)).toEqual(['__proto__'])
    expect(ids['__proto__']).toBe(run.outputs['purge-id'])
  })

  it('a service named __proto__, in the grouped form', async () => {
    await server.close()
    server = await FakePurgeServer.start({
      tokens: { 'test-token': 'engineer' },
      services: ['__proto__', 'svc2']
    })
    const run = await runAction({ ...api(), 'service-id': '__proto__, svc2', keys: 'k1' })
    expect(run.code).toBe(0)
    const ids = JSON.parse(run.outputs['purge-ids'] ?? '') as Record<string, unknown>
    expect(Object.keys(ids)).toEqual(['__proto__', 'svc2'])
    expect(Object.keys(ids['__proto__'] ?? {})).toEqual(['k1'])
  })
})
