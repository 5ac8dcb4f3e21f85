/** Runner-contract tests of dist/index.js: every operation of the spec, as the runner runs the action. */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { FakePurgeServer } from './support/fake-purge-server.js'
import { resultsOf, runAction } from './support/run-action.js'

let server: FakePurgeServer
beforeEach(async () => {
  server = await FakePurgeServer.start()
})
afterEach(async () => {
  await server.close()
})

const TOKEN = 'test-token'
const api = (): Record<string, string> => ({
  'api-token': TOKEN,
  'base-url': server.url,
  'service-id': 'svc123'
})

describe('purge-all', () => {
  it('POSTs purge_all with Edge-Key and Accept, and reports the service purged without an id', async () => {
    const run = await runAction({ ...api(), mode: 'all' })
    expect(run.code).toBe(0)
    expect(server.requests).toHaveLength(1)
    const [request] = server.requests
    expect(request?.method).toBe('POST')
    expect(request?.path).toBe('/service/svc123/purge_all')
    expect(request?.headers['edge-key']).toBe(TOKEN)
    expect(request?.headers.accept).toBe('application/json')
    expect(request?.headers['edge-soft-purge']).toBeUndefined()
    expect(resultsOf(run)).toEqual([
      {
        type: 'all',
        target: 'svc123',
        soft: false,
        status: 'purged',
        id: null,
        http_status: 200,
        attempts: 1,
        error: null
      }
    ])
    expect(run.outputs['purged-count']).toBe('1')
    expect(run.outputs['failed-count']).toBe('0')
    expect(run.outputs['purge-id']).toBe('')
    expect(JSON.parse(run.outputs['purge-ids'] ?? '')).toEqual({})
  })
})
