/**
 * Runner-contract test of dist/: the stages only some runs need (changed files, the last purge, the
 * wait, the edge check) and the GitHub client are chunks that load when a run needs them, so a
 * run that only purges keys or URLs works with every one of them gone.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import { cp, mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { FakePurgeServer } from '../tools/fake-purge-api/server.js'
import { resultsOf, ROOT, runAction } from '../tools/run-like-runner.js'

const TOKEN = 'test-token'
/** A chunk ncc splits off for an `import()`: `<id>.index.js` beside the entry. */
const CHUNK = /^\d+\.index\.js$/

let dist: string
let chunks: string[]
beforeAll(async () => {
  dist = await mkdtemp(join(tmpdir(), 'edge-purge-dist-'))
  const names = await readdir(join(ROOT, 'dist'))
  chunks = names.filter((name) => CHUNK.test(name))
  for (const name of names.filter((one) => !CHUNK.test(one))) {
    await cp(join(ROOT, 'dist', name), join(dist, name), { recursive: true })
  }
})
afterAll(async () => {
  await rm(dist, { recursive: true, force: true })
})

let server: FakePurgeServer
beforeEach(async () => {
  server = await FakePurgeServer.start({ tokens: { [TOKEN]: 'engineer' } })
})
afterEach(async () => {
  await server.close()
})

const withoutChunks = (inputs: Record<string, string>) =>
  runAction(inputs, { entry: join(dist, 'index.js') })

describe('dist/ without its lazily loaded chunks', () => {
  it('has chunks to leave out: the entry alone is what every run loads', () => {
    expect(chunks.length).toBeGreaterThan(0)
  })

  it('purges keys', async () => {
    const run = await withoutChunks({
      'api-token': TOKEN,
      'base-url': server.url,
      'service-id': 'svc123',
      keys: 'home about'
    })
    expect(run.code).toBe(0)
    expect(server.requests.map((request) => request.path)).toEqual(['/service/svc123/purge'])
    expect(resultsOf(run).map(({ target, status }) => [target, status])).toEqual([
      ['home', 'purged'],
      ['about', 'purged']
    ])
  })

  it('purges URLs', async () => {
    const run = await withoutChunks({ urls: `${server.url}/a ${server.url}/b` })
    expect(run.code).toBe(0)
    expect(server.requests.map((request) => [request.method, request.path]).sort()).toEqual([
      ['PURGE', '/a'],
      ['PURGE', '/b']
    ])
    expect(run.outputs['purged-count']).toBe('2')
  })

  it('fails a dry run with a wait, which the whole dist/ plans: the chunks are really gone', async () => {
    const inputs = { urls: `${server.url}/a`, 'wait-for-url': `${server.url}/a`, 'dry-run': 'true' }
    expect((await runAction(inputs)).code).toBe(0)
    expect((await withoutChunks(inputs)).code).toBe(1)
    expect(server.requests).toEqual([])
  })
})
