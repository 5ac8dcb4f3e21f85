/** Runner-contract tests of dist/index.js: every operation of the spec, as the runner runs the action. */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { readFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { FakePurgeServer } from '../tools/fake-purge-api/server.js'
import { textOf } from './support/rendered-markdown.js'
import { resultsOf, runAction, type ResultEntry } from '../tools/run-like-runner.js'

let server: FakePurgeServer
beforeEach(async () => {
  server = await FakePurgeServer.start({ tokens: { 'test-token': 'engineer' } })
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
const keyList = (count: number, prefix = 'key'): string[] =>
  Array.from({ length: count }, (_, i) => `${prefix}-${i}`)
const ID = /^\d+-\d+-\d+(-\d+)?$/

function expectAllPurged(results: ResultEntry[], targets: string[]): void {
  expect(results.map((result) => result.target)).toEqual(targets)
  for (const result of results) {
    expect(result).toMatchObject({ status: 'purged', http_status: 200, attempts: 1, error: null })
    expect(result.id).toMatch(ID)
  }
}

describe('purge-all (op 2)', () => {
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
    expect(server.purgeAlls).toEqual(['svc123'])
    expect(resultsOf(run)).toEqual([
      {
        type: 'all',
        target: 'svc123',
        service: 'svc123',
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

describe('one surrogate key (op 3)', () => {
  it('POSTs purge/{key} with the key encoded as one path segment', async () => {
    const key = 'a/b?c#d%e'
    const run = await runAction({ ...api(), keys: key })
    expect(run.code).toBe(0)
    expect(server.requests.map((request) => request.path)).toEqual([
      '/service/svc123/purge/a%2Fb%3Fc%23d%25e'
    ])
    expect(server.requests[0]?.headers['edge-soft-purge']).toBeUndefined()
    expect(server.purgedKeys).toEqual([{ service: 'svc123', key, soft: false }])
    const [result] = resultsOf(run)
    expect(result).toMatchObject({ type: 'key', target: key, soft: false, status: 'purged' })
    expect(run.outputs['purge-id']).toBe(result?.id)
    expect(JSON.parse(run.outputs['purge-ids'] ?? '')).toEqual({ [key]: result?.id })
  })
})

describe('batches of keys (ops 4 and 5)', () => {
  // How keys are cut into batches (count, batch-size, the 16 KiB header) is core/plan.test.ts's.
  it('purges 600 keys given one per line, each in results, purge-ids and purged-count', async () => {
    const keys = keyList(600)
    const run = await runAction({ ...api(), keys: keys.join('\n') })
    expect(run.code).toBe(0)
    expect(server.purgedKeys.map(({ key }) => key).sort()).toEqual([...keys].sort())
    expectAllPurged(resultsOf(run), keys)
    expect(Object.keys(JSON.parse(run.outputs['purge-ids'] ?? '{}') as object)).toHaveLength(600)
    expect(run.outputs['purged-count']).toBe('600')
    expect(run.outputs['purge-id']).toBe('')
  })

  it('in header form, sends the keys in a Surrogate-Key header with no body', async () => {
    const keys = keyList(3)
    const run = await runAction({ ...api(), keys: keys.join(' '), 'batch-format': 'header' })
    expect(run.code).toBe(0)
    expect(
      server.requests.map((request) => [
        request.path,
        request.headers['surrogate-key'],
        request.headers['content-type'],
        request.body
      ])
    ).toEqual([['/service/svc123/purge', keys.join(' '), undefined, '']])
    expectAllPurged(resultsOf(run), keys)
  })

  it('takes 20,000 keys from keys-file, with complete counts and results-file when outputs exceed 1 MB', async () => {
    const keys = keyList(20_000, 'product-variant')
    const run = await runAction(
      { ...api(), 'keys-file': 'keys.txt' },
      { files: { 'keys.txt': keys.join('\n') } }
    )
    expect(run.code).toBe(0)
    expect(server.purgedKeys).toHaveLength(20_000)
    expect(run.outputs['purged-count']).toBe('20000')
    expect(run.outputs['failed-count']).toBe('0')
    // Too big for the runner's outputs: left empty, each with a notice, the file complete.
    expect(run.outputs.results).toBe('')
    expect(run.outputs['purge-ids']).toBe('')
    expect(run.stdout.split('\n').filter((line) => line.startsWith('::notice::'))).toHaveLength(2)
    expect(run.outputs['results-file']?.startsWith(run.dir)).toBe(true)
    const fromFile = JSON.parse(
      await readFile(run.outputs['results-file'] ?? '', 'utf8')
    ) as ResultEntry[]
    expect(fromFile).toHaveLength(20_000)
    expect(fromFile.every((result) => result.status === 'purged')).toBe(true)
    // The summary stays small: a table of the first 250 purged targets.
    expect(Buffer.byteLength(run.summary)).toBeLessThan(200 * 1024)
    expect(run.summary.match(/✅ purged/g)).toHaveLength(250)
  })
})

describe('soft purges (ops 6 and 7)', () => {
  it('soft-purges several keys one call each, with Edge-Soft-Purge: 1', async () => {
    const run = await runAction({ ...api(), keys: 'a b c', soft: 'true' })
    expect(run.code).toBe(0)
    expect(server.requests.map((request) => request.path).sort()).toEqual([
      '/service/svc123/purge/a',
      '/service/svc123/purge/b',
      '/service/svc123/purge/c'
    ])
    for (const request of server.requests) expect(request.headers['edge-soft-purge']).toBe('1')
    expect(server.purgedKeys.every((purged) => purged.soft)).toBe(true)
    expect(resultsOf(run).every((result) => result.soft && result.status === 'purged')).toBe(true)
    expect(run.summary).toMatch(/soft/)
  })

  it('sends hard and soft URL purges to the URL itself, keeping path and query, without the token', async () => {
    const urls = [`${server.url}/blog/post?page=2`, `${server.url}/index.html`]
    const hard = await runAction({ urls: urls.join('\n') })
    expect(hard.code).toBe(0)
    expect(server.requests.map((request) => [request.method, request.path]).sort()).toEqual([
      ['PURGE', '/blog/post?page=2'],
      ['PURGE', '/index.html']
    ])
    for (const request of server.requests) {
      expect(request.headers['edge-key']).toBeUndefined()
      expect(request.headers['edge-soft-purge']).toBeUndefined()
    }
    expectAllPurged(resultsOf(hard), urls)

    server.requests.length = 0
    const soft = await runAction({ urls: urls[0] ?? '', soft: 'true', 'api-token': TOKEN })
    expect(soft.code).toBe(0)
    expect(server.requests[0]?.headers['edge-soft-purge']).toBe('1')
    expect(server.requests[0]?.headers['edge-key']).toBeUndefined()
    expect(resultsOf(soft)[0]).toMatchObject({ type: 'url', soft: true, status: 'purged' })
  })

  it('sends the token with URL purges only when url-purge-auth is true', async () => {
    const run = await runAction({
      'api-token': TOKEN,
      urls: `${server.url}/a`,
      'url-purge-auth': 'true'
    })
    expect(run.code).toBe(0)
    expect(server.requests[0]?.headers['edge-key']).toBe(TOKEN)
  })
})

describe('lists from files and mixed targets', () => {
  it('merges urls-file with urls and purges keys and URLs in one step', async () => {
    const run = await runAction(
      { ...api(), keys: 'k1', urls: `${server.url}/a`, 'urls-file': 'urls.txt' },
      { files: { 'urls.txt': `${server.url}/a\n${server.url}/b\n\n` } }
    )
    expect(run.code).toBe(0)
    expect(resultsOf(run).map((result) => [result.type, result.target])).toEqual([
      ['key', 'k1'],
      ['url', `${server.url}/a`],
      ['url', `${server.url}/b`]
    ])
    expect(server.purgedUrls).toHaveLength(2)
  })
})

describe('execution', () => {
  it('dry-run plans every call, sends nothing, and reports planned results', async () => {
    const run = await runAction({
      ...api(),
      'api-token': '',
      keys: keyList(600).join(' '),
      'dry-run': 'true'
    })
    expect(run.code).toBe(0)
    expect(server.requests).toHaveLength(0)
    const results = resultsOf(run)
    expect(results).toHaveLength(600)
    expect(results.every((result) => result.status === 'planned' && result.attempts === 0)).toBe(
      true
    )
    expect(run.summary).toMatch(/dry run/i)
    expect(run.outputs['purged-count']).toBe('0')
  })

  it('writes no summary with summary: false, but still sets outputs', async () => {
    const run = await runAction({ ...api(), keys: 'k1', summary: 'false' })
    expect(run.code).toBe(0)
    expect(run.summary).toBe('')
    expect(run.outputs['purged-count']).toBe('1')
  })

  it('writes a summary with counts, service, the run context and a table', async () => {
    const run = await runAction(
      { ...api(), keys: 'k1 k2' },
      {
        env: {
          GITHUB_REPOSITORY: 'acme/site',
          GITHUB_SHA: '0123456789abcdef',
          GITHUB_EVENT_NAME: 'push',
          GITHUB_WORKFLOW: 'Deploy',
          GITHUB_RUN_ID: '42',
          GITHUB_RUN_NUMBER: '7',
          GITHUB_SERVER_URL: 'https://github.com'
        }
      }
    )
    expect(run.code).toBe(0)
    const text = textOf(run.summary)
    // The service, the repository and the commit's short SHA.
    for (const shown of ['svc123', 'acme/site', '0123456']) expect(text).toContain(shown)
    const href = /href="([^"]*)"/.exec(run.summary)?.[1] ?? ''
    expect(textOf(href)).toBe('https://github.com/acme/site/actions/runs/42')
    // A row per target: target, type, purge, result.
    const rows = run.summary.split('\n').filter((line) => line.startsWith('<tr><td>'))
    const cells = (row: string): string[] => row.split('</td>').map(textOf).slice(0, 4)
    expect(rows.map(cells)).toEqual([
      ['k1', 'key', 'instant', '✅ purged'],
      ['k2', 'key', 'instant', '✅ purged']
    ])
  })
})

describe('refusals before any request', () => {
  const cases: [string, Record<string, string>, RegExp][] = [
    ['soft with all', { mode: 'all', soft: 'true' }, /soft: true cannot be used with mode: all/],
    ['all with keys', { mode: 'all', keys: 'k1' }, /mode: all .* refuses keys or URLs/],
    [
      'keys mode with urls',
      { mode: 'keys', keys: 'k', urls: 'https://example.com/' },
      /mode: keys refuses URLs/
    ],
    ['nothing to purge', {}, /Nothing to purge/],
    [
      'batch-size 300',
      { keys: 'k', 'batch-size': '300' },
      /batch-size must be a whole number from 1 to 256, got "300"/
    ],
    [
      'mode everything',
      { keys: 'k', mode: 'everything' },
      /mode must be one of keys, urls, all \(or empty\), got "everything"/
    ],
    ['soft maybe', { keys: 'k', soft: 'maybe' }, /soft must be true or false, got "maybe"/],
    [
      'concurrency 65',
      { keys: 'k', concurrency: '65' },
      /concurrency must be a whole number from 1 to 64/
    ],
    [
      'a key with a control character',
      { keys: 'ok bad\u0001key' },
      /keys: key "bad\\u0001key" is not allowed/
    ],
    ['a relative URL', { urls: '/just/a/path' }, /urls: "\/just\/a\/path" is not an absolute URL/],
    [
      'http base-url off loopback',
      { keys: 'k', 'base-url': 'http://api.example.com' },
      /base-url: http:\/\/ would send api-token unencrypted/
    ]
  ]
  it.each(cases)('%s', async (_name, inputs, message) => {
    const run = await runAction({ ...api(), ...inputs })
    expect(run.code).toBe(1)
    expect(run.stdout).toMatch(new RegExp(`::error::.*${message.source}`))
    expect(server.requests).toHaveLength(0)
  })

  it('refuses a URL with credentials without echoing them', async () => {
    const run = await runAction({ urls: 'https://alice:s3cret@example.com/page' })
    expect(run.code).toBe(1)
    expect(run.stdout.split('\n').filter((line) => line.startsWith('::error::'))).toHaveLength(1)
    expect(run.log).not.toContain('s3cret')
    expect(server.requests).toHaveLength(0)
  })
})

describe('the token', () => {
  it('is masked before anything else is printed', async () => {
    const run = await runAction({ ...api(), keys: 'k1' })
    expect(run.stdout.split('\n')[0]).toBe(`::add-mask::${TOKEN}`)
  })

  it('is not needed to reach outputs written under RUNNER_TEMP', async () => {
    const run = await runAction({ ...api(), keys: 'k1' })
    const file = run.outputs['results-file'] ?? ''
    // The run's directory is its RUNNER_TEMP.
    expect(dirname(file)).toBe(run.dir)
    expect(file).not.toContain(TOKEN)
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual(resultsOf(run))
  })
})
