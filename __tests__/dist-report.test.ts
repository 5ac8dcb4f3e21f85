/**
 * What the runner shows of a run is what happened, through dist/index.js run as the runner runs it:
 * every output whatever the run's size, each writer standing alone, the summary's first line the
 * answer, and the cause as the first annotation.
 */
import { afterEach, describe, expect, it } from '@jest/globals'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { FakeContentServer } from '../tools/fake-content-server.js'
import { FakePurgeServer } from '../tools/fake-purge-api/server.js'
import { renderMarkdown, textOf } from './support/rendered-markdown.js'
import { resultsOf, runAction, type ActionRun, type ResultEntry } from '../tools/run-like-runner.js'

const TOKEN = 'test-token'
const RELEASE = 'release-2f9c1e0'

let api: FakePurgeServer | undefined
let content: FakeContentServer | undefined

afterEach(async () => {
  await api?.close()
  await content?.close()
  api = undefined
  content = undefined
})

async function purgeApi(tokens?: Parameters<typeof FakePurgeServer.start>[0]): Promise<{
  inputs: Record<string, string>
  server: FakePurgeServer
}> {
  const server = await FakePurgeServer.start(tokens)
  api = server
  return {
    server,
    inputs: { 'api-token': TOKEN, 'base-url': server.url, 'service-id': 'svc123' }
  }
}

const annotations = (run: ActionRun, kind: 'error' | 'warning'): string[] =>
  run.stdout.split('\n').filter((line) => line.startsWith(`::${kind}`))

const firstLine = (run: ActionRun): string => textOf(run.summary.split('\n')[0] ?? '')

describe('no output lost, whatever the size', () => {
  it('15,000 keys behind 100 wait-for-urls that never get ready: every output, a short reason, a bounded summary', async () => {
    const { inputs, server } = await purgeApi()
    content = await FakeContentServer.start()
    const host = content
    const keys = Array.from({ length: 15_000 }, (_, index) => `product-${index}`)
    const waitUrls = Array.from({ length: 100 }, (_, index) =>
      host.urlOf(`/${index}/${'v'.repeat(300)}`)
    )
    const run = await runAction(
      {
        ...inputs,
        'keys-file': 'keys.txt',
        'wait-for-url': waitUrls.join('\n'),
        'wait-for-text': RELEASE,
        'wait-timeout': '1'
      },
      { files: { 'keys.txt': keys.join('\n') } }
    )
    expect(run.code).toBe(1)
    expect(server.requests).toEqual([])
    expect(run.outputs).toMatchObject({ 'purged-count': '0', 'failed-count': '15000' })
    const results = JSON.parse(
      await readFile(run.outputs['results-file'] ?? '', 'utf8')
    ) as ResultEntry[]
    expect(results).toHaveLength(15_000)
    const reason =
      'not sent: the origin was not ready after 1 s: 100 of 100 wait-for-urls did not show "release-2f9c1e0"'
    expect(new Set(results.map((result) => result.error))).toEqual(new Set([reason]))
    expect(Buffer.byteLength(run.summary)).toBeLessThanOrEqual(512 * 1024)
    expect(firstLine(run)).toBe(
      'Edge purge of svc123: 0 purged, 15000 failed, nothing sent: the origin was not ready'
    )
    // The summary lists some of the URLs awaited, not all 100.
    const text = textOf(run.summary)
    const listed = waitUrls.filter((url) => text.includes(new URL(url).pathname.slice(0, 40)))
    expect(listed.length).toBeGreaterThan(0)
    expect(listed.length).toBeLessThan(100)
  }, 60_000)

  it('a results file that cannot be written costs a warning naming it, not the outputs or the step', async () => {
    const { inputs } = await purgeApi()
    const removed = join('/nonexistent', 'removed-by-a-cleanup-step')
    const run = await runAction(
      { ...inputs, keys: 'home about' },
      { env: { RUNNER_TEMP: removed } }
    )
    expect(run.code).toBe(0)
    expect(run.outputs).toMatchObject({
      'purged-count': '2',
      'failed-count': '0',
      'results-file': '',
      'fresh-count': '0',
      'stale-count': '0'
    })
    expect(Object.keys(JSON.parse(run.outputs['purge-ids'] ?? '{}') as object)).toEqual([
      'home',
      'about'
    ])
    expect(resultsOf(run).map((result) => result.status)).toEqual(['purged', 'purged'])
    const [warning, ...others] = annotations(run, 'warning')
    expect(others).toEqual([])
    expect(warning).toContain(removed)
    expect(annotations(run, 'error')).toEqual([])
    expect(firstLine(run)).toBe('Edge purge of svc123: 2 purged, 0 failed')
  })
})

describe('what a user sees first', () => {
  it('the first line counts the pages still stale, over a failed step', async () => {
    const { inputs } = await purgeApi()
    content = await FakeContentServer.start()
    content.page('/fresh', { age: 0 })
    content.page('/stale-1', { age: 7200 })
    content.page('/stale-2', { age: 7200 })
    const run = await runAction({
      ...inputs,
      keys: 'a b c',
      'verify-urls': ['/fresh', '/stale-1', '/stale-2']
        .map((path) => content?.urlOf(path))
        .join(' '),
      'verify-timeout': '1'
    })
    expect(run.code).toBe(1)
    expect(firstLine(run)).toBe('Edge purge of svc123: 3 purged, 0 failed, 2 pages still stale')
    expect(run.outputs['stale-count']).toBe('2')
  })

  it('a refused soft purge stops the rest: one call, one annotation of the cause besides the step’s', async () => {
    const { inputs, server } = await purgeApi({ tokens: { [TOKEN]: 'purge' } })
    const run = await runAction({
      ...inputs,
      keys: 'home about contact pricing',
      soft: 'true',
      concurrency: '1'
    })
    expect(run.code).toBe(1)
    expect(server.requests).toHaveLength(1)
    expect(
      resultsOf(run).map(({ target, status, http_status, attempts }) => [
        target,
        status,
        http_status,
        attempts
      ])
    ).toEqual([
      ['home', 'failed', 403, 1],
      ['about', 'failed', null, 0],
      ['contact', 'failed', null, 0],
      ['pricing', 'failed', null, 0]
    ])
    expect(annotations(run, 'error')).toHaveLength(2)
  })
})

describe('no secret through a side door', () => {
  /** A token holding characters the summary escapes, so escaping before redacting would miss it. */
  const SECRET = `EDGE_tok:&|<>"'*~[]()!#@$_0123456789abcdef`
  /** Any piece of the token long enough to be a real leak (the runner masks only the whole). */
  const pieces = (text: string): string[] =>
    Array.from({ length: text.length - 7 }, (_, start) => text.slice(start, start + 8))

  it('an echoed token is hidden in the log, every output, annotation, file and the rendered summary', async () => {
    const { inputs, server } = await purgeApi({ tokens: { [SECRET]: 'engineer' } })
    content = await FakeContentServer.start()
    // The edge echoes the token at the end of a long X-Cache header: the evidence is cut at 80.
    const cache = 'HIT from cache-fra-1'
    content.page('/page', {
      age: 7200,
      headers: { 'X-Cache': `${cache} ${'x'.repeat(50)} ${SECRET}` }
    })
    server.fault({
      action: {
        kind: 'reply',
        status: 400,
        body: JSON.stringify({ msg: `no such key for ${SECRET}` })
      }
    })
    const run = await runAction({
      ...inputs,
      'api-token': SECRET,
      keys: 'home',
      'verify-urls': content.urlOf('/page'),
      'verify-timeout': '1'
    })
    expect(run.code).toBe(1)
    // The server's words are kept, the token in them masked.
    expect(resultsOf(run)[0]?.error).toContain('***')
    const shown = [
      run.log
        .split('\n')
        .filter((line) => !line.startsWith('::add-mask::'))
        .join('\n'),
      JSON.stringify(run.outputs),
      await readFile(run.outputs['results-file'] ?? '', 'utf8'),
      await readFile(run.outputs['verification-file'] ?? '', 'utf8'),
      textOf(renderMarkdown(run.summary))
    ]
    // The header that held the token is shown, up to it.
    expect(shown.join('\n')).toContain(cache)
    for (const text of shown) {
      for (const piece of pieces(SECRET)) expect(text).not.toContain(piece)
    }
  })
})
