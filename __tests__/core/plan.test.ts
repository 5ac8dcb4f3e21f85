/** Unit and property tests of planning: which calls are sent for which settings. */
import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { parseSettings, type RawInputs } from '../../src/config/parse-settings.js'
import { planPurges } from '../../src/core/plan.js'
import { InputError } from '../../src/config/input-error.js'
import { parseKeys, parseUrls } from '../../src/config/lists.js'
import {
  DEFAULT_INPUTS,
  settingsWith,
  TEST_BASE as BASE,
  TEST_SERVICE as SERVICE
} from '../../tools/defaults.js'
import type { BatchFormat, Settings } from '../../src/config/settings.js'
import type { PurgeCall } from '../../src/record/index.js'
import { NO_SECRETS } from '../support/guard.js'

const TOKEN = 'tok-plan-9d3f1b'

const DEFAULTS: RawInputs = {
  ...DEFAULT_INPUTS,
  'api-token': TOKEN,
  'base-url': BASE,
  'service-id': SERVICE
}

/** The plan for these inputs, validated as the action validates them. */
function planFor(overrides: Partial<RawInputs>): PurgeCall[] {
  return planPurges(
    parseSettings(
      { ...DEFAULTS, ...overrides },
      {
        readFile: () => {
          throw new Error('no files in these tests')
        },
        guard: NO_SECRETS,
        parts: []
      }
    )
  )
}

/** Settings for a key purge, built directly so keys holding commas can be planned too. */
function keySettings(
  keys: string[],
  options: { batchSize?: number; batchFormat?: BatchFormat; soft?: boolean } = {}
): Settings {
  return settingsWith({
    keys,
    soft: options.soft ?? false,
    batchFormat: options.batchFormat ?? 'json',
    batchSize: options.batchSize ?? 256
  })
}

function only<T>(items: T[]): T {
  expect(items).toHaveLength(1)
  return items[0] as T
}

/** The keys a batch call carries, read back from what is sent (body or header). */
function batchKeysSent(call: PurgeCall): string[] {
  if (call.body !== undefined) {
    const body = JSON.parse(call.body) as { surrogate_keys: string[] }
    return body.surrogate_keys
  }
  return (call.headers['Surrogate-Key'] ?? '').split(' ')
}

function hasSoftHeader(call: PurgeCall): boolean {
  return Object.keys(call.headers).some((name) => name.toLowerCase() === 'edge-soft-purge')
}

const keyList = (count: number, prefix = 'key'): string[] =>
  Array.from({ length: count }, (_, index) => `${prefix}-${index}`)

describe('purge-all', () => {
  it('is one POST to {base}/service/{id}/purge_all, authenticated, asking for JSON', () => {
    const call = only(planFor({ mode: 'all' }))
    expect(call).toMatchObject({
      operation: 'purge-all',
      method: 'POST',
      url: `${BASE}/service/${SERVICE}/purge_all`,
      headers: { Accept: 'application/json' },
      body: undefined,
      authenticated: true,
      soft: false,
      targetType: 'all',
      targets: [SERVICE]
    })
    expect(hasSoftHeader(call)).toBe(false)
  })

  it('appends to a base-url that has a path, without doubling slashes', () => {
    const call = only(planFor({ mode: 'all', 'base-url': `${BASE}/v1/` }))
    expect(call.url).toBe(`${BASE}/v1/service/${SERVICE}/purge_all`)
  })

  it('encodes a service id as one path segment', () => {
    const call = only(planFor({ mode: 'all', 'service-id': 'team/a?b' }))
    expect(call.url).toBe(`${BASE}/service/team%2Fa%3Fb/purge_all`)
    expect(new URL(call.url).pathname.split('/')).toHaveLength(4)
  })
})

describe('one hard key', () => {
  it('is a POST to .../purge/{key} with no body and no soft header', () => {
    const call = only(planFor({ keys: 'home' }))
    expect(call).toMatchObject({
      operation: 'key',
      method: 'POST',
      url: `${BASE}/service/${SERVICE}/purge/home`,
      headers: { Accept: 'application/json' },
      body: undefined,
      authenticated: true,
      soft: false,
      targetType: 'key',
      targets: ['home']
    })
    expect(Object.keys(call.headers)).toEqual(['Accept'])
  })

  it.each([
    ['a/b', 'a%2Fb'],
    ['q?x=1', 'q%3Fx%3D1'],
    ['frag#1', 'frag%231'],
    ['100%', '100%25'],
    ['%2F', '%252F'],
    ['...', '...']
  ])('sends the key %j encoded as one path segment', (key, segment) => {
    const call = only(planFor({ keys: key }))
    expect(call.operation).toBe('key')
    expect(call.url).toBe(`${BASE}/service/${SERVICE}/purge/${segment}`)
    const url = new URL(call.url)
    expect(url.search).toBe('')
    expect(url.hash).toBe('')
    expect(url.pathname).toBe(`/service/${SERVICE}/purge/${segment}`)
  })

  it.each(['.', '..'])('sends the key %j as a batch, since a path would drop it', (key) => {
    const call = only(planFor({ keys: key }))
    expect(call.operation).toBe('batch')
    expect(call.url).toBe(`${BASE}/service/${SERVICE}/purge`)
    expect(batchKeysSent(call)).toEqual([key])
  })

  it.each(['.', '..'])('sends the key %j as a header batch in header form', (key) => {
    const call = only(planFor({ keys: key, 'batch-format': 'header' }))
    expect(call.headers['Surrogate-Key']).toBe(key)
    expect(call.body).toBeUndefined()
  })

  it('refuses a soft purge of "." before any request, rather than purging another path', () => {
    expect(() => planFor({ keys: '. other', soft: 'true' })).toThrow(InputError)
  })
})

describe('several hard keys', () => {
  it('json form: one POST to .../purge with a surrogate_keys body and Content-Type', () => {
    const call = only(planFor({ keys: 'a b c' }))
    expect(call).toMatchObject({
      operation: 'batch',
      method: 'POST',
      url: `${BASE}/service/${SERVICE}/purge`,
      headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
      authenticated: true,
      soft: false
    })
    expect(JSON.parse(call.body ?? '')).toEqual({ surrogate_keys: ['a', 'b', 'c'] })
    expect(call.headers['Surrogate-Key']).toBeUndefined()
    expect(call).toMatchObject({ targetType: 'key', targets: ['a', 'b', 'c'] })
  })

  it('header form: a space-separated Surrogate-Key header and no body', () => {
    const call = only(planFor({ keys: 'a,b\nc', 'batch-format': 'header' }))
    expect(call).toMatchObject({
      operation: 'batch',
      method: 'POST',
      url: `${BASE}/service/${SERVICE}/purge`,
      headers: { Accept: 'application/json', 'Surrogate-Key': 'a b c' },
      body: undefined,
      authenticated: true
    })
    expect(call.headers['Content-Type']).toBeUndefined()
  })

  it('json bodies carry keys that need escaping in JSON intact', () => {
    const keys = ['quote"d', 'back\\slash', 'a/b?c#d%']
    const call = only(planPurges(keySettings(keys)))
    expect(batchKeysSent(call)).toEqual(keys)
  })

  it.each(['json', 'header'] as const)(
    '600 keys at batch-size 256 go as 256, 256 and 88 keys, in order (%s form)',
    (format) => {
      const keys = keyList(600)
      const calls = planFor({ keys: keys.join(' '), 'batch-format': format })
      expect(calls.map((call) => batchKeysSent(call).length)).toEqual([256, 256, 88])
      expect(calls.flatMap(batchKeysSent)).toEqual(keys)
    }
  )

  it('respects a small batch-size', () => {
    const calls = planFor({ keys: 'a b c d e', 'batch-size': '2' })
    expect(calls.map(batchKeysSent)).toEqual([['a', 'b'], ['c', 'd'], ['e']])
  })

  it('batch-size 1 still sends batches, one key each', () => {
    const calls = planFor({ keys: 'a b c', 'batch-size': '1' })
    expect(calls.map((call) => call.operation)).toEqual(['batch', 'batch', 'batch'])
    expect(calls.map(batchKeysSent)).toEqual([['a'], ['b'], ['c']])
  })

  it('header form splits at 16 KiB of header as well as by count', () => {
    // 100 keys of 1000 bytes: 16 fit in 16 KiB with their separating spaces, 17 do not.
    const keys = keyList(100).map((key) => key.padEnd(1000, 'x'))
    const calls = planPurges(keySettings(keys, { batchFormat: 'header' }))
    expect(calls.map((call) => batchKeysSent(call).length)).toEqual([16, 16, 16, 16, 16, 16, 4])
    for (const call of calls) {
      expect(Buffer.byteLength(call.headers['Surrogate-Key'] ?? '')).toBeLessThanOrEqual(16384)
    }
    expect(calls.flatMap(batchKeysSent)).toEqual(keys)
  })

  it('header form fills a header to exactly 16384 bytes and splits one byte later', () => {
    // 29 keys of 564 bytes joined by 28 spaces are exactly 16384 bytes.
    const keys = keyList(29, 'k').map((key) => key.padEnd(564, 'y'))
    const exact = planPurges(keySettings(keys, { batchFormat: 'header' }))
    expect(Buffer.byteLength(only(exact).headers['Surrogate-Key'] ?? '')).toBe(16384)

    const over = planPurges(keySettings([...keys, 'z'], { batchFormat: 'header' }))
    expect(over.map(batchKeysSent)).toEqual([keys, ['z']])
  })

  it('json form is not split by size: the body has no 16 KiB limit', () => {
    const keys = keyList(100).map((key) => key.padEnd(1000, 'x'))
    const call = only(planPurges(keySettings(keys, { batchFormat: 'json' })))
    expect(batchKeysSent(call)).toEqual(keys)
  })
})

describe('soft keys', () => {
  it('are one POST per key to .../purge/{key} with Edge-Soft-Purge: 1, never a batch', () => {
    const calls = planFor({ keys: 'a b/c d', soft: 'true' })
    expect(calls).toHaveLength(3)
    expect(calls.map((call) => call.url)).toEqual([
      `${BASE}/service/${SERVICE}/purge/a`,
      `${BASE}/service/${SERVICE}/purge/b%2Fc`,
      `${BASE}/service/${SERVICE}/purge/d`
    ])
    for (const call of calls) {
      expect(call).toMatchObject({
        operation: 'soft-key',
        method: 'POST',
        headers: { Accept: 'application/json', 'Edge-Soft-Purge': '1' },
        body: undefined,
        authenticated: true,
        soft: true
      })
      expect(call.targets).toHaveLength(1)
    }
  })

  it('a single soft key is one call with the soft header', () => {
    const call = only(planFor({ keys: 'home', soft: 'true' }))
    expect(call.operation).toBe('soft-key')
    expect(call.headers['Edge-Soft-Purge']).toBe('1')
  })

  it('ignore batch-size and batch-format: soft batches do not exist', () => {
    const calls = planFor({
      keys: keyList(5).join(' '),
      soft: 'true',
      'batch-size': '2',
      'batch-format': 'header'
    })
    expect(calls).toHaveLength(5)
    expect(calls.every((call) => call.headers['Surrogate-Key'] === undefined)).toBe(true)
  })
})

describe('URLs', () => {
  it('are PURGE sent to the URL itself, path and query kept, without the token', () => {
    const call = only(planFor({ urls: 'https://www.example.com/img/a.png?v=2&w=100' }))
    expect(call).toMatchObject({
      operation: 'url',
      method: 'PURGE',
      url: 'https://www.example.com/img/a.png?v=2&w=100',
      body: undefined,
      authenticated: false,
      soft: false,
      service: undefined,
      targetType: 'url',
      targets: ['https://www.example.com/img/a.png?v=2&w=100']
    })
    expect(hasSoftHeader(call)).toBe(false)
  })

  it('do not send a fragment, which is no part of the cached address', () => {
    const call = only(planFor({ urls: 'https://www.example.com/page#section' }))
    expect(call.url).toBe('https://www.example.com/page')
    expect(call.targets).toEqual(['https://www.example.com/page#section'])
  })

  it('soft: carry Edge-Soft-Purge: 1', () => {
    const call = only(planFor({ urls: 'https://www.example.com/a', soft: 'true' }))
    expect(call.operation).toBe('soft-url')
    expect(call.method).toBe('PURGE')
    expect(call.headers['Edge-Soft-Purge']).toBe('1')
    expect(call.soft).toBe(true)
  })

  it('are authenticated only with url-purge-auth: true', () => {
    const urls = 'https://www.example.com/a https://cdn.example.net/b'
    expect(planFor({ urls }).map((call) => call.authenticated)).toEqual([false, false])
    expect(planFor({ urls, 'url-purge-auth': 'true' }).map((call) => call.authenticated)).toEqual([
      true,
      true
    ])
  })

  it('go one call per URL, in order, beside the key calls', () => {
    const calls = planFor({
      keys: 'a b',
      urls: 'https://www.example.com/1\nhttps://www.example.com/2'
    })
    expect(calls.map((call) => call.operation)).toEqual(['batch', 'url', 'url'])
    expect(calls.flatMap((call) => call.targets)).toEqual([
      'a',
      'b',
      'https://www.example.com/1',
      'https://www.example.com/2'
    ])
  })
})

describe('every plan', () => {
  const variants: [string, Partial<RawInputs>][] = [
    ['purge-all', { mode: 'all' }],
    ['one key', { keys: 'a' }],
    ['json batch', { keys: 'a b' }],
    ['header batch', { keys: 'a b', 'batch-format': 'header' }],
    ['soft keys', { keys: 'a b', soft: 'true' }],
    ['URLs', { urls: 'https://www.example.com/a' }],
    ['soft URLs', { urls: 'https://www.example.com/a', soft: 'true' }],
    ['authenticated URLs', { urls: 'https://www.example.com/a', 'url-purge-auth': 'true' }],
    ['keys and URLs', { keys: 'a b', urls: 'https://www.example.com/a', soft: 'true' }]
  ]

  it.each(variants)('%s: holds no token anywhere', (_name, inputs) => {
    const calls = planFor(inputs)
    expect(calls.length).toBeGreaterThan(0)
    expect(JSON.stringify(calls)).not.toContain(TOKEN)
  })

  it.each(variants)(
    '%s: management calls ask for JSON and carry the token; hard calls have no soft header',
    (_name, inputs) => {
      for (const call of planFor(inputs)) {
        expect(call.headers.Accept).toBe('application/json')
        if (call.url.startsWith(`${BASE}/`)) expect(call.authenticated).toBe(true)
        if (!call.soft) expect(hasSoftHeader(call)).toBe(false)
        else expect(call.headers['Edge-Soft-Purge']).toBe('1')
      }
    }
  )
})

// ---------------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------------

const PRINTABLE = Array.from({ length: 0x7e - 0x21 + 1 }, (_, i) => String.fromCharCode(0x21 + i))

/** A printable-ASCII character, optionally without the comma (which separates keys in inputs). */
const printableChar = (withComma: boolean): fc.Arbitrary<string> =>
  fc.constantFrom(...PRINTABLE.filter((char) => withComma || char !== ','))

/**
 * Valid keys: mostly short, some up to the 1024-byte limit, and the odd dot segment; never wrapped
 * in matching quotes, which parseKeys refuses.
 */
const validKey = (withComma: boolean): fc.Arbitrary<string> =>
  fc
    .oneof(
      {
        weight: 6,
        arbitrary: fc.string({ unit: printableChar(withComma), minLength: 1, maxLength: 12 })
      },
      {
        weight: 3,
        arbitrary: fc.string({
          unit: printableChar(withComma),
          minLength: 1,
          maxLength: 1024,
          size: 'max'
        })
      },
      {
        weight: 1,
        arbitrary: fc
          .tuple(
            fc.string({ unit: printableChar(withComma), minLength: 1, maxLength: 8 }),
            fc.integer({ min: 1000, max: 1024 })
          )
          .map(([head, length]) => head.padEnd(length, 'k'))
      },
      { weight: 1, arbitrary: fc.constantFrom('.', '..') }
    )
    .filter((key) => !/^(["']).*\1$/.test(key))

const separator = fc.constantFrom(' ', ',', '\n', '\t', ', ', '\r\n', ' ,\n\t')
const batchSize = fc.integer({ min: 1, max: 256 })
const batchFormat = fc.constantFrom<BatchFormat>('json', 'header')

/** Checks what a plan of hard key purges promises, for the distinct keys in request order. */
function checkHardKeyPlan(
  calls: PurgeCall[],
  distinct: string[],
  size: number,
  format: BatchFormat
): void {
  const sent = calls.flatMap((call) => call.targets)
  expect(sent).toEqual(distinct)
  for (const call of calls) {
    expect(call.soft).toBe(false)
    expect(hasSoftHeader(call)).toBe(false)
    if (call.operation === 'key') {
      expect(calls).toHaveLength(1)
      const [target] = call.targets
      const segments = new URL(call.url).pathname.split('/')
      expect(segments.slice(0, -1)).toEqual(['', 'service', SERVICE, 'purge'])
      expect(decodeURIComponent(segments.at(-1) ?? '')).toBe(target)
      continue
    }
    expect(call.operation).toBe('batch')
    expect(call.targets.length).toBeGreaterThanOrEqual(1)
    expect(call.targets.length).toBeLessThanOrEqual(size)
    expect(batchKeysSent(call)).toEqual(call.targets)
    if (format === 'header') {
      const header = call.headers['Surrogate-Key'] ?? ''
      expect(Buffer.byteLength(header)).toBeLessThanOrEqual(16384)
      expect(call.body).toBeUndefined()
    } else {
      expect(call.headers['Surrogate-Key']).toBeUndefined()
    }
  }
}

describe('properties', () => {
  it('any list of valid keys given as input text: each distinct key is purged exactly once, batches within count and header budget', () => {
    fc.assert(
      fc.property(
        fc
          .array(fc.tuple(validKey(false), separator), {
            minLength: 1,
            maxLength: 300,
            size: 'max'
          })
          // A value starting with [ or " may be JSON, read as lists.test.ts says; these are text.
          .filter((entries) => !/^["[]/.test(entries[0]?.[0] ?? '')),
        batchSize,
        batchFormat,
        (entries, size, format) => {
          const text = entries.map(([key, sep]) => `${key}${sep}`).join('')
          const distinct = [...new Set(entries.map(([key]) => key))]
          const calls = planFor({
            keys: text,
            'batch-size': String(size),
            'batch-format': format
          })
          checkHardKeyPlan(calls, distinct, size, format)
        }
      ),
      { numRuns: 150 }
    )
  })

  it('any set of valid keys, commas included: same promises when planned directly', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(validKey(true), { minLength: 1, maxLength: 300, size: 'max' }),
        batchSize,
        batchFormat,
        (keys, size, format) => {
          const calls = planPurges(keySettings(keys, { batchSize: size, batchFormat: format }))
          checkHardKeyPlan(calls, keys, size, format)
        }
      ),
      { numRuns: 150 }
    )
  })

  it('long keys near the limit: header batches are split by size and never exceed 16 KiB', () => {
    const longKey = fc
      .tuple(
        fc.string({ unit: printableChar(true), minLength: 1, maxLength: 1024, size: 'max' }),
        fc.integer({ min: 1, max: 1024 })
      )
      .map(([head, length]) => head.slice(0, length).padEnd(length, '~'))
    fc.assert(
      fc.property(
        fc.uniqueArray(longKey, { minLength: 1, maxLength: 200, size: 'max' }),
        batchSize,
        (keys, size) => {
          const calls = planPurges(keySettings(keys, { batchSize: size, batchFormat: 'header' }))
          checkHardKeyPlan(calls, keys, size, 'header')
        }
      ),
      { numRuns: 100 }
    )
  })

  it('soft keys: one soft call per distinct key, the key recoverable from the path', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(
          validKey(true).filter((key) => key !== '.' && key !== '..'),
          { minLength: 1, maxLength: 50 }
        ),
        (keys) => {
          const calls = planPurges(keySettings(keys, { soft: true }))
          expect(calls).toHaveLength(keys.length)
          calls.forEach((call, index) => {
            expect(call.operation).toBe('soft-key')
            expect(call.headers['Edge-Soft-Purge']).toBe('1')
            const segments = new URL(call.url).pathname.split('/')
            expect(segments).toHaveLength(5)
            expect(decodeURIComponent(segments[4] ?? '')).toBe(keys[index])
          })
        }
      ),
      { numRuns: 150 }
    )
  })

  /** Characters no key may hold: controls, DEL and anything beyond ASCII (separators aside). */
  const forbiddenChar = fc
    .oneof(
      fc.integer({ min: 0x00, max: 0x1f }),
      fc.constant(0x7f),
      fc.integer({ min: 0x80, max: 0xff }),
      fc.integer({ min: 0x100, max: 0x10ffff })
    )
    .filter((code) => code < 0xd800 || code > 0xdfff)
    .map((code) => String.fromCodePoint(code))
    // Whitespace separates keys (non-ASCII spaces are covered by the unit tests in lists.test.ts).
    .filter((char) => !/[\s,]/.test(char))

  const keyPart = fc.string({ unit: printableChar(false), maxLength: 20 })

  it('a key holding any forbidden character is refused by parseKeys, naming the input', () => {
    fc.assert(
      fc.property(
        fc.array(validKey(false), { maxLength: 5 }),
        keyPart,
        forbiddenChar,
        keyPart,
        fc.array(validKey(false), { maxLength: 5 }),
        (before, head, bad, tail, after) => {
          const text = [...before, `${head}${bad}${tail}`, ...after].join(' ')
          expect(() => parseKeys(NO_SECRETS, [text, 'keys'])).toThrow(InputError)
          expect(() => parseKeys(NO_SECRETS, [text, 'keys'])).toThrow(/^keys: /)
        }
      ),
      { numRuns: 200 }
    )
  })

  it('a key holding any forbidden character is never planned: the settings are refused', () => {
    fc.assert(
      fc.property(keyPart, forbiddenChar, keyPart, batchFormat, (head, bad, tail, format) => {
        const inputs = { keys: `good ${head}${bad}${tail}`, 'batch-format': format }
        expect(() => planFor(inputs)).toThrow(InputError)
      }),
      { numRuns: 100 }
    )
  })

  it('whatever the keys text, any key parseKeys returns is 1 to 1024 bytes of printable ASCII, not wrapped in quotes', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: 'binary', maxLength: 200, size: 'max' }),
          fc.string({
            unit: fc.constantFrom(
              'a',
              'Z',
              '/',
              ',',
              '"',
              "'",
              ' ',
              '\n',
              '\t',
              '\u00a0',
              'é',
              '\u0000'
            ),
            maxLength: 200
          }),
          fc.string({ unit: printableChar(true), minLength: 1000, maxLength: 1100 })
        ),
        (text) => {
          let keys: string[]
          try {
            keys = parseKeys(NO_SECRETS, [text, 'keys'])
          } catch (error) {
            expect(error).toBeInstanceOf(InputError)
            return
          }
          expect(new Set(keys).size).toBe(keys.length)
          for (const key of keys) {
            expect(key).toMatch(/^[\x21-\x7e]+$/)
            expect(key).not.toMatch(/^(["']).*\1$/)
            expect(Buffer.byteLength(key)).toBeLessThanOrEqual(1024)
          }
        }
      ),
      { numRuns: 200 }
    )
  })

  it('any list of URLs: each distinct URL is purged once, with PURGE, at its own address', () => {
    const url = fc.webUrl({ withQueryParameters: true, withFragments: true })
    fc.assert(
      fc.property(fc.array(url, { minLength: 1, maxLength: 20 }), fc.boolean(), (list, soft) => {
        const settings = {
          ...keySettings([]),
          service: undefined,
          urls: parseUrls(NO_SECRETS, [list.join('\n'), 'urls']),
          soft
        }
        const calls = planPurges(settings)
        expect(calls.map((call) => call.targets[0])).toEqual(
          settings.urls.map((entry) => entry.target)
        )
        for (const call of calls) {
          const target = new URL(call.targets[0] ?? '')
          const sent = new URL(call.url)
          expect(call.method).toBe('PURGE')
          expect(call.authenticated).toBe(false)
          expect(sent.origin).toBe(target.origin)
          expect(sent.pathname).toBe(target.pathname)
          expect(sent.search).toBe(target.search)
          expect(hasSoftHeader(call)).toBe(soft)
        }
      }),
      { numRuns: 100 }
    )
  })
})
