/** The step's outputs and results file, written through the runner's GITHUB_OUTPUT file. */
import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { writeOutputs } from '../src/report/write-outputs.js'
import type { PurgeResult } from '../src/record/index.js'
import { runnerOutputs } from '../src/runner/step-outputs.js'
import { purgeResult, runRecord } from './support/run-record.js'
import { runnerVoice } from '../src/runner/voice.js'
import { guardAgainst, type Guard } from '../src/text/guard.js'
import { NO_SECRETS } from './support/guard.js'
import { parseOutputFile } from '../tools/run-like-runner.js'

/** The runner's outputs, as the runner door hands them to the report with the run's guard. */
const io = (guard: Guard = NO_SECRETS) => runnerOutputs(runnerVoice(guard).log, guard)

/** Results as the `results` output and file hold them: their failure is there in words only. */
const outputForm = (results: readonly PurgeResult[]): object[] =>
  results.map(({ failure: _failure, ...entry }) => entry)

describe('writeOutputs', () => {
  const saved = { ...process.env }
  let dir: string
  let runnerTemp: string
  let outputFile: string
  /** What core printed (notices, warnings): kept off the real stdout, where the runner reads commands. */
  let printed: string[]

  beforeEach(() => {
    printed = []
    jest.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      printed.push(String(chunk))
      return true
    })
    dir = mkdtempSync(join(tmpdir(), 'edge-purge-outputs-'))
    runnerTemp = join(dir, 'runner-temp')
    mkdirSync(runnerTemp)
    outputFile = join(dir, 'output.txt')
    writeFileSync(outputFile, '')
    process.env.GITHUB_OUTPUT = outputFile
    process.env.RUNNER_TEMP = runnerTemp
  })

  afterEach(() => {
    jest.restoreAllMocks()
    for (const name of ['GITHUB_OUTPUT', 'RUNNER_TEMP']) {
      if (saved[name] === undefined) delete process.env[name]
      else process.env[name] = saved[name]
    }
    rmSync(dir, { recursive: true, force: true })
  })

  const outputs = (): Record<string, string> => parseOutputFile(readFileSync(outputFile, 'utf8'))

  it('writes every output, and the results file under RUNNER_TEMP with nothing left beside it', async () => {
    const results = [
      purgeResult({ target: 'a', id: 'id-a' }),
      purgeResult({ target: 'b', status: 'failed', id: null, http_status: 500, error: 'HTTP 500' })
    ]
    const file = await writeOutputs(runRecord({ results }), io())
    expect(outputs()).toEqual({
      base: '',
      'base-source': '',
      'purge-ids': '{"a":"id-a"}',
      'purge-id': 'id-a',
      results: JSON.stringify(outputForm(results)),
      'purged-count': '1',
      'failed-count': '1',
      'results-file': file,
      'wait-seconds': '',
      'fresh-count': '0',
      'stale-count': '0',
      'unreachable-count': '0',
      verification: '',
      'verification-file': ''
    })
    expect(readdirSync(runnerTemp)).toEqual([file.slice(runnerTemp.length + 1)])
    expect(readFileSync(file, 'utf8')).toBe(JSON.stringify(outputForm(results)))
  })

  it('hides the token in every output and the results file, and the JSON stays valid', async () => {
    // A quote and a backslash: JSON escapes them, so only hiding before escaping can find them.
    const token = 'tok"9fQ2/xL7\\vR4m+Zq'
    const results = [
      purgeResult({ target: `key-${token}`, id: 'id-a' }),
      purgeResult({
        target: 'b',
        status: 'failed',
        id: null,
        error: `server said: ${token} / ${encodeURIComponent(token)}`
      }),
      purgeResult({ target: 'c', id: Buffer.from(`user:${token}`).toString('base64') })
    ]
    const file = await writeOutputs(runRecord({ results }), io(guardAgainst([token])))
    const written = outputs()
    const [first, second, third] = JSON.parse(written.results ?? '') as PurgeResult[]
    expect(first?.target).toBe('key-***')
    expect(second?.error).toBe('server said: *** / ***')
    expect(third?.id).toBe('dXNlcjp***Q==')
    expect(Object.keys(JSON.parse(written['purge-ids'] ?? ''))).toEqual(['key-***', 'c'])
    expect(readFileSync(file, 'utf8')).toBe(written.results)
    for (const text of [...Object.values(written), readFileSync(file, 'utf8')]) {
      expect(text).not.toContain('9fQ2')
    }
  })

  it('hides a token deep in a long results file exactly as hiding each string would', async () => {
    const token = 'tok"9fQ2/xL7\\vR4m+Zq'
    const results = Array.from({ length: 2500 }, (_, index) =>
      index === 1500
        ? purgeResult({ target: 'x', status: 'failed', id: null, error: `echoed ${token}` })
        : purgeResult({ target: `key-${index}`, id: `id-${index}` })
    )
    const file = await writeOutputs(runRecord({ results }), io(guardAgainst([token])))
    const hidden = JSON.stringify(outputForm(results), (_key, value: unknown) =>
      typeof value === 'string' ? value.replaceAll(token, '***') : value
    )
    expect(readFileSync(file, 'utf8')).toBe(hidden)
    expect(outputs().results).toBe(hidden)
  })

  it('writes a results file of many writes and characters of every width byte for byte', async () => {
    const results = Array.from({ length: 4000 }, (_, index) =>
      purgeResult({ target: `é-${index}-日本-😀`, id: `id-${index}` })
    )
    const file = await writeOutputs(runRecord({ results }), io())
    expect(readFileSync(file).length).toBeGreaterThan(512 * 1024)
    expect(readFileSync(file, 'utf8')).toBe(JSON.stringify(outputForm(results)))
    expect(JSON.parse(outputs()['purge-ids'] ?? '')).toEqual(
      Object.fromEntries(results.map(({ target, id }) => [target, id]))
    )
  })

  it('keeps an output of exactly 1,000,000 bytes, and leaves one a byte longer empty', async () => {
    const sized = (bytes: number): PurgeResult[] => {
      const base = Buffer.byteLength(
        JSON.stringify(outputForm([purgeResult({ target: '', id: null })]))
      )
      // `é` is 2 bytes in UTF-8 and 1 character: the bytes, not the characters, are counted.
      const pad = bytes - base
      return [
        purgeResult({ target: 'é'.repeat(Math.floor(pad / 2)) + 'x'.repeat(pad % 2), id: null })
      ]
    }
    const exact = sized(1_000_000)
    expect(Buffer.byteLength(JSON.stringify(outputForm(exact)))).toBe(1_000_000)
    await writeOutputs(runRecord({ results: exact }), io())
    expect(outputs().results).toBe(JSON.stringify(outputForm(exact)))

    writeFileSync(outputFile, '')
    const over = sized(1_000_001)
    await writeOutputs(runRecord({ results: over }), io())
    expect(outputs().results).toBe('')
    // One notice, which gives the size.
    const notices = printed.filter((line) => line.startsWith('::notice::'))
    expect(notices).toHaveLength(1)
    expect(notices[0]).toContain('1000001')
  })

  it('hides the token in purge-id', async () => {
    const token = 'tok-9fQ2xL7vR4m'
    const results = [purgeResult({ id: `id-${token}` })]
    await writeOutputs(runRecord({ results }), io(guardAgainst([token])))
    expect(outputs()['purge-id']).toBe('id-***')
  })

  it('never lets a reader see half a results file', async () => {
    const results = Array.from({ length: 100_000 }, (_, index) =>
      purgeResult({ target: `key-${index}`, id: `id-${index}` })
    )
    let finished = false
    const writing = writeOutputs(runRecord({ results }), io()).finally(() => {
      finished = true
    })
    // Looks at every file under the results file's name between the writer's steps; written in
    // place, the file was seen here half-written.
    const halves: number[] = []
    while (!finished) {
      for (const name of readdirSync(runnerTemp).filter((entry) => entry.endsWith('.json'))) {
        const text = readFileSync(join(runnerTemp, name), 'utf8')
        if (!text.endsWith(']')) halves.push(text.length)
      }
      await new Promise((resolve) => setImmediate(resolve))
    }
    const file = await writing
    expect(halves).toEqual([])
    expect(JSON.parse(readFileSync(file, 'utf8'))).toHaveLength(100_000)
    // Both outputs too large are left empty, each with a notice naming the file that holds all.
    expect(outputs()).toMatchObject({ results: '', 'purge-ids': '' })
    const notices = printed.filter((line) => line.startsWith('::notice::'))
    expect(notices.map((line) => line.split(' ')[1])).toEqual(['purge-ids', 'results'])
    for (const notice of notices) expect(notice).toContain(file)
  })

  it('sets every output when the results file cannot be written, with a warning naming it', async () => {
    process.env.RUNNER_TEMP = join(dir, 'removed')
    const results = [purgeResult({ target: 'a', id: 'id-a' })]
    expect(await writeOutputs(runRecord({ results }), io())).toBe('')
    expect(outputs()).toEqual({
      base: '',
      'base-source': '',
      'purge-ids': '{"a":"id-a"}',
      'purge-id': 'id-a',
      results: JSON.stringify(outputForm(results)),
      'purged-count': '1',
      'failed-count': '0',
      'results-file': '',
      'wait-seconds': '',
      'fresh-count': '0',
      'stale-count': '0',
      'unreachable-count': '0',
      verification: '',
      'verification-file': ''
    })
    expect(printed.join('')).toMatch(
      /^::warning::Could not write the results file .*\/removed\/edge-purge-results-[0-9a-f-]+\.json: (Error: )?ENOENT.*The results-file output is left empty; the other outputs are set\.\n$/
    )
  })
})
