/** Unit tests of input validation: every refusal happens before any request, naming the input. */
import { describe, expect, it } from '@jest/globals'
import { unknownInputsNote, type UnknownInput } from '../src/config/input-names.js'
import { INPUT_PARTS } from '../src/capabilities/index.js'
import { parseSettings } from '../src/config/inputs.js'
import { DEFAULT_INPUTS } from '../tools/defaults.js'
import { API, files, noFiles, refusalOf, settingsOf, TOKEN } from './support/parsed-inputs.js'
import { NO_SECRETS } from './support/guard.js'

describe('the defaults', () => {
  it('give the documented settings', () => {
    const settings = settingsOf({ ...API, keys: 'a' })
    expect(settings).toMatchObject({
      services: [{ id: 'svc123', baseUrl: 'https://api.example-cdn.com' }],
      purgeAll: false,
      keys: ['a'],
      urls: [],
      soft: false,
      batchFormat: 'json',
      batchSize: 256,
      concurrency: 8,
      maxAttempts: 5,
      timeoutMs: 30_000,
      urlPurgeAuth: false,
      dryRun: false,
      summary: true,
      failOnError: true,
      repeatAfterMs: 0
    })
  })
})

describe('mode', () => {
  it('is inferred as a key purge from keys alone', () => {
    const settings = settingsOf({ ...API, keys: 'a b' })
    expect(settings.purgeAll).toBe(false)
    expect(settings.keys).toEqual(['a', 'b'])
    expect(settings.urls).toEqual([])
  })

  it('is inferred as a URL purge from URLs alone, which needs no service or token', () => {
    const settings = settingsOf({ urls: 'https://www.example.com/a' })
    expect(settings.purgeAll).toBe(false)
    expect(settings.services).toEqual([])
    expect(settings.urls.map((entry) => entry.target)).toEqual(['https://www.example.com/a'])
  })

  it('purges keys and URLs together when both are given and mode is empty', () => {
    const settings = settingsOf({ ...API, keys: 'a', urls: 'https://www.example.com/a' })
    expect(settings.keys).toEqual(['a'])
    expect(settings.urls).toHaveLength(1)
    expect(settings.services[0]?.id).toBe('svc123')
  })

  it('all purges the whole service', () => {
    const settings = settingsOf({ ...API, mode: 'all' })
    expect(settings.purgeAll).toBe(true)
    expect(settings.keys).toEqual([])
    expect(settings.urls).toEqual([])
    expect(settings.services[0]?.id).toBe('svc123')
  })

  it.each([
    ['keys', { keys: 'a' }],
    ['keys-file', { 'keys-file': 'keys.txt' }],
    ['urls', { urls: 'https://www.example.com/' }],
    ['urls-file', { 'urls-file': 'urls.txt' }]
  ])('all refuses %s beside it', (_what, extra) => {
    const reader = files({ 'keys.txt': 'k1', 'urls.txt': 'https://www.example.com/x' })
    const error = refusalOf({ ...API, mode: 'all', ...extra }, reader)
    expect(error.message).toContain('mode: all')
    expect(error.message).toMatch(/refuses keys or URLs/)
  })

  it('all refuses soft, saying the purge API has no soft purge-all', () => {
    const error = refusalOf({ ...API, mode: 'all', soft: 'true' })
    expect(error.message).toContain('soft')
    expect(error.message).toContain('mode: all')
    expect(error.message).toMatch(/no soft purge-all/)
  })

  it('keys refuses URLs beside it', () => {
    const error = refusalOf({ ...API, mode: 'keys', keys: 'a', urls: 'https://www.example.com/' })
    expect(error.message).toContain('mode: keys')
    expect(error.message).toMatch(/refuses URLs/)
  })

  it('keys refuses a url-map, whose derived URLs it would refuse', () => {
    const error = refusalOf({
      ...API,
      mode: 'keys',
      keys: 'a',
      'changed-files': 'true',
      'github-token': 'gh',
      'url-map': 'public/ => https://www.example.com/'
    })
    expect(error.message).toMatch(/^mode: keys refuses URLs; remove .*url-map/)
  })

  it('needs api-token for URLs a url-map derives when url-purge-auth is on', () => {
    const error = refusalOf({
      'changed-files': 'true',
      'github-token': 'gh',
      'url-purge-auth': 'true',
      'url-map': 'public/ => https://www.example.com/'
    })
    expect(error.message).toMatch(
      /^api-token is required to purge URLs with url-purge-auth: true\. It is empty: /
    )
  })

  it('changed-files needs a url-map or key-map', () => {
    const error = refusalOf({ ...API, 'changed-files': 'true', 'github-token': 'gh' })
    expect(error.message).toMatch(/^changed-files: true needs url-map .* or key-map/)
  })

  it('changed-files refuses mode: all', () => {
    const error = refusalOf({
      ...API,
      mode: 'all',
      'changed-files': 'true',
      'github-token': 'gh',
      'key-map': '** => all-pages'
    })
    expect(error.message).toMatch(
      /^changed-files: true derives keys and URLs, and mode: all refuses them/
    )
  })

  it('changed-since: last-purge reads purge marks with changed-files and starts them with mode: all', () => {
    const derived = settingsOf({
      ...API,
      'changed-files': 'true',
      'changed-since': 'last-purge',
      'github-token': 'gh',
      'key-map': '** => pages'
    })
    expect(derived.lastPurge).toEqual({ serviceIds: ['svc123'] })
    expect(derived.changedFiles?.changedSince).toBeUndefined()
    const everything = settingsOf({
      ...API,
      mode: 'all',
      'changed-since': 'last-purge',
      'github-token': 'gh'
    })
    expect(everything.lastPurge).toEqual({ serviceIds: ['svc123'] })
    expect(settingsOf({ ...API, keys: 'a', 'changed-since': 'main' }).lastPurge).toBe(undefined)
  })

  it('changed-since: last-purge is refused where nothing would read or start a purge mark', () => {
    const error = refusalOf({
      ...API,
      keys: 'a',
      'changed-since': 'last-purge',
      'github-token': 'gh'
    })
    expect(error.message).toMatch(
      /^changed-since: last-purge needs changed-files: true .* or mode: all .*; a branch or tag named last-purge cannot be named here/
    )
  })

  it('changed-since: last-purge needs a service-id to name the purge mark, even for URLs alone', () => {
    const error = refusalOf({
      'changed-files': 'true',
      'changed-since': 'last-purge',
      'github-token': 'gh',
      'url-map': 'public/ => https://www.example.com/'
    })
    expect(error.message).toMatch(/^changed-since: last-purge keeps one record per service/)
    const urlsOnly = settingsOf({
      'service-id': 'site',
      'changed-files': 'true',
      'changed-since': 'last-purge',
      'github-token': 'gh',
      'url-map': 'public/ => https://www.example.com/'
    })
    expect(urlsOnly.lastPurge?.serviceIds).toEqual(['site'])
    expect(urlsOnly.services).toEqual([])
  })

  it('urls refuses keys beside it', () => {
    const error = refusalOf({ ...API, mode: 'urls', keys: 'a', urls: 'https://www.example.com/' })
    expect(error.message).toContain('mode: urls')
    expect(error.message).toMatch(/refuses keys/)
  })

  it('keys and urls accept their own kind', () => {
    expect(settingsOf({ ...API, mode: 'keys', keys: 'a' }).keys).toEqual(['a'])
    expect(settingsOf({ mode: 'urls', urls: 'https://www.example.com/' }).urls).toHaveLength(1)
  })

  it.each([
    ['nothing at all', {}, 'keys, keys-file, urls or urls-file'],
    ['only separators in keys', { keys: ' , \n ' }, 'keys, keys-file, urls or urls-file'],
    ['mode keys without keys', { mode: 'keys' }, 'keys or keys-file'],
    ['mode urls without URLs', { mode: 'urls' }, 'urls or urls-file']
  ])('refuses %s: nothing to purge', (_what, extra, wanted) => {
    const error = refusalOf({ ...API, ...extra })
    expect(error.message).toMatch(/^Nothing to purge/)
    expect(error.message).toContain(wanted)
  })

  it('mentions mode: all when nothing is given and mode is empty', () => {
    expect(refusalOf({ ...API }).message).toContain('mode: all')
  })

  it('points "Nothing to purge" at the inputs the action ignored, which a typo may have meant', () => {
    const ignored: UnknownInput[] = [{ given: 'key', closest: 'keys' }]
    const parse = (keys: string) =>
      parseSettings(
        { ...DEFAULT_INPUTS, ...API, keys },
        { readFile: noFiles, guard: NO_SECRETS, parts: INPUT_PARTS },
        ignored
      )
    expect(() => parse('')).toThrow(/^Nothing to purge: /)
    expect(() => parse('')).toThrow(unknownInputsNote(ignored, NO_SECRETS))
    expect(parse('home').keys).toEqual(['home'])
  })
})

describe('api-token, base-url and service-id', () => {
  it.each([
    ['keys', { keys: 'a' }],
    ['all', { mode: 'all' }]
  ])(
    'api-token is required to purge %s, with the likely causes of it being empty',
    (_what, extra) => {
      const error = refusalOf({ ...API, 'api-token': '', ...extra })
      expect(error.message).toMatch(/^api-token is required to purge [^.]+\. It is empty: /)
      expect(error.message).toContain('not be set in this repository')
      expect(error.message).toContain('an environment the job does not name')
      expect(error.message).toContain('a pull request from a fork or by Dependabot')
    }
  )

  it('says why api-token may be empty in two sentences', () => {
    expect(refusalOf({ ...API, 'api-token': '', keys: 'a' }).message).toBe(
      'api-token is required to purge surrogate keys. It is empty: the secret behind it may not be set in this repository, or only in an environment the job does not name, or this run gets no Actions secrets (runs triggered by a pull request from a fork or by Dependabot do not)'
    )
  })

  it.each([
    ['keys', { keys: 'a' }],
    ['all', { mode: 'all' }]
  ])('api-token is not required for a dry run of %s', (_what, extra) => {
    const settings = settingsOf({ ...API, 'api-token': '', 'dry-run': 'true', ...extra })
    expect(settings.dryRun).toBe(true)
  })

  it('api-token is not required for URL purges without url-purge-auth', () => {
    expect(settingsOf({ urls: 'https://www.example.com/' }).urls).toHaveLength(1)
  })

  it('api-token is required for URL purges with url-purge-auth', () => {
    const error = refusalOf({ urls: 'https://www.example.com/', 'url-purge-auth': 'true' })
    expect(error.message).toMatch(
      /^api-token is required to purge URLs with url-purge-auth: true\. It is empty: /
    )
  })

  it.each([
    ['keys', { keys: 'a' }],
    ['all', { mode: 'all' }]
  ])(
    'service-id is required to purge %s, with the likely causes of it being empty',
    (_what, extra) => {
      const error = refusalOf({ ...API, 'service-id': '', ...extra })
      expect(error.message).toBe(
        'service-id is required to purge surrogate keys or a whole service. It is empty: the secret or variable behind it may not be set in this repository, or only in an environment the job does not name, or this run gets none (a run triggered by a pull request from a fork gets no Actions secrets or variables; one triggered by Dependabot gets variables but no Actions secrets)'
      )
    }
  )

  it.each([
    ['keys', { keys: 'a' }],
    ['all', { mode: 'all' }]
  ])('base-url is required to purge %s, with an example', (_what, extra) => {
    const error = refusalOf({ ...API, 'base-url': '', ...extra })
    expect(error.message).toMatch(/^base-url is required/)
    expect(error.message).toContain('https://')
  })

  it('refuses a service id that is not printable ASCII', () => {
    expect(refusalOf({ ...API, 'service-id': 'svc\u00e9', keys: 'a' }).message).toBe(
      'service-id: "svc\u00e9" is not a service id: give printable ASCII ids without spaces, separated by newlines or commas'
    )
  })

  it.each(['.', '..', 'svc1, ..'])(
    'refuses the service id path step in %j, which would send the calls elsewhere',
    (ids) => {
      const error = refusalOf({ ...API, 'service-id': ids, mode: 'all' })
      expect(error.message).toMatch(/^service-id: "\.\.?" is not a service id: /)
      expect(error.message).toContain('purge_all')
    }
  )

  it.each(['...', '.svc', 'svc..', '%2e%2e'])(
    'accepts the service id %j: not a path step',
    (id) => {
      expect(settingsOf({ ...API, 'service-id': id, keys: 'a' }).services[0]?.id).toBe(id)
    }
  )

  it('takes several service ids, each once, first order kept', () => {
    const settings = settingsOf({ ...API, 'service-id': 'svc1, svc2\nsvc3\n\nsvc1', keys: 'a' })
    expect(settings.services.map((service) => service.id)).toEqual(['svc1', 'svc2', 'svc3'])
  })

  it('refuses a base-url that is not an absolute URL', () => {
    const error = refusalOf({ ...API, 'base-url': 'api.example-cdn.com', keys: 'a' })
    expect(error.message).toMatch(/^base-url: /)
  })

  it('refuses a base-url with a query', () => {
    const error = refusalOf({ ...API, 'base-url': 'https://api.example-cdn.com/?x=1', keys: 'a' })
    expect(error.message).toMatch(/^base-url: /)
  })

  it('refuses a base-url that already holds /service/, which the action appends itself', () => {
    const error = refusalOf({
      ...API,
      'base-url': 'https://api.example-cdn.com/service/svc123',
      keys: 'a'
    })
    expect(error.message).toBe(
      'base-url: "https://api.example-cdn.com/service/svc123" holds /service/ in its path; give the management address only (e.g. https://api.example-cdn.com): the action appends /service/{service-id}/... itself'
    )
  })

  it.each([
    'https://api.example-cdn.com/service',
    'https://api.example-cdn.com/service/',
    'https://api.example-cdn.com/v1/service/svc123/purge'
  ])('refuses the base-url %s, naming base-url', (baseUrl) => {
    const error = refusalOf({ ...API, 'base-url': baseUrl, mode: 'all' })
    expect(error.message).toMatch(/^base-url: .* holds \/service\/ in its path; /)
  })

  it.each([
    'https://api.example-cdn.com/services',
    'https://api.example-cdn.com/v1/my-service',
    'https://service.example-cdn.com'
  ])('accepts the base-url %s: service is not a path segment of it', (baseUrl) => {
    expect(settingsOf({ ...API, 'base-url': baseUrl, keys: 'a' }).services[0]?.baseUrl).toBe(
      baseUrl
    )
  })

  it('refuses a base-url with credentials without echoing them', () => {
    const error = refusalOf({
      ...API,
      'base-url': 'https://admin:hunter2@api.example-cdn.com',
      keys: 'a'
    })
    expect(error.message).toMatch(/^base-url: /)
    expect(error.message).not.toContain('hunter2')
  })

  it('refuses an http:// base-url on a remote host, asking for https', () => {
    const error = refusalOf({ ...API, 'base-url': 'http://api.example-cdn.com', keys: 'a' })
    expect(error.message).toMatch(/^base-url: /)
    expect(error.message).toContain('https://')
    expect(error.message).not.toContain(TOKEN)
  })

  it.each([
    'http://localhost:8080',
    'http://127.0.0.1:3000',
    'http://127.8.9.10',
    'http://[::1]:8080'
  ])('allows the loopback http:// base-url %s', (baseUrl) => {
    const settings = settingsOf({ ...API, 'base-url': baseUrl, keys: 'a' })
    expect(settings.services[0]?.baseUrl).toBe(baseUrl)
  })

  it.each([
    ['https://api.example-cdn.com/', 'https://api.example-cdn.com'],
    ['https://api.example-cdn.com/v1/', 'https://api.example-cdn.com/v1'],
    ['https://API.Example-CDN.com', 'https://api.example-cdn.com']
  ])('normalizes base-url %s so paths can be appended', (given, expected) => {
    expect(settingsOf({ ...API, 'base-url': given, keys: 'a' }).services[0]?.baseUrl).toBe(expected)
  })
})

describe('tokens that an HTTP header cannot carry', () => {
  const SECRET_PART = 'tok-4f9c'
  it.each([
    ['a line break', `${SECRET_PART}\nrest`],
    ['a line break', `${SECRET_PART}\r\nrest`],
    ['a control character', `${SECRET_PART}\trest`],
    ['a control character', `${SECRET_PART}\u0000rest`],
    ['a control character', `${SECRET_PART}\u007frest`],
    ['a non-ASCII character', `${SECRET_PART}\u00e9rest`],
    ['a non-ASCII character', `${SECRET_PART}\u2028rest`],
    ['a non-ASCII character', `${SECRET_PART}\u{1f511}rest`]
  ])('are refused when they hold %s, naming the input without echoing it', (problem, token) => {
    for (const name of ['api-token', 'github-token'] as const) {
      const error = refusalOf({ ...API, keys: 'a', [name]: token })
      expect(error.message).toMatch(new RegExp(`^${name} holds ${problem}, which an HTTP header`))
      expect(error.message).not.toContain(SECRET_PART)
      expect(error.message).not.toContain('rest')
    }
  })

  it('are refused before any file is read', () => {
    const error = refusalOf({ ...API, 'api-token': 'a\nb', 'keys-file': 'keys.txt' }, noFiles)
    expect(error.message).toMatch(/^api-token holds a line break/)
  })

  it('are refused even for a dry run, which would otherwise hide the problem until the real one', () => {
    const error = refusalOf({ ...API, 'api-token': 'a\nb', keys: 'a', 'dry-run': 'true' })
    expect(error.message).toMatch(/^api-token holds a line break/)
  })

  it('may hold any printable ASCII, spaces included', () => {
    const token = ' !"#$%&\'()*+,-./09:;<=>?@AZ[\\]^_`az{|}~'.trim()
    expect(settingsOf({ ...API, keys: 'a', 'api-token': token }).keys).toEqual(['a'])
    expect(settingsOf({ ...API, keys: 'a', 'api-token': 'two words' }).keys).toEqual(['a'])
  })
})

describe('url-purge-auth', () => {
  it('refuses an http:// URL on a remote host, since the token would travel in clear', () => {
    const error = refusalOf({
      ...API,
      urls: 'https://www.example.com/ok http://www.example.com/plain',
      'url-purge-auth': 'true'
    })
    expect(error.message).toMatch(/^urls: /)
    expect(error.message).toContain('http://www.example.com/plain')
    expect(error.message).toContain('https://')
  })

  it('allows https:// and loopback http:// URLs', () => {
    const settings = settingsOf({
      ...API,
      urls: 'https://www.example.com/a http://127.0.0.1:8080/b http://localhost/c',
      'url-purge-auth': 'true'
    })
    expect(settings.urlPurgeAuth).toBe(true)
    expect(settings.urls).toHaveLength(3)
  })

  it('off (the default), allows http:// URLs: no token travels with them', () => {
    const settings = settingsOf({ urls: 'http://www.example.com/plain' })
    expect(settings.urlPurgeAuth).toBe(false)
    expect(settings.urls[0]?.url.protocol).toBe('http:')
  })
})

describe('bad values', () => {
  it.each([
    ['soft', 'maybe', 'true or false'],
    ['soft', 'yes', 'true or false'],
    ['dry-run', '1', 'true or false'],
    ['url-purge-auth', 'on', 'true or false'],
    ['summary', 'no', 'true or false'],
    ['fail-on-error', '', 'true or false'],
    ['batch-size', '0', 'from 1 to 256'],
    ['batch-size', '257', 'from 1 to 256'],
    ['batch-size', '300', 'from 1 to 256'],
    ['batch-size', 'abc', 'from 1 to 256'],
    ['batch-size', '1.5', 'from 1 to 256'],
    ['batch-size', '-1', 'from 1 to 256'],
    ['batch-size', '', 'from 1 to 256'],
    ['concurrency', '0', 'from 1 to 64'],
    ['concurrency', '65', 'from 1 to 64'],
    ['max-attempts', '0', 'whole number from 1'],
    ['max-attempts', 'many', 'whole number from 1'],
    ['timeout', '0', 'above 0 and at most 600'],
    ['timeout', 'abc', 'above 0 and at most 600'],
    ['timeout', '601', 'above 0 and at most 600'],
    ['timeout', '-5', 'above 0 and at most 600'],
    ['batch-format', 'xml', 'json, header'],
    ['batch-format', 'JSON', 'json, header'],
    ['mode', 'everything', 'keys, urls, all'],
    ['wait-timeout', 'soon', 'above 0 and at most 21600'],
    ['wait-timeout', '21601', 'above 0 and at most 21600'],
    ['wait-passes', '0', 'from 1 to 100'],
    ['verify', 'maybe', 'true or false'],
    ['verify-timeout', '3601', 'above 0 and at most 3600'],
    ['repeat-after', '301', 'from 0 to 300'],
    ['repeat-after', '-1', 'from 0 to 300']
  ] as const)('refuses %s: %j, naming the input and what is allowed', (name, value, allowed) => {
    const error = refusalOf({ ...API, keys: 'a', [name]: value })
    expect(error.message.startsWith(`${name} must be`)).toBe(true)
    expect(error.message).toContain(allowed)
    expect(error.message).toContain(`got ${JSON.stringify(value)}`)
  })

  it.each([
    ['batch-size', '1', { batchSize: 1 }],
    ['batch-size', '256', { batchSize: 256 }],
    ['concurrency', '1', { concurrency: 1 }],
    ['concurrency', '64', { concurrency: 64 }],
    ['max-attempts', '1', { maxAttempts: 1 }],
    ['timeout', '0.5', { timeoutMs: 500 }],
    ['timeout', '600', { timeoutMs: 600_000 }],
    ['batch-format', 'header', { batchFormat: 'header' }],
    ['soft', 'True', { soft: true }],
    ['soft', 'TRUE', { soft: true }],
    ['summary', 'False', { summary: false }],
    ['fail-on-error', 'false', { failOnError: false }],
    ['verify', 'true', { edgeCheck: { purgedUrls: true, urls: [], timeoutMs: 60_000 } }],
    ['repeat-after', '300', { repeatAfterMs: 300_000 }]
  ] as const)('accepts %s: %j', (name, value, expected) => {
    expect(settingsOf({ ...API, keys: 'a', [name]: value })).toMatchObject(expected)
  })
})

describe('keys-file and urls-file', () => {
  it('merge the file keys after the keys input, without duplicates, first order kept', () => {
    const reader = files({ '/tmp/keys.txt': 'c\nb\r\nd, a\n\n' })
    const settings = settingsOf({ ...API, keys: 'a b', 'keys-file': '/tmp/keys.txt' }, reader)
    expect(settings.keys).toEqual(['a', 'b', 'c', 'd'])
  })

  it('a keys-file alone is enough to purge keys', () => {
    const reader = files({ 'keys.txt': 'x y' })
    expect(settingsOf({ ...API, 'keys-file': 'keys.txt' }, reader).keys).toEqual(['x', 'y'])
  })

  it('merge the file URLs after the urls input, deduplicated by normalized form', () => {
    const reader = files({
      'urls.txt': 'https://WWW.example.com/b\nhttps://www.example.com/a\nhttps://www.example.com/c'
    })
    const settings = settingsOf(
      { urls: 'https://www.example.com/a https://www.example.com/b', 'urls-file': 'urls.txt' },
      reader
    )
    expect(settings.urls.map((entry) => entry.target)).toEqual([
      'https://www.example.com/a',
      'https://www.example.com/b',
      'https://www.example.com/c'
    ])
  })

  it('refuse an invalid key in the file, naming keys-file', () => {
    const reader = files({ 'keys.txt': 'fine\nbad\u0007key' })
    const error = refusalOf({ ...API, 'keys-file': 'keys.txt' }, reader)
    expect(error.message).toMatch(/^keys-file: /)
  })

  it.each([
    ['keys', { keys: `"home" "about"` }],
    ['keys-file', { 'keys-file': 'keys.txt' }]
  ])('refuse a key wrapped in quotes, naming %s', (name, given) => {
    const error = refusalOf({ ...API, ...given }, files({ 'keys.txt': `'home'\n'about'\n` }))
    expect(error.message).toMatch(new RegExp(`^${name}: key .*home.* is wrapped in quotes`))
    expect(error.message).toContain('remove them')
  })

  it('refuse an invalid URL in the file, naming urls-file', () => {
    const reader = files({ 'urls.txt': 'https://www.example.com/\n/relative' })
    const error = refusalOf({ 'urls-file': 'urls.txt' }, reader)
    expect(error.message).toMatch(/^urls-file: /)
  })

  it.each(['keys-file', 'urls-file'] as const)(
    'an unreadable %s is refused, naming the input, the path and the reason',
    (name) => {
      const error = refusalOf({ ...API, [name]: 'missing/list.txt' }, files({}))
      expect(error.message).toMatch(new RegExp(`^${name}: `))
      expect(error.message).toContain('missing/list.txt')
      expect(error.message).toContain('ENOENT')
    }
  )
})

describe('wait and verify', () => {
  it('reads the wait: URLs, text, passes and timeout', () => {
    const settings = settingsOf({
      ...API,
      keys: 'a',
      'wait-for-url': 'https://origin.example/version\n https://origin.example/health',
      'wait-for-text': 'abc1234',
      'wait-passes': '3',
      'wait-timeout': '90'
    })
    expect(settings.wait).toEqual({
      urls: ['https://origin.example/version', 'https://origin.example/health'],
      text: 'abc1234',
      passes: 3,
      timeoutMs: 90_000
    })
  })

  it('has no wait without wait-for-url', () => {
    expect(settingsOf({ ...API, keys: 'a' }).wait).toBeUndefined()
  })

  it.each([
    [
      'wait-for-url',
      'origin.example/version',
      'wait-for-url: "origin.example/version" is not an absolute URL'
    ],
    ['wait-for-url', 'ftp://origin.example/v', 'only http and https'],
    ['verify-urls', 'https://user:pw@www.example.com/', 'embeds credentials'],
    ['verify-urls', '/blog/1', 'verify-urls: "/blog/1" is not an absolute URL']
  ] as const)('refuses %s: %j, naming the input', (name, value, message) => {
    const error = refusalOf({ ...API, keys: 'a', [name]: value })
    expect(error.message).toContain(message)
    expect(error.message).not.toContain('pw')
  })

  it('refuses verify-text without verify-urls, naming both', () => {
    const error = refusalOf({ ...API, keys: 'a', 'verify-text': 'abc1234' })
    expect(error.message).toMatch(/^verify-text needs verify-urls/)
  })

  it('refuses wait-for-text without wait-for-url, naming both', () => {
    const error = refusalOf({ ...API, keys: 'a', 'wait-for-text': 'abc1234' })
    expect(error.message).toMatch(/^wait-for-text needs wait-for-url/)
  })

  it('reads verify-urls and verify-text', () => {
    const settings = settingsOf({
      ...API,
      keys: 'a',
      'verify-urls': 'https://www.example.com/blog/1 https://www.example.com/blog/1',
      'verify-text': 'abc1234'
    })
    expect(settings.edgeCheck).toEqual({
      purgedUrls: false,
      urls: ['https://www.example.com/blog/1'],
      text: 'abc1234',
      timeoutMs: 60_000
    })
  })
})
