/** Runner-contract tests of dist/: several services in one step, and purging twice (repeat-after). */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { FakePurgeServer } from '../tools/fake-purge-api/server.js'
import { resultsOf, runAction } from '../tools/run-like-runner.js'

let server: FakePurgeServer
beforeEach(async () => {
  server = await FakePurgeServer.start({
    tokens: { 'test-token': 'engineer' },
    services: ['svc-a', 'svc-b']
  })
})
afterEach(async () => {
  await server.close()
})

const api = (): Record<string, string> => ({ 'api-token': 'test-token', 'base-url': server.url })

describe('several services', () => {
  it('purges keys in each service and URLs once, with ids grouped by service', async () => {
    const run = await runAction({
      ...api(),
      'service-id': 'svc-a, svc-b',
      keys: 'k1 k2',
      urls: `${server.url}/page`
    })
    expect(run.code).toBe(0)
    expect(server.purgedKeys.map((purged) => `${purged.service}/${purged.key}`).sort()).toEqual([
      'svc-a/k1',
      'svc-a/k2',
      'svc-b/k1',
      'svc-b/k2'
    ])
    expect(server.purgedUrls).toHaveLength(1)
    const results = resultsOf(run)
    expect(results.map((result) => [result.service, result.type, result.target])).toEqual([
      ['svc-a', 'key', 'k1'],
      ['svc-a', 'key', 'k2'],
      ['svc-b', 'key', 'k1'],
      ['svc-b', 'key', 'k2'],
      [null, 'url', `${server.url}/page`]
    ])
    const ids = JSON.parse(run.outputs['purge-ids'] ?? '') as Record<string, Record<string, string>>
    expect(Object.keys(ids).sort()).toEqual(['svc-a', 'svc-b', 'urls'])
    expect(ids['svc-a']?.k1).toBe(results[0]?.id)
    expect(ids['svc-b']?.k2).toBe(results[3]?.id)
    expect(ids.urls?.[`${server.url}/page`]).toBe(results[4]?.id)
    expect(run.outputs['purged-count']).toBe('5')
    // The summary's table has a service column, with several services.
    const headers = [...run.summary.matchAll(/<th>([^<]*)<\/th>/g)].map((match) => match[1])
    expect(headers).toContain('Service')
  })

  it('purges everything in each service with mode: all, newline-separated', async () => {
    const run = await runAction({ ...api(), 'service-id': 'svc-a\nsvc-b\n', mode: 'all' })
    expect(run.code).toBe(0)
    expect(server.purgeAlls.sort()).toEqual(['svc-a', 'svc-b'])
  })

  it('keeps the flat purge-ids shape for one service', async () => {
    const run = await runAction({ ...api(), 'service-id': 'svc-a', keys: 'k1' })
    expect(Object.keys(JSON.parse(run.outputs['purge-ids'] ?? '') as object)).toEqual(['k1'])
  })

  it('reports an unknown service among several without stopping the others', async () => {
    const run = await runAction({ ...api(), 'service-id': 'svc-a,nope', keys: 'k1' })
    expect(run.code).toBe(1)
    const results = resultsOf(run)
    expect(results.find((result) => result.service === 'svc-a')).toMatchObject({ status: 'purged' })
    expect(results.find((result) => result.service === 'nope')).toMatchObject({
      status: 'failed',
      http_status: 404,
      attempts: 1
    })
  })
})

describe('repeat-after', () => {
  it('sends the same calls again after the wait, and records both passes', async () => {
    const run = await runAction({
      ...api(),
      'service-id': 'svc-a',
      keys: 'k1 k2 k3',
      'repeat-after': '1'
    })
    expect(run.code).toBe(0)
    expect(server.requests).toHaveLength(2)
    const [first, second] = server.requests
    expect(second?.path).toBe(first?.path)
    expect(second?.body).toBe(first?.body)
    expect(second?.headers['content-type']).toBe(first?.headers['content-type'])
    expect((second?.receivedAt ?? 0) - (first?.receivedAt ?? 0)).toBeGreaterThanOrEqual(1000)
    for (const result of resultsOf(run)) {
      expect(result.status).toBe('purged')
      expect(result.repeat).toMatchObject({ status: 'purged', attempts: 1 })
      expect(result.repeat?.id).not.toBe(result.id)
    }
  })

  it('plans both passes in a dry run without waiting', async () => {
    const run = await runAction({
      ...api(),
      'service-id': 'svc-a',
      keys: 'k1',
      'repeat-after': '300',
      'dry-run': 'true'
    })
    expect(run.code).toBe(0)
    expect(server.requests).toHaveLength(0)
    expect(resultsOf(run)[0]?.repeat).toEqual({ status: 'planned', id: null, attempts: 0 })
  })
})
