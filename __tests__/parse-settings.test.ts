/** Unit tests of input validation: every refusal happens before any request, naming the input. */
import { describe, expect, it } from '@jest/globals'
import { unknownInputsNote, type UnknownInput } from '../src/config/input-names.js'
import { INPUT_PARTS } from '../src/capabilities/index.js'
import { parseSettings } from '../src/config/parse-settings.js'
import { DEFAULT_INPUTS, settingsWith } from '../tools/defaults.js'
import {
  API,
  files,
  noFiles,
  refusalNaming,
  refusalOf,
  settingsOf,
  TOKEN
} from './support/parsed-inputs.js'
import { NO_SECRETS } from './support/guard.js'

describe('the defaults', () => {
  it('give the documented settings, which are the tests’ own defaults', () => {
    expect(settingsOf({ ...API, keys: 'a' })).toEqual(settingsWith({ keys: ['a'] }))
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
  ])('all refuses %s beside it, naming both', (what, extra) => {
    const reader = files({ 'keys.txt': 'k1', 'urls.txt': 'https://www.example.com/x' })
    refusalNaming({ ...API, mode: 'all', ...extra }, ['mode: all', what], reader)
  })

  it('all refuses soft, naming both', () => {
    refusalNaming({ ...API, mode: 'all', soft: 'true' }, ['soft', 'mode: all'])
  })

  it('keys refuses URLs beside it, naming both', () => {
    refusalNaming({ ...API, mode: 'keys', keys: 'a', urls: 'https://www.example.com/' }, [
      'mode: keys',
      'urls'
    ])
  })

  it('urls refuses keys beside it, naming both', () => {
    refusalNaming({ ...API, mode: 'urls', keys: 'a', urls: 'https://www.example.com/' }, [
      'mode: urls',
      'keys'
    ])
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
  ])(
    'refuses %s: nothing to purge, naming the inputs that would give targets',
    (_what, extra, wanted) => {
      expect(refusalOf({ ...API, ...extra }).message).toContain(wanted)
    }
  )

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
  ])('api-token is required to purge %s, naming it', (_what, extra) => {
    refusalNaming({ ...API, 'api-token': '', ...extra }, ['api-token'])
  })

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

  it('api-token is required for URL purges with url-purge-auth, naming both', () => {
    refusalNaming({ urls: 'https://www.example.com/', 'url-purge-auth': 'true' }, [
      'api-token',
      'url-purge-auth'
    ])
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
    refusalNaming({ ...API, 'base-url': '', ...extra }, ['base-url', 'https://'])
  })

  it('refuses a service id that is not printable ASCII', () => {
    expect(refusalOf({ ...API, 'service-id': 'svc\u00e9', keys: 'a' }).message).toBe(
      'service-id: "svc\u00e9" is not a service id: give printable ASCII ids without spaces, separated by newlines or commas'
    )
  })

  it.each(['.', '..', 'svc1, ..'])(
    'refuses the service id path step in %j, which would send the calls elsewhere',
    (ids) => {
      refusalNaming({ ...API, 'service-id': ids, mode: 'all' }, ['service-id'])
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

  it('refuses a base-url that is not an absolute URL, naming it', () => {
    refusalNaming({ ...API, 'base-url': 'api.example-cdn.com', keys: 'a' }, ['base-url'])
  })

  it('refuses a base-url with a query, naming it', () => {
    refusalNaming({ ...API, 'base-url': 'https://api.example-cdn.com/?x=1', keys: 'a' }, [
      'base-url'
    ])
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
  ])('refuses the base-url %s, naming base-url and /service/', (baseUrl) => {
    refusalNaming({ ...API, 'base-url': baseUrl, mode: 'all' }, ['base-url', '/service/'])
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
    const message = refusalNaming(
      { ...API, 'base-url': 'https://admin:hunter2@api.example-cdn.com', keys: 'a' },
      ['base-url']
    )
    expect(message).not.toContain('hunter2')
  })

  it('refuses an http:// base-url on a remote host, asking for https', () => {
    const message = refusalNaming({ ...API, 'base-url': 'http://api.example-cdn.com', keys: 'a' }, [
      'base-url',
      'https://'
    ])
    expect(message).not.toContain(TOKEN)
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
    refusalNaming({ ...API, 'api-token': 'a\nb', 'keys-file': 'keys.txt' }, ['api-token'], noFiles)
  })

  it('are refused even for a dry run, which would otherwise hide the problem until the real one', () => {
    refusalNaming({ ...API, 'api-token': 'a\nb', keys: 'a', 'dry-run': 'true' }, ['api-token'])
  })

  it('may hold any printable ASCII, spaces included', () => {
    const token = ' !"#$%&\'()*+,-./09:;<=>?@AZ[\\]^_`az{|}~'.trim()
    expect(settingsOf({ ...API, keys: 'a', 'api-token': token }).keys).toEqual(['a'])
    expect(settingsOf({ ...API, keys: 'a', 'api-token': 'two words' }).keys).toEqual(['a'])
  })
})

describe('url-purge-auth', () => {
  const PLAIN = 'http://www.example.com/plain'

  it('refuses an http:// URL on a remote host, since the token would travel in clear', () => {
    refusalNaming(
      { ...API, urls: `https://www.example.com/ok ${PLAIN}`, 'url-purge-auth': 'true' },
      ['urls', PLAIN, 'https://']
    )
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
    const settings = settingsOf({ urls: PLAIN })
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
    refusalNaming({ ...API, 'keys-file': 'keys.txt' }, ['keys-file'], reader)
  })

  it.each([
    ['keys', { keys: `"home" "about"` }],
    ['keys-file', { 'keys-file': 'keys.txt' }]
  ])('refuse a key wrapped in quotes, naming %s and the key', (name, given) => {
    refusalNaming({ ...API, ...given }, [name, 'home'], files({ 'keys.txt': `'home'\n'about'\n` }))
  })

  it('refuse an invalid URL in the file, naming urls-file', () => {
    const reader = files({ 'urls.txt': 'https://www.example.com/\n/relative' })
    refusalNaming({ 'urls-file': 'urls.txt' }, ['urls-file'], reader)
  })

  it.each(['keys-file', 'urls-file'] as const)(
    'an unreadable %s is refused, naming the input, the path and the reason',
    (name) => {
      const path = 'missing/list.txt'
      refusalNaming({ ...API, [name]: path }, [name, path, 'ENOENT'], files({}))
    }
  )
})
