/**
 * How a refused input or an undeclared input name ends a run, and outputs kept whole, against
 * dist/index.js run as the runner runs it. Which inputs are refused, and why, is for the tests of
 * parseSettings, the capabilities' inputs, lists and input names.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { realpathSync } from 'node:fs'
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

it('refuses an api-token with a line break before any request, without echoing it', async () => {
  const token = 'first-half\nsecond-half'
  const run = await runAction({ ...api(), 'api-token': token, keys: 'k1' })
  expect(expectRefusal(run)).toContain('api-token')
  const shown = run.log.split('\n').filter((line) => !line.startsWith('::add-mask::'))
  for (const half of token.split('\n')) expect(shown.join('\n')).not.toContain(half)
})

describe('an input name action.yml does not declare', () => {
  it('refuses a misspelled one before any request, naming it as passed and as declared', async () => {
    const run = await runAction({ ...api(), keys: 'home' }, { env: { INPUT_DRY_RUN: 'true' } })
    const error = expectRefusal(run)
    expect(error).toContain('"dry_run"')
    expect(error).toContain('dry-run')
  })

  it('warns of an unknown one, naming the closest input, and the refusal that follows names it too', async () => {
    const run = await runAction(api(), { env: { INPUT_KEY: 'home' } })
    const error = expectRefusal(run)
    const warnings = run.stdout.split('\n').filter((line) => line.startsWith('::warning::'))
    expect(warnings).toEqual([expect.stringMatching(/"key".*\bkeys\b/)])
    expect(error).toContain('"key"')
  })
})

it('refuses a keys-file missing from the workspace, naming where the path led and from where', async () => {
  const run = await runAction({ ...api(), 'keys-file': 'purge/keys.txt' })
  const workspace = realpathSync(run.dir)
  expect(expectRefusal(run)).toBe(
    '::error::keys-file: cannot read "purge/keys.txt": no such file (ENOENT); the path resolves to ' +
      `"${join(workspace, 'purge', 'keys.txt')}", from the working directory "${workspace}"`
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
