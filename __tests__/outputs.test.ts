/** The step's outputs and results file, written through the runner's GITHUB_OUTPUT file. */
import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { ResultViews, writeOutputs } from '../src/report/outputs.js'
import { plainPurgeIdsJson, purgeIdsJson, targetMayRepeat } from '../src/report/purge-ids.js'
import type { Settings } from '../src/config/settings.js'
import { parseUrls } from '../src/config/lists.js'
import { settingsWith, TEST_BASE } from './support/defaults.js'
import type { PurgeResult, Verification } from '../src/record.js'
import { runnerOutputs } from '../src/runner/outputs.js'
import { runRecord } from './support/run-record.js'
import { hideSecrets } from '../src/text/guard.js'
import { parseOutputFile } from '../tools/run-like-runner.js'

function result(overrides: Partial<PurgeResult>): PurgeResult {
  return {
    type: 'key',
    target: 'k1',
    service: 'svc123',
    soft: false,
    status: 'purged',
    id: 'id-1',
    http_status: 200,
    attempts: 1,
    error: null,
    ...overrides
  }
}

/** purge-ids as one text, from pieces of `size` characters. */
const idsJson = (results: PurgeResult[], perService: boolean, size = 1): string =>
  [...purgeIdsJson(results, perService, (text) => text, size)].join('')

/**
 * The plain walk's text, or `undefined` when it left the ids to the careful walk. The results come
 * `perCall` at a time, as the purge hands them out, each group after a turn of the event loop.
 */
async function plainIds(
  results: PurgeResult[],
  perService: boolean,
  size: number,
  perCall = results.length,
  mayRepeat = true
): Promise<string | undefined> {
  async function* calls(): AsyncGenerator<PurgeResult[]> {
    for (let at = 0; at < results.length; at += perCall) {
      await new Promise((resolve) => setImmediate(resolve))
      yield results.slice(at, at + perCall)
    }
  }
  const pieces: string[] = []
  const walk = plainPurgeIdsJson(calls(), perService, mayRepeat, size)
  let step = await walk.next()
  for (; step.done !== true; step = await walk.next()) pieces.push(step.value)
  return step.value ? pieces.join('') : undefined
}

const isIndexName = (name: string): boolean =>
  /^(?:0|[1-9]\d*)$/.test(name) && Number(name) <= 2 ** 32 - 2

/** Whether an object's order differs from the order the ids come in, or a service comes back. */
function needsObjectOrder(results: PurgeResult[], perService: boolean): boolean {
  const groups: string[] = []
  const targets = new Set<string>()
  for (const { status, id, service, target } of results) {
    if (status !== 'purged' || id === null) continue
    const group = perService ? (service ?? 'urls') : ''
    if (groups.at(-1) !== group) {
      if (groups.includes(group) || isIndexName(group)) return true
      groups.push(group)
      targets.clear()
    }
    if (targets.has(target) || isIndexName(target)) return true
    targets.add(target)
  }
  return false
}

/** The results without a target that came before in its object (by service, when grouped). */
function eachTargetOnce(results: PurgeResult[], perService: boolean): PurgeResult[] {
  const seen = new Set<string>()
  return results.filter(({ service, target }) => {
    const place = JSON.stringify([perService ? (service ?? 'urls') : '', target])
    if (seen.has(place)) return false
    seen.add(place)
    return true
  })
}

/** What purge-ids was before it was written in pieces: an object built by assigning each id. */
function idsObject(results: PurgeResult[], perService: boolean): object {
  const ids = Object.create(null) as Record<string, string>
  const groups = Object.create(null) as Record<string, Record<string, string>>
  for (const { status, id, service, target } of results) {
    if (status !== 'purged' || id === null) continue
    if (perService) (groups[service ?? 'urls'] ??= Object.create(null) as typeof ids)[target] = id
    else ids[target] = id
  }
  return perService ? groups : ids
}

/**
 * Results, whether ids are grouped by service, and a piece size. Names that look like array
 * indices are where an object's order differs from insertion order.
 */
const idCases = fc.tuple(
  fc
    .array(
      fc.record({
        target: fc.oneof(
          fc.constantFrom(
            '0',
            '7',
            '42',
            '042',
            '-1',
            '4294967294',
            '4294967295',
            '__proto__',
            'k"\\'
          ),
          fc.nat({ max: 20 }).map(String),
          fc.string({ maxLength: 2 })
        ),
        service: fc.option(fc.constantFrom('svc1', '12', 'urls'), { nil: null }),
        id: fc.option(fc.string({ maxLength: 4 }), { nil: null }),
        failed: fc.boolean()
      }),
      { maxLength: 12 }
    )
    .map((entries) =>
      entries.map(({ target, service, id, failed }) =>
        result({ target, service, id, status: failed ? 'failed' : 'purged' })
      )
    ),
  fc.boolean(),
  fc.integer({ min: 1, max: 40 })
)

describe('purgeIdsJson', () => {
  it('maps each purged target to its id, skipping failures and purge-all', () => {
    const results = [
      result({ target: 'a', id: 'id-a' }),
      result({ target: 'b', status: 'failed', id: null, error: 'HTTP 500' }),
      result({ type: 'all', target: 'svc123', id: null }),
      result({ type: 'url', target: 'https://www.example.com/', service: null, id: 'id-u' })
    ]
    expect(idsJson(results, false)).toBe('{"a":"id-a","https://www.example.com/":"id-u"}')
  })

  it('groups by service, keeping a service named __proto__, URLs under urls', () => {
    const results = [
      result({ service: '__proto__', target: 'k1', id: 'id-1' }),
      result({ service: 'svc2', target: '__proto__', id: 'id-2' }),
      result({ type: 'url', service: null, target: 'https://www.example.com/', id: 'id-3' })
    ]
    expect(idsJson(results, true)).toBe(
      '{"__proto__":{"k1":"id-1"},"svc2":{"__proto__":"id-2"},"urls":{"https://www.example.com/":"id-3"}}'
    )
  })

  it('is byte for byte the JSON of the object it replaced: indices first, a repeated key in its first place', () => {
    fc.assert(
      fc.property(idCases, ([results, perService, size]) => {
        expect(idsJson(results, perService, size)).toBe(
          JSON.stringify(idsObject(results, perService))
        )
      })
    )
  })

  it("walks plainly unless the ids need an object's order, and then gives the same text, however the calls split the results", async () => {
    await fc.assert(
      fc.asyncProperty(
        idCases,
        fc.integer({ min: 1, max: 5 }),
        async ([results, perService, size], perCall) => {
          const plain = await plainIds(results, perService, size, perCall)
          expect(plain === undefined).toBe(needsObjectOrder(results, perService))
          if (plain !== undefined) expect(plain).toBe(idsJson(results, perService))
        }
      )
    )
  })

  it('needs no set of the targets to give the same text when no target repeats in an object', async () => {
    await fc.assert(
      fc.asyncProperty(idCases, async ([results, perService, size]) => {
        const once = eachTargetOnce(results, perService)
        const plain = await plainIds(once, perService, size, once.length, false)
        expect(plain === undefined).toBe(needsObjectOrder(once, perService))
        if (plain !== undefined) expect(plain).toBe(idsJson(once, perService))
      })
    )
  })

  it('leaves to the careful walk a repeated target, an array index, and a service seen again', async () => {
    const cases: [PurgeResult[], boolean][] = [
      [[result({ target: 'a' }), result({ type: 'url', target: 'a', service: null })], false],
      [[result({ target: 'b' }), result({ target: '42' })], false],
      [
        [
          result({ service: 's1' }),
          result({ service: 's2' }),
          result({ service: 's1', target: 'k2' })
        ],
        true
      ],
      [[result({ service: '7' })], true]
    ]
    for (const [results, perService] of cases) {
      expect(await plainIds(results, perService, 1)).toBeUndefined()
    }
    const usual = [result({ target: 'a' }), result({ target: '042', id: 'id-2' })]
    expect(await plainIds(usual, true, 1)).toBe('{"svc123":{"a":"id-1","042":"id-2"}}')
    const inTwoServices = [result({ service: 's1' }), result({ service: 's2', id: 'id-2' })]
    expect(await plainIds(inTwoServices, true, 1)).toBe('{"s1":{"k1":"id-1"},"s2":{"k1":"id-2"}}')
  })

  it('keeps a target given twice in its first place, with its last id', () => {
    const results = [
      result({ target: 'a', id: 'id-1' }),
      result({ target: 'b', id: 'id-2' }),
      result({ type: 'url', target: 'a', service: null, id: 'id-3' })
    ]
    expect(idsJson(results, false)).toBe('{"a":"id-3","b":"id-2"}')
  })

  it('passes every string through the redactor it is given', () => {
    const results = [result({ service: 'svc-x', target: 'key-x', id: 'id-x' })]
    const hidden = [...purgeIdsJson(results, true, (text) => text.replace('x', '*'), 1)].join('')
    expect(hidden).toBe('{"svc-*":{"key-*":"id-*"}}')
  })
})

describe('targetMayRepeat', () => {
  const urls = parseUrls(['https://www.example.com/a', 'urls'])
  const likeTheUrl = 'https://www.example.com/a'
  it.each([
    ['settings that do not say each target is listed once', { keys: ['a'], urls }, false, true],
    [
      'keys and URLs listed once, none alike',
      { eachTargetOnce: true, keys: ['a'], urls },
      false,
      false
    ],
    [
      'a key spelled like a URL, in one object',
      { eachTargetOnce: true, keys: [likeTheUrl], urls },
      false,
      true
    ],
    [
      'a key spelled like a URL, grouped by service',
      { eachTargetOnce: true, keys: [likeTheUrl], urls },
      true,
      false
    ],
    [
      "a key spelled like a URL, in a service named like the URLs' group",
      {
        eachTargetOnce: true,
        services: [
          { id: 'urls', baseUrl: TEST_BASE },
          { id: 'svc2', baseUrl: TEST_BASE }
        ],
        keys: [likeTheUrl],
        urls
      },
      true,
      true
    ]
  ])('%s', (_, overrides: Partial<Settings>, perService, repeats) => {
    expect(targetMayRepeat(settingsWith(overrides), perService)).toBe(repeats)
  })
})

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
    hideSecrets([])
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
      result({ target: 'a', id: 'id-a' }),
      result({ target: 'b', status: 'failed', id: null, http_status: 500, error: 'HTTP 500' })
    ]
    const file = await writeOutputs(runRecord({ results }), runnerOutputs)
    expect(outputs()).toEqual({
      base: '',
      'base-source': '',
      'purge-ids': '{"a":"id-a"}',
      'purge-id': 'id-a',
      results: JSON.stringify(results),
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
    expect(readFileSync(file, 'utf8')).toBe(JSON.stringify(results))
  })

  it('counts unreachable pages apart, and still counts them in stale-count, which workflows gate on', async () => {
    const entry = (url: string, fields: Partial<Verification>): Verification => ({
      url,
      fresh: false,
      http_status: 200,
      age: 3600,
      checks: 2,
      evidence: 'Age 3600 s',
      ...fields
    })
    const entries = [
      entry('https://www.example.com/fresh', { fresh: true, age: 0 }),
      entry('https://www.example.com/stale', {}),
      entry('https://www.exmaple.com/', { http_status: null, age: null, evidence: 'no answer' }),
      entry('https://www.example.com/late', { http_status: null, age: null, checks: 0 })
    ]
    const verification = { entries, cancelled: false, malformedAge: [] }
    await writeOutputs(runRecord({ results: [result({})], verification }), runnerOutputs)
    expect(outputs()).toMatchObject({
      'fresh-count': '1',
      'stale-count': '3',
      'unreachable-count': '1'
    })
  })

  it('hides the token in every output and the results file, and the JSON stays valid', async () => {
    // A quote and a backslash: JSON escapes them, so only hiding before escaping can find them.
    const token = 'tok"9fQ2/xL7\\vR4m+Zq'
    const results = [
      result({ target: `key-${token}`, id: 'id-a' }),
      result({
        target: 'b',
        status: 'failed',
        id: null,
        error: `server said: ${token} / ${encodeURIComponent(token)}`
      }),
      result({ target: 'c', id: Buffer.from(`user:${token}`).toString('base64') })
    ]
    hideSecrets([token])
    const file = await writeOutputs(runRecord({ results }), runnerOutputs)
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
        ? result({ target: 'x', status: 'failed', id: null, error: `echoed ${token}` })
        : result({ target: `key-${index}`, id: `id-${index}` })
    )
    hideSecrets([token])
    const file = await writeOutputs(runRecord({ results }), runnerOutputs)
    const hidden = JSON.stringify(results, (_key, value: unknown) =>
      typeof value === 'string' ? value.replaceAll(token, '***') : value
    )
    expect(readFileSync(file, 'utf8')).toBe(hidden)
    expect(outputs().results).toBe(hidden)
  })

  it('writes a results file of many writes and characters of every width byte for byte', async () => {
    const results = Array.from({ length: 4000 }, (_, index) =>
      result({ target: `é-${index}-日本-😀`, id: `id-${index}` })
    )
    const file = await writeOutputs(runRecord({ results }), runnerOutputs)
    expect(readFileSync(file).length).toBeGreaterThan(512 * 1024)
    expect(readFileSync(file, 'utf8')).toBe(JSON.stringify(results))
    expect(JSON.parse(outputs()['purge-ids'] ?? '')).toEqual(
      Object.fromEntries(results.map(({ target, id }) => [target, id]))
    )
  })

  it('keeps an output of exactly 1,000,000 bytes, and leaves one a byte longer empty', async () => {
    const sized = (bytes: number): PurgeResult[] => {
      const base = Buffer.byteLength(JSON.stringify([result({ target: '', id: null })]))
      // `é` is 2 bytes in UTF-8 and 1 character: the bytes, not the characters, are counted.
      const pad = bytes - base
      return [result({ target: 'é'.repeat(Math.floor(pad / 2)) + 'x'.repeat(pad % 2), id: null })]
    }
    const exact = sized(1_000_000)
    expect(Buffer.byteLength(JSON.stringify(exact))).toBe(1_000_000)
    await writeOutputs(runRecord({ results: exact }), runnerOutputs)
    expect(outputs().results).toBe(JSON.stringify(exact))

    writeFileSync(outputFile, '')
    const over = sized(1_000_001)
    await writeOutputs(runRecord({ results: over }), runnerOutputs)
    expect(outputs().results).toBe('')
    expect(printed.join('')).toContain('at 1000001 bytes it exceeds')
  })

  it('hides the token in purge-id', async () => {
    const token = 'tok-9fQ2xL7vR4m'
    const results = [result({ id: `id-${token}` })]
    hideSecrets([token])
    await writeOutputs(runRecord({ results }), runnerOutputs)
    expect(outputs()['purge-id']).toBe('id-***')
  })

  it('never lets a reader see half a results file', async () => {
    const results = Array.from({ length: 100_000 }, (_, index) =>
      result({ target: `key-${index}`, id: `id-${index}` })
    )
    let finished = false
    const writing = writeOutputs(runRecord({ results }), runnerOutputs).finally(() => {
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
    expect(printed.join('')).toContain(
      `::notice::Output results is left empty: at 14577781 bytes it exceeds GitHub's 1 MB output limit. The results-file output (${file}) holds every entry.`
    )
  })

  it('writes the same outputs and file from results handed out a call at a time', async () => {
    const results = Array.from({ length: 600 }, (_, index) =>
      result({ target: `key-${index}`, id: `id-${index}` })
    )
    const record = runRecord({ results })
    const atTheEnd = await writeOutputs(record, runnerOutputs)
    const expected = outputs()
    writeFileSync(outputFile, '')
    async function* calls(): AsyncGenerator<PurgeResult[]> {
      for (let at = 0; at < results.length; at += 256) {
        await new Promise((resolve) => setImmediate(resolve))
        yield results.slice(at, at + 256)
      }
    }
    const views = new ResultViews(runnerOutputs)
    views.start({ [Symbol.asyncIterator]: calls }, record.settings)
    const handedOut = await writeOutputs(record, runnerOutputs, views)
    expect(outputs()).toEqual({ ...expected, 'results-file': handedOut })
    expect(readFileSync(handedOut, 'utf8')).toBe(readFileSync(atTheEnd, 'utf8'))
  })

  it('reports a reading of the handed-out results that broke once the outputs are written, and only then', async () => {
    const broken = {
      async *[Symbol.asyncIterator](): AsyncGenerator<PurgeResult[]> {
        yield [result({})]
        throw new Error('the reading broke')
      }
    }
    const unhandled: unknown[] = []
    const note = (reason: unknown): void => {
      unhandled.push(reason)
    }
    process.on('unhandledRejection', note)
    try {
      const record = runRecord({ results: [result({})] })
      const views = new ResultViews(runnerOutputs)
      views.start(broken, record.settings)
      await new Promise((resolve) => setTimeout(resolve, 20))
      expect(unhandled).toEqual([])
      await expect(writeOutputs(record, runnerOutputs, views)).rejects.toThrow('the reading broke')
    } finally {
      process.off('unhandledRejection', note)
    }
  })

  it('sets every output when the results file cannot be written, with a warning naming it', async () => {
    process.env.RUNNER_TEMP = join(dir, 'removed')
    const results = [result({ target: 'a', id: 'id-a' })]
    expect(await writeOutputs(runRecord({ results }), runnerOutputs)).toBe('')
    expect(outputs()).toEqual({
      base: '',
      'base-source': '',
      'purge-ids': '{"a":"id-a"}',
      'purge-id': 'id-a',
      results: JSON.stringify(results),
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
