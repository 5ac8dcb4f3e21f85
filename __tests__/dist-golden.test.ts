/**
 * The golden runs: dist/ run as the runner runs it, in fixed scenes (fixed ids, inputs, commits and
 * run context), one fixture each in fixtures/golden/. They are the contract every later step keeps
 * byte for byte: every output, the results and verification files, the annotations, the summary
 * and the whole log must stay as the fixtures hold them, with only what differs from one run of a
 * scene to the next (durations, ports, paths, file ids, timing-dependent check counts) replaced by
 * a placeholder, each rule in support/golden.ts saying why. `GOLDEN_WRITE=1 npm test --
 * __tests__/dist-golden.test.ts` rewrites the fixtures: only in the commit of a change meant to
 * alter them, whose message lists what changed (the cause-first report of issue 27 last did).
 */
import { afterEach, beforeEach, describe, it } from '@jest/globals'
import { FakeContentServer } from '../tools/fake-content-server.js'
import { FakePurgeServer } from '../tools/fake-purge-api/server.js'
import { RUN_CONTEXT_ENV, runAction } from '../tools/run-like-runner.js'
import { expectGolden, goldenRecord } from './support/golden.js'

const TOKEN = 'golden-token-7f3a9c'

let api: FakePurgeServer
let content: FakeContentServer

beforeEach(async () => {
  api = await FakePurgeServer.start({ tokens: { [TOKEN]: 'engineer' } })
  content = await FakeContentServer.start()
})
afterEach(async () => {
  await api.close()
  await content.close()
})

const keys = (count: number, prefix: string): string =>
  Array.from({ length: count }, (_, index) => `${prefix}-${index}`).join('\n')

describe('golden runs', () => {
  it('a mixed run: keys in batches, one refused with the token echoed, URLs, an edge check', async () => {
    content.page('/fresh', { age: 0 })
    content.page('/stale', { age: 3600 })
    // The server echoes the token, raw and in base64, in the answer to the batch holding `echo`.
    api.fault({
      match: (request) => request.body.includes('"echo"'),
      action: {
        kind: 'reply',
        status: 400,
        body: `{"msg":"bad batch for ${TOKEN} (${Buffer.from(`Key:${TOKEN}`).toString('base64')})"}`
      }
    })
    const run = await runAction(
      {
        'api-token': TOKEN,
        'base-url': api.url,
        'service-id': 'svc123',
        keys: `${keys(260, 'product')}\necho`,
        urls: `${content.urlOf('/fresh')}\n${content.urlOf('/stale')}`,
        verify: 'true',
        'verify-timeout': '1',
        concurrency: '1',
        'max-attempts': '1'
      },
      { env: RUN_CONTEXT_ENV }
    )
    await expectGolden('mixed', await goldenRecord(run))
  })

  it('a big run: results past the 1 MB output limit, kept whole in the results file', async () => {
    const run = await runAction(
      {
        'api-token': TOKEN,
        'base-url': api.url,
        'service-id': 'svc123',
        'keys-file': 'keys.txt',
        concurrency: '1'
      },
      {
        env: RUN_CONTEXT_ENV,
        files: { 'keys.txt': keys(8000, 'catalogue-entry-with-a-longer-name') }
      }
    )
    await expectGolden('big', await goldenRecord(run))
  })
})
