/** Unit tests of what an exchange means for its call: ids, or a failure a user can act on. */
import { describe, expect, it } from '@jest/globals'
import type { IncomingHttpHeaders } from 'node:http'
import type { Answer } from '../../src/http/agents.js'
import type { Blocked } from '../../src/http/blocked.js'
import { planPurges } from '../../src/core/plan.js'
import { interpret, type Verdict } from '../../src/core/response.js'
import { parseUrls } from '../../src/config/lists.js'
import { settingsWith, TEST_BASE, TEST_SERVICE as SERVICE } from '../../tools/defaults.js'
import type { Settings } from '../../src/config/settings.js'
import type { PurgeCall } from '../../src/record/index.js'
import { reasonOf } from '../../src/record/failure.js'
import { NO_SECRETS } from '../support/guard.js'

const NOW = Date.UTC(2025, 5, 1, 12, 0, 0)
const ID = '1740093-1756794994-11993984'
const PAGE = 'https://www.example.com/a.png?v=2'

function settings(overrides: Partial<Settings>): Settings {
  return settingsWith(overrides)
}

/** The one call the action plans for these settings. */
function planned(overrides: Partial<Settings>): PurgeCall {
  const calls = planPurges(settings(overrides))
  expect(calls).toHaveLength(1)
  return calls[0] as PurgeCall
}

const calls: Record<PurgeCall['operation'], () => PurgeCall> = {
  'purge-all': () => planned({ purgeAll: true }),
  key: () => planned({ keys: ['home'] }),
  'soft-key': () => planned({ keys: ['home'], soft: true }),
  batch: () => planned({ keys: ['a', 'b', 'c'] }),
  url: () => planned({ services: [], urls: parseUrls(NO_SECRETS, [PAGE, 'urls']) }),
  'soft-url': () =>
    planned({ services: [], urls: parseUrls(NO_SECRETS, [PAGE, 'urls']), soft: true })
}

function response(status: number, body: unknown, headers: IncomingHttpHeaders = {}): Answer {
  return {
    kind: 'response',
    status,
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
    truncated: false
  }
}

/** A failed verdict, with the reason its failure gives the results' `error`. */
type Failed = Extract<Verdict, { ok: false }> & { message: string }
type Success = Extract<Verdict, { ok: true }>

function failed(verdict: Verdict): Failed {
  if (verdict.ok) throw new Error(`expected a failure, got success with ${verdict.httpStatus}`)
  return { ...verdict, message: reasonOf(verdict.failure) }
}

function succeeded(verdict: Verdict): Success {
  if (!verdict.ok) throw new Error(`expected a success, got: ${reasonOf(verdict.failure)}`)
  return verdict
}

describe('success', () => {
  it.each(['key', 'soft-key'] as const)('%s: {"status":"ok","id"} gives the key its id', (op) => {
    const verdict = succeeded(
      interpret(calls[op](), response(200, { status: 'ok', id: ID }), NOW, NO_SECRETS)
    )
    expect(verdict.httpStatus).toBe(200)
    expect([...verdict.ids]).toEqual([['home', ID]])
  })

  it.each(['url', 'soft-url'] as const)('%s: {"status":"ok","id"} gives the URL its id', (op) => {
    const verdict = succeeded(
      interpret(calls[op](), response(200, { status: 'ok', id: ID }), NOW, NO_SECRETS)
    )
    expect([...verdict.ids]).toEqual([[PAGE, ID]])
  })

  it('purge-all: {"status":"ok"} succeeds without an id', () => {
    const verdict = succeeded(
      interpret(calls['purge-all'](), response(200, { status: 'ok' }), NOW, NO_SECRETS)
    )
    expect(verdict.ids.size).toBe(0)
  })

  it('batch: one property per key gives each key its id', () => {
    const body = { a: '1-2-3', b: '1-2-4', c: '1-2-5-1' }
    const verdict = succeeded(interpret(calls.batch(), response(200, body), NOW, NO_SECRETS))
    expect(Object.fromEntries(verdict.ids)).toEqual(body)
  })

  it('batch: an answer in another order gives each key its own id', () => {
    const call = planned({ keys: ['b', '7', 'a'] })
    const body = { a: '1-1-1', 7: '1-1-2', b: 5 }
    const verdict = succeeded(interpret(call, response(200, body), NOW, NO_SECRETS))
    expect(Object.fromEntries(verdict.ids)).toEqual({ a: '1-1-1', 7: '1-1-2' })
    expect([...verdict.unusable.keys()]).toEqual(['b'])
  })

  it('accepts ids of any shape: they are opaque', () => {
    for (const id of ['4151-1635861748-11038', '1740093-1756794994-11993990-1', 'abc']) {
      const verdict = succeeded(
        interpret(calls.key(), response(200, { status: 'ok', id }), NOW, NO_SECRETS)
      )
      expect(verdict.ids.get('home')).toBe(id)
    }
  })

  it('ignores unexpected extra properties', () => {
    const single = { status: 'ok', id: ID, service_id: SERVICE, extra: { nested: true } }
    expect(
      succeeded(interpret(calls.key(), response(200, single), NOW, NO_SECRETS)).ids.get('home')
    ).toBe(ID)

    const all = { status: 'ok', took_ms: 12 }
    expect(succeeded(interpret(calls['purge-all'](), response(200, all), NOW, NO_SECRETS)).ok).toBe(
      true
    )

    const batch = { a: '1-1-1', b: '1-1-2', c: '1-1-3', unrelated: '9-9-9', status: 'ok' }
    const ids = succeeded(interpret(calls.batch(), response(200, batch), NOW, NO_SECRETS)).ids
    expect([...ids.keys()]).toEqual(['a', 'b', 'c'])
  })

  it('parses the body as JSON even without a Content-Type, as some servers send it', () => {
    const exchange = response(200, { status: 'ok', id: ID }, {})
    expect(succeeded(interpret(calls.key(), exchange, NOW, NO_SECRETS)).ids.get('home')).toBe(ID)
  })
})

describe('a batch answer missing a key', () => {
  it('confirms only the keys present, giving the missing key neither an id nor a reason', () => {
    const call = calls.batch()
    const verdict = succeeded(
      interpret(call, response(200, { a: '1-2-3', c: '1-2-5' }), NOW, NO_SECRETS)
    )
    expect([...verdict.ids]).toEqual([
      ['a', '1-2-3'],
      ['c', '1-2-5']
    ])
    expect([...verdict.unusable]).toEqual([])
  })

  it('does not take empty or non-string values for ids', () => {
    const verdict = succeeded(
      interpret(calls.batch(), response(200, { a: '', b: 123, c: null }), NOW, NO_SECRETS)
    )
    expect(verdict.ids.size).toBe(0)
  })

  it('does not take inherited object properties for ids of keys named like them', () => {
    const call = planned({ keys: ['constructor', 'toString', '__proto__', 'hasOwnProperty'] })
    const verdict = succeeded(interpret(call, response(200, {}), NOW, NO_SECRETS))
    expect(verdict.ids.size).toBe(0)

    const confirmed = succeeded(
      interpret(call, response(200, '{"constructor":"1-1-1","__proto__":"1-1-2"}'), NOW, NO_SECRETS)
    )
    expect([...confirmed.ids]).toEqual([
      ['constructor', '1-1-1'],
      ['__proto__', '1-1-2']
    ])
  })
})

describe('a 200 without the promised JSON', () => {
  it.each(Object.keys(calls) as PurgeCall['operation'][])(
    '%s: a non-JSON body is a retryable failure quoting the body’s start',
    (op) => {
      const start = 'Maintenance in progress, back soon'
      const body = `${start}${'x'.repeat(2000)}`
      const verdict = failed(interpret(calls[op](), response(200, body), NOW, NO_SECRETS))
      expect(verdict.retryable).toBe(true)
      expect(verdict.httpStatus).toBe(200)
      expect(verdict.message).toContain(start)
      expect(verdict.message).not.toContain('x'.repeat(500))
      expect(verdict.stop).toBeUndefined()
    }
  )

  it('an empty body is a retryable failure that says so', () => {
    const verdict = failed(interpret(calls.key(), response(200, ''), NOW, NO_SECRETS))
    expect(verdict.retryable).toBe(true)
    expect(verdict.message).toContain('empty body')
  })

  it.each([
    ['a key answer without id', 'key', { status: 'ok' }],
    ['a key answer with another status', 'key', { status: 'error', id: ID }],
    ['a purge-all answer without status ok', 'purge-all', { status: 'queued' }],
    ['a URL answer that is an array', 'url', [{ status: 'ok', id: ID }]],
    ['a batch answer that is an array', 'batch', ['1-2-3', '1-2-4', '1-2-5']]
  ] as const)('%s is a retryable failure', (_what, op, body) => {
    const verdict = failed(interpret(calls[op](), response(200, body), NOW, NO_SECRETS))
    expect(verdict.retryable).toBe(true)
    expect(verdict.message).toContain('200')
  })
})

describe('purge ids', () => {
  const HOSTILE_IDS = [
    ['empty', ''],
    ['with a line break', '1-2-3\n::error::forged'],
    ['with a space', '1-2 3'],
    ['129 characters', '9'.repeat(129)],
    ['3 MB', 'x'.repeat(3_000_000)],
    ['non-ASCII', '1-2-3\u202e'],
    ['a number', 12345],
    ['an object', { id: ID }]
  ] as const

  it.each(HOSTILE_IDS)('an id %s fails its target, not the call, without retrying', (_what, id) => {
    const verdict = succeeded(
      interpret(calls.key(), response(200, { status: 'ok', id }), NOW, NO_SECRETS)
    )
    expect(verdict.ids.has('home')).toBe(false)
    const unusable = verdict.unusable.get('home')
    expect(unusable).toBeDefined()
    const reason = unusable === undefined ? undefined : reasonOf(unusable)
    expect(reason?.length).toBeLessThan(200)
    expect(reason).not.toMatch(/[\n\r\u202e]/)
  })

  it('accepts printable ASCII ids of up to 128 characters, four parts included', () => {
    for (const id of ['1-2-3-4', '7'.repeat(128), 'a~b!c']) {
      const verdict = succeeded(
        interpret(calls.url(), response(200, { status: 'ok', id }), NOW, NO_SECRETS)
      )
      expect(verdict.ids.get(PAGE)).toBe(id)
    }
  })

  it('fails only the batch key whose id is unusable', () => {
    const body = { a: '1-2-3', b: 'two\nlines', c: '1-2-5' }
    const verdict = succeeded(interpret(calls.batch(), response(200, body), NOW, NO_SECRETS))
    expect([...verdict.ids.keys()]).toEqual(['a', 'c'])
    expect([...verdict.unusable]).toEqual([
      ['b', { what: `the server's answer held no usable purge id (got "two lines")` }]
    ])
  })
})

describe('bounded answers', () => {
  it('a 200 whose body was cut off at 1 MiB fails without retrying', () => {
    const verdict = failed(
      interpret(
        calls.batch(),
        { kind: 'response', status: 200, headers: {}, body: '{"a":"1-', truncated: true },
        NOW,
        NO_SECRETS
      )
    )
    expect(verdict.retryable).toBe(false)
    expect(verdict.message).toContain('over 1 MiB, cut off there')
  })

  it('an error body nested 5,000 deep is read without a stack overflow', () => {
    const body = `${'{"errors":['.repeat(5000)}{"msg":"deepest"}${']}'.repeat(5000)}`
    const verdict = failed(interpret(calls.key(), response(400, body), NOW, NO_SECRETS))
    expect(verdict).toMatchObject({ httpStatus: 400, retryable: false })
  })
})

describe('refusals', () => {
  it('a redirect is a failure naming the Location, never followed or retried', () => {
    const location = 'https://other.example.net/service/svc123'
    const verdict = failed(interpret(calls.key(), response(301, '', { location }), NOW, NO_SECRETS))
    expect(verdict.retryable).toBe(false)
    expect(verdict.httpStatus).toBe(301)
    expect(verdict.failure).toEqual({
      what: `redirected (301) to ${location}`,
      detail:
        'purge calls do not follow redirects, so the token and the purge never go elsewhere; use the final address'
    })
  })

  it('a redirect does not echo credentials from the Location', () => {
    const exchange = response(307, '', { location: 'https://user:hunter2@other.example.net/x' })
    const verdict = failed(interpret(calls.batch(), exchange, NOW, NO_SECRETS))
    expect(verdict.httpStatus).toBe(307)
    expect(verdict.message).not.toContain('hunter2')
  })

  it('a redirect without a Location says so', () => {
    const verdict = failed(interpret(calls.url(), response(302, ''), NOW, NO_SECRETS))
    expect(verdict.failure.what).toBe('redirected (302) without a Location')
  })

  it('401 stops every call: the token was rejected, with the server’s words', () => {
    const body = { msg: 'Provided credentials are missing or invalid' }
    for (const op of ['purge-all', 'key', 'soft-key', 'batch'] as const) {
      const verdict = failed(interpret(calls[op](), response(401, body), NOW, NO_SECRETS))
      expect(verdict.stop).toBe('unauthorized')
      expect(verdict.retryable).toBe(false)
      expect(verdict.httpStatus).toBe(401)
      expect(
        verdict.message.startsWith(
          'the API token was rejected (401): check the secret behind api-token'
        )
      ).toBe(true)
      expect(verdict.failure.serverSaid).toBe(body.msg)
    }
  })

  it('401 on a URL purge sent without the token suggests url-purge-auth', () => {
    const verdict = failed(interpret(calls.url(), response(401, ''), NOW, NO_SECRETS))
    expect(verdict.failure).toEqual({
      what: 'www.example.com requires authentication for URL purges (401)',
      detail: 'set url-purge-auth: true to send api-token'
    })
  })

  it('403 on purge-all says Engineer permission is needed', () => {
    const verdict = failed(
      interpret(calls['purge-all'](), response(403, { msg: 'Forbidden' }), NOW, NO_SECRETS)
    )
    expect(verdict.stop).toBe('forbidden')
    expect(verdict.retryable).toBe(false)
    expect(
      verdict.message.startsWith(
        'purge-all was refused (403): the token needs Engineer permission or higher'
      )
    ).toBe(true)
    expect(verdict.failure.serverSaid).toBe('Forbidden')
  })

  it('403 on a soft purge says Billing permission is needed', () => {
    const verdict = failed(interpret(calls['soft-key'](), response(403, ''), NOW, NO_SECRETS))
    expect(verdict.stop).toBe('forbidden')
    expect(verdict.failure).toEqual({
      what: 'soft purge was refused (403)',
      detail: 'the token needs Billing permission or higher'
    })
  })

  it('403 on a key purge names the service', () => {
    const verdict = failed(interpret(calls.batch(), response(403, ''), NOW, NO_SECRETS))
    expect(verdict.message).toContain('403')
    expect(verdict.message).toContain(SERVICE)
  })

  it('403 on a URL purge names the host and URL purging', () => {
    const verdict = failed(interpret(calls.url(), response(403, ''), NOW, NO_SECRETS))
    expect(verdict.failure).toEqual({
      what: 'URL purge was refused (403) by www.example.com',
      detail:
        'URL purging may not be enabled there (it is off by default), or it needs url-purge-auth: true'
    })
  })

  it('404 on a management call names the service, then the server’s words', () => {
    const body = { msg: 'Record not found', detail: 'Cannot find service' }
    const verdict = failed(interpret(calls.batch(), response(404, body), NOW, NO_SECRETS))
    expect(verdict.retryable).toBe(false)
    expect(verdict.stop).toBeUndefined()
    expect(verdict.failure).toEqual({
      what: 'service svc123 not found (404)',
      serverSaid: 'Record not found: Cannot find service'
    })
  })

  it('404 from a base-url with a path names the path before the service', () => {
    const call = planned({
      keys: ['home'],
      services: [{ id: 'svc123', baseUrl: 'https://api.example-cdn.com/v1' }]
    })
    const verdict = failed(interpret(call, response(404, { msg: 'Not Found' }), NOW, NO_SECRETS))
    expect(verdict.message).toBe(
      "not found (404): base-url has the path /v1; the API's paths start at its root, so give base-url without it (else service svc123 does not exist) — server said: Not Found"
    )
  })

  it('a refused tunnel or an untrusted certificate is final, and stops its scope', () => {
    const proxy = {
      kind: 'proxy',
      proxy: 'proxy.corp:3128',
      target: 'api.example-cdn.com:443'
    } as const
    const blocked = (value: Blocked): Answer => ({ kind: 'blocked', blocked: value })
    const at407 = failed(
      interpret(calls.batch(), blocked({ ...proxy, status: 407 }), NOW, NO_SECRETS)
    )
    expect(at407).toMatchObject({ retryable: false, stop: 'proxy', httpStatus: null })
    const at403 = failed(
      interpret(calls.batch(), blocked({ ...proxy, status: 403 }), NOW, NO_SECRETS)
    )
    expect(at403).toMatchObject({ retryable: false, stop: 'host' })
    const certificate = blocked({
      kind: 'certificate',
      code: 'CERT_HAS_EXPIRED',
      host: 'www.example.com'
    })
    expect(failed(interpret(calls.url(), certificate, NOW, NO_SECRETS))).toMatchObject({
      retryable: false,
      stop: 'host'
    })
  })

  it('404 on a URL purge is not blamed on a service', () => {
    const verdict = failed(interpret(calls.url(), response(404, 'no such object'), NOW, NO_SECRETS))
    expect(verdict.message).not.toContain('service')
    expect(verdict.httpStatus).toBe(404)
    expect(verdict.failure.serverSaid).toBe('no such object')
  })

  it('400 is not retried and carries the server’s message', () => {
    const body = 'Batch surrogate key request only supports up to 256 surrogate keys'
    const verdict = failed(
      interpret(calls.batch(), response(400, body, { 'retry-after': '5' }), NOW, NO_SECRETS)
    )
    expect(verdict.retryable).toBe(false)
    expect(verdict.waitMs).toBeUndefined()
    expect(verdict.httpStatus).toBe(400)
    expect(verdict.failure.serverSaid).toBe(body)
  })

  it('429 is retried after the wait Retry-After asks for', () => {
    const msg = 'You have exceeded your hourly rate limit'
    const exchange = response(429, { msg }, { 'retry-after': '30' })
    const verdict = failed(interpret(calls['purge-all'](), exchange, NOW, NO_SECRETS))
    expect(verdict.retryable).toBe(true)
    expect(verdict.waitMs).toBe(30_000)
    expect(verdict.failure).toEqual({ what: 'rate limited (429)', serverSaid: msg })
  })

  it('429 is retried after the rate-limit reset time', () => {
    const reset = String((NOW + 75_000) / 1000)
    const exchange = response(429, '', { 'edge-ratelimit-reset': reset })
    const verdict = failed(interpret(calls.key(), exchange, NOW, NO_SECRETS))
    expect(verdict.retryable).toBe(true)
    expect(verdict.waitMs).toBe(75_000)
  })

  it.each([500, 502, 503, 504])('%i is retried', (status) => {
    const verdict = failed(
      interpret(calls.batch(), response(status, 'upstream trouble'), NOW, NO_SECRETS)
    )
    expect(verdict.retryable).toBe(true)
    expect(verdict.httpStatus).toBe(status)
    expect(verdict.failure.serverSaid).toBe('upstream trouble')
  })

  it('503 with Retry-After carries the wait', () => {
    const verdict = failed(
      interpret(calls.batch(), response(503, '', { 'retry-after': '4' }), NOW, NO_SECRETS)
    )
    expect(verdict.waitMs).toBe(4000)
  })
})

describe('no answer', () => {
  it('a timeout is a retryable failure without an HTTP status', () => {
    const exchange: Answer = { kind: 'timeout', message: 'no complete answer within 30 s' }
    const verdict = failed(interpret(calls.key(), exchange, NOW, NO_SECRETS))
    expect(verdict.retryable).toBe(true)
    expect(verdict.httpStatus).toBeNull()
    expect(verdict.message).toContain('timed out')
    expect(verdict.message).toContain('30 s')
  })

  it('a connection reset is retried and named', () => {
    const exchange: Answer = { kind: 'network', code: 'ECONNRESET', message: 'socket hang up' }
    const verdict = failed(interpret(calls.batch(), exchange, NOW, NO_SECRETS))
    expect(verdict.retryable).toBe(true)
    expect(verdict.httpStatus).toBeNull()
    expect(verdict.message).toContain('ECONNRESET')
    expect(verdict.failure.detail).toBe('socket hang up')
  })

  it('an unknown host is not retried', () => {
    const exchange: Answer = {
      kind: 'network',
      code: 'ENOTFOUND',
      message: 'getaddrinfo ENOTFOUND api.example-cdn.invalid'
    }
    const verdict = failed(interpret(calls.key(), exchange, NOW, NO_SECRETS))
    expect(verdict.retryable).toBe(false)
    expect(verdict.message).toContain('ENOTFOUND')
  })

  it('an error without a code is not retried', () => {
    const exchange: Answer = { kind: 'network', code: undefined, message: 'something broke' }
    const verdict = failed(interpret(calls.url(), exchange, NOW, NO_SECRETS))
    expect(verdict.retryable).toBe(false)
    expect(verdict.failure.detail).toBe('something broke')
  })
})

describe('base-url named when it is the cause', () => {
  const MANAGEMENT = ['purge-all', 'key', 'soft-key', 'batch'] as const
  const API_HOST = new URL(TEST_BASE).hostname
  const network = (code: string, message: string): Answer => ({ kind: 'network', code, message })
  const WEB_PAGE = `base-url ${TEST_BASE} answered with a web page, not the purge API: give the purge API's address`

  it.each([
    [
      'ENOTFOUND',
      false,
      `getaddrinfo ENOTFOUND ${API_HOST}`,
      `${API_HOST}, the host in base-url, was not found in DNS (ENOTFOUND): check base-url`
    ],
    [
      'EAI_AGAIN',
      true,
      `getaddrinfo EAI_AGAIN ${API_HOST}`,
      `${API_HOST}, the host in base-url, could not be looked up in DNS (EAI_AGAIN): check base-url`
    ],
    [
      'ECONNREFUSED',
      true,
      'connect ECONNREFUSED 203.0.113.7:443',
      `${API_HOST}, the host in base-url, refused the connection on port 443 (ECONNREFUSED): check base-url's host and port`
    ]
  ] as const)(
    '%s from the API host names base-url and the host; whether it is retried stays %s',
    (code, retryable, said, why) => {
      for (const op of MANAGEMENT) {
        const verdict = failed(interpret(calls[op](), network(code, said), NOW, NO_SECRETS))
        expect(verdict).toMatchObject({ retryable, httpStatus: null, stop: undefined })
        expect(verdict.message).toBe(why)
      }
    }
  )

  it('a refused connection names the port base-url gives, even when node said nothing', () => {
    const call = planned({
      services: [{ id: SERVICE, baseUrl: 'http://127.0.0.1:8787/api' }],
      keys: ['a', 'b']
    })
    // Node gives an AggregateError without a message when every address of a host refused.
    const verdict = failed(interpret(call, network('ECONNREFUSED', ''), NOW, NO_SECRETS))
    expect(verdict.message).toBe(
      "127.0.0.1, the host in base-url, refused the connection on port 8787 (ECONNREFUSED): check base-url's host and port"
    )
  })

  it('only a management call blames base-url, and only for DNS and refusals', () => {
    const unknown = network('ENOTFOUND', 'getaddrinfo ENOTFOUND www.example.com')
    expect(failed(interpret(calls.key(), unknown, NOW, NO_SECRETS)).failure.detail).toBe(
      'check base-url'
    )
    // URL purges go to the content's host, not to base-url: today's words.
    expect(failed(interpret(calls.url(), unknown, NOW, NO_SECRETS)).message).toBe(
      'connection failed (ENOTFOUND): getaddrinfo ENOTFOUND www.example.com'
    )
    const refused = network('ECONNREFUSED', 'connect ECONNREFUSED 198.51.100.1:443')
    expect(failed(interpret(calls['soft-url'](), refused, NOW, NO_SECRETS))).toMatchObject({
      retryable: true,
      message: 'connection failed (ECONNREFUSED): connect ECONNREFUSED 198.51.100.1:443'
    })
    // A reset says nothing of the address (through a proxy, any failure to connect is one).
    const reset = network('ECONNRESET', 'tunneling socket could not be established')
    expect(failed(interpret(calls.batch(), reset, NOW, NO_SECRETS)).message).toBe(
      'connection failed (ECONNRESET): tunneling socket could not be established'
    )
  })

  it.each(MANAGEMENT)('%s: a 200 web page names base-url and is not retried', (op) => {
    const page = '<!DOCTYPE html>\n<html><head><title>Example</title></head><body>Hi</body></html>'
    const exchange = response(200, page, { 'content-type': 'text/html; charset=utf-8' })
    expect(failed(interpret(calls[op](), exchange, NOW, NO_SECRETS))).toMatchObject({
      ok: false,
      retryable: false,
      httpStatus: 200,
      message: WEB_PAGE,
      waitMs: undefined,
      stop: undefined
    })
  })

  it.each([
    ['its Content-Type alone', 201, 'Welcome to Example', { 'content-type': ' Text/HTML ;x=1' }],
    ['its first character after white space', 200, '\ufeff\r\n  <html lang="en">', {}],
    [
      'its first character, whatever its Content-Type',
      204,
      '<h1>Hi',
      { 'content-type': 'application/json' }
    ]
  ] as const)('a 2xx is a web page by %s', (_by, status, body, headers) => {
    const verdict = failed(
      interpret(calls.batch(), response(status, body, headers), NOW, NO_SECRETS)
    )
    expect(verdict).toMatchObject({ retryable: false, httpStatus: status, message: WEB_PAGE })
  })

  it('a web page over 1 MiB is a web page, not an answer cut off', () => {
    const exchange: Answer = {
      kind: 'response',
      status: 200,
      headers: { 'content-type': 'text/html' },
      body: `<html>${'x'.repeat(100)}`,
      truncated: true
    }
    expect(failed(interpret(calls['purge-all'](), exchange, NOW, NO_SECRETS)).message).toBe(
      WEB_PAGE
    )
  })

  it('names only the origin of base-url: no path, no credentials', () => {
    const call = planned({
      services: [{ id: SERVICE, baseUrl: 'https://ops:hunter2@www.example.com:8443/cdn-api' }],
      keys: ['home']
    })
    const verdict = failed(interpret(call, response(200, '<html></html>'), NOW, NO_SECRETS))
    expect(verdict.message).toBe(
      "base-url https://www.example.com:8443 answered with a web page, not the purge API: give the purge API's address"
    )
  })

  it('only a page in place of a purge answer, from base-url, is blamed on base-url', () => {
    const page = response(200, '<html><body>Maintenance</body></html>', {
      'content-type': 'text/html'
    })
    expect(failed(interpret(calls.key(), page, NOW, NO_SECRETS)).message).toBe(WEB_PAGE)
    // A URL purge's page comes from the content's host: today's words, and retried.
    expect(failed(interpret(calls.url(), page, NOW, NO_SECRETS))).toMatchObject({
      retryable: true,
      message:
        '200 without the JSON the purge API promises ({"status":"ok","id":...}); got "<html><body>Maintenance</body></html>"'
    })
    // A purge answer labelled text/html is still the answer.
    const labelled = response(200, { status: 'ok', id: ID }, { 'content-type': 'text/html' })
    expect(succeeded(interpret(calls.key(), labelled, NOW, NO_SECRETS)).ids.get('home')).toBe(ID)
    // Other malformed answers from base-url keep their words and their retries.
    const queued = response(200, { status: 'queued' }, { 'content-type': 'application/json' })
    expect(failed(interpret(calls['purge-all'](), queued, NOW, NO_SECRETS))).toMatchObject({
      retryable: true,
      message:
        '200 without the JSON the purge API promises ({"status":"ok"}); got "{\\"status\\":\\"queued\\"}"'
    })
  })
})
