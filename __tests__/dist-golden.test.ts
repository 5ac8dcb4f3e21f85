/**
 * The golden runs: dist/ run as the runner runs it, in two fixed scenes (fixed ids, inputs and
 * run context). Every output, the results and verification files and the summary must stay as the
 * fixtures hold them, durations, ports and paths aside. `GOLDEN_WRITE=1` rewrites the fixtures:
 * only in the commit of a change meant to alter them, whose message lists what changed (the
 * cause-first report of issue 27 last did).
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { createHash } from 'node:crypto'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { FakeContentServer } from '../tools/fake-content-server.js'
import { FakePurgeServer } from '../tools/fake-purge-api/server.js'
import { RUN_CONTEXT_ENV, runAction, type ActionRun } from '../tools/run-like-runner.js'

const FIXTURES = fileURLToPath(new URL('fixtures/golden/', import.meta.url))
const TOKEN = 'golden-token-7f3a9c'
/** Text longer than this is kept in the fixture as its size and SHA-256. */
const WHOLE_UP_TO = 64 * 1024

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

/** A run as the fixture holds it: ports, run paths, file ids, durations and check counts fixed. */
async function golden(run: ActionRun): Promise<Record<string, unknown>> {
  const fixed = (text: string): string =>
    text
      .replaceAll(run.dir, '$RUNNER_TEMP')
      .replace(/127\.0\.0\.1(:|&#58;)\d+/g, '127.0.0.1$1PORT')
      .replace(/(edge-purge-(?:results|verification))-[0-9a-f-]{36}/g, '$1-ID')
      .replace(/\b\d+(\.\d+)? (ms|s)\b/g, 'N $2')
      .replace(/"checks":\d+/g, '"checks":N')
      .replace(/\b\d+ checks?\b/g, 'N checks')
      .replace(/<td>\d+<\/td>(<td>Age)/g, '<td>N</td>$1')
  const kept = (text: string): string =>
    text.length <= WHOLE_UP_TO
      ? fixed(text)
      : `${Buffer.byteLength(text)} bytes, sha256 ${createHash('sha256').update(fixed(text)).digest('hex')}`
  // A file that holds what its output holds is kept once, under the output.
  const file = async (name: string, output: string): Promise<string> => {
    if (run.outputs[name] === '') return ''
    const text = await readFile(run.outputs[name] ?? '', 'utf8')
    return text === run.outputs[output] ? `= outputs.${output}` : kept(text)
  }
  const outputs = Object.fromEntries(
    Object.entries(run.outputs)
      .filter(([name]) => name !== 'wait-seconds')
      .map(([name, value]) => [name, kept(value)])
  )
  return {
    code: run.code,
    outputs,
    resultsFile: await file('results-file', 'results'),
    verificationFile: await file('verification-file', 'verification'),
    annotations: fixed(run.stdout)
      .split('\n')
      .filter((line) => /^::(error|warning|notice)/.test(line)),
    summary: kept(run.summary)
  }
}

async function expectGolden(name: string, run: ActionRun): Promise<void> {
  const path = join(FIXTURES, `${name}.json`)
  const now = await golden(run)
  if (process.env.GOLDEN_WRITE === '1') await writeFile(path, `${JSON.stringify(now, null, 2)}\n`)
  expect(now).toEqual(JSON.parse(await readFile(path, 'utf8')))
}

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
    await expectGolden('mixed', run)
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
    await expectGolden('big', run)
  })
})
