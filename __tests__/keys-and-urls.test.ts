/** Unit tests of the checks of one surrogate key or URL: what a user may ask to purge. */
import { describe, expect, it } from '@jest/globals'
import { InputError } from '../src/config/input-error.js'
import { checkKey, isLoopbackHost, mergeUnique, parseHttpUrl } from '../src/config/keys-and-urls.js'
import { NO_SECRETS } from './support/guard.js'

/** The error a parse throws, so its type and message can both be checked. */
function errorOf(parse: () => unknown): Error {
  try {
    parse()
  } catch (error) {
    if (error instanceof Error) return error
    throw new Error(`threw a non-Error: ${String(error)}`, { cause: error })
  }
  throw new Error('expected the parse to throw, but it returned')
}

/** The message of the InputError a check throws, checked to begin with the input it names. */
function refusalNaming(parse: () => unknown, input: string): string {
  const error = errorOf(parse)
  expect(error).toBeInstanceOf(InputError)
  expect(error.message.startsWith(`${input}: `)).toBe(true)
  return error.message
}

describe('checkKey', () => {
  it('accepts every printable ASCII character', () => {
    const printable = Array.from({ length: 0x7e - 0x21 + 1 }, (_, i) =>
      String.fromCharCode(0x21 + i)
    ).join('')
    expect(() => checkKey(printable, 'keys', NO_SECRETS)).not.toThrow()
  })

  it('accepts keys with characters that need encoding in a URL path', () => {
    for (const key of ['a/b', 'c?d', 'e#f', 'g%20h'])
      expect(() => checkKey(key, 'keys', NO_SECRETS)).not.toThrow()
  })

  it('accepts a key of exactly 1024 bytes', () => {
    expect(() => checkKey('k'.repeat(1024), 'keys', NO_SECRETS)).not.toThrow()
  })

  it('refuses a key of 1025 bytes, naming the input, the size and the limit', () => {
    const message = refusalNaming(() => checkKey('x'.repeat(1025), 'keys', NO_SECRETS), 'keys')
    expect(message).toContain('1025 bytes')
    expect(message).toContain('1024')
  })

  it('shows an over-long key shortened in the error, not whole', () => {
    const key = `${'head'.repeat(10)}${'y'.repeat(2000)}`
    const message = refusalNaming(() => checkKey(key, 'keys-file', NO_SECRETS), 'keys-file')
    expect(message).toContain('headhead')
    expect(message).not.toContain(key)
    expect(message).not.toContain('y'.repeat(100))
    expect(message.length).toBeLessThan(300)
  })

  it.each([
    ['a control character', 'bad\u0001key'],
    ['DEL (0x7F)', 'bad\u007fkey'],
    ['a NUL byte', 'bad\u0000key'],
    ['an accented letter', 'café'],
    ['an emoji', 'key-🚀'],
    ['a CJK character', 'キー']
  ])('refuses a key containing %s, naming the input', (_what, key) => {
    refusalNaming(() => checkKey(key, 'keys', NO_SECRETS), 'keys')
  })

  it('names the offending key, showing invisible characters as escapes, and the rule', () => {
    expect(errorOf(() => checkKey('bad\u0001key', 'keys', NO_SECRETS)).message).toBe(
      'keys: key "bad\\u0001key" is not allowed: a surrogate key is printable ASCII (0x21–0x7E) only'
    )
  })

  it('shortens a long invalid key in the error and says how long it was', () => {
    const key = `${'z'.repeat(500)}é`
    const error = errorOf(() => checkKey(key, 'keys', NO_SECRETS))
    expect(error.message).not.toContain(key)
    expect(error.message).toContain('501 characters')
  })

  it('refuses keys wrapped in quotes, which YAML leaves in when they go around each key', () => {
    const error = errorOf(() => checkKey('"home"', 'keys', NO_SECRETS))
    expect(error).toBeInstanceOf(InputError)
    expect(error.message).toBe(
      'keys: key "\\"home\\"" is wrapped in quotes, which would be purged as part of the key; remove them (keys are separated by spaces, commas or newlines; YAML quotes go around the whole value)'
    )
  })

  it.each([`'home'`, `'a"b'`, '""', `''`])('refuses the quoted key %s, naming the input', (key) => {
    refusalNaming(() => checkKey(key, 'keys-file', NO_SECRETS), 'keys-file')
  })

  it.each(['a"b', `it's`, `"home'`, '"home', `home'`, '"', `'`])(
    'accepts the key %s: a quote inside it, unmatched or alone wraps nothing',
    (key) => {
      expect(() => checkKey(key, 'keys', NO_SECRETS)).not.toThrow()
    }
  )
})

describe('parseHttpUrl', () => {
  it.each([
    ['https://cdn.example.com/a/b?x=1&y=2', 'https:', 'cdn.example.com'],
    ['http://cdn.example.com/', 'http:', 'cdn.example.com'],
    ['HTTPS://CDN.Example.com', 'https:', 'cdn.example.com']
  ])('accepts the absolute http(s) URL %s', (raw, protocol, host) => {
    const url = parseHttpUrl(raw, 'urls', NO_SECRETS)
    expect(url.protocol).toBe(protocol)
    expect(url.host).toBe(host)
  })

  it('keeps path and query of the URL', () => {
    const url = parseHttpUrl('https://cdn.example.com/img/logo.png?v=3', 'urls', NO_SECRETS)
    expect(url.pathname).toBe('/img/logo.png')
    expect(url.search).toBe('?v=3')
  })

  it.each(['/img/logo.png', 'cdn.example.com/logo.png', '../logo.png', 'logo.png'])(
    'refuses the relative URL %s, naming the input and asking for an absolute URL',
    (raw) => {
      expect(refusalNaming(() => parseHttpUrl(raw, 'urls', NO_SECRETS), 'urls')).toBe(
        `urls: ${JSON.stringify(raw)} is not an absolute URL; give it with https:// and a host`
      )
    }
  )

  it.each([
    ['ftp://files.example.com/a', 'ftp'],
    ['file:///etc/passwd', 'file'],
    ['javascript:alert(1)', 'javascript'],
    ['data:text/html,hi', 'data'],
    ['ws://cdn.example.com/', 'ws']
  ])(
    'refuses the non-http scheme in %s, naming the input and the schemes allowed',
    (raw, scheme) => {
      expect(refusalNaming(() => parseHttpUrl(raw, 'urls-file', NO_SECRETS), 'urls-file')).toBe(
        `urls-file: ${JSON.stringify(raw)} uses ${scheme}; only http and https URLs can be purged`
      )
    }
  )

  it('refuses embedded credentials and says to remove them, without echoing them', () => {
    const message = refusalNaming(
      () => parseHttpUrl('https://deploy:hunter2@cdn.example.com/a', 'urls', NO_SECRETS),
      'urls'
    )
    expect(message).toBe(
      'urls: "https:***@cdn.example.com/a" embeds credentials (user:password@); remove them'
    )
    expect(message).not.toContain('hunter2')
  })

  it('refuses a user name without password too', () => {
    expect(() => parseHttpUrl('https://deploy@cdn.example.com/a', 'urls', NO_SECRETS)).toThrow(
      InputError
    )
  })

  it('refuses credentials on a non-http scheme without echoing them', () => {
    const error = errorOf(() =>
      parseHttpUrl('ftp://deploy:hunter2@files.example.com/', 'urls', NO_SECRETS)
    )
    expect(error.message).not.toContain('hunter2')
  })

  it('does not echo a password that contains an @', () => {
    const error = errorOf(() =>
      parseHttpUrl('https://deploy:p@ss@cdn.example.com/', 'urls', NO_SECRETS)
    )
    expect(error.message).not.toContain('p@ss')
  })

  // Every spelling that a URL parser reads as user:password@host must be refused without the
  // password in the message: the message is printed in the step log.
  it.each([
    ['credentials in the usual form', 'https://deploy:hunter2@cdn.example.com/a'],
    ['credentials in an http URL', 'http://deploy:hunter2@cdn.example.com/a'],
    ['credentials after a scheme without slashes', 'https:deploy:hunter2@cdn.example.com/a'],
    ['credentials after a scheme with one slash', 'https:/deploy:hunter2@cdn.example.com/a'],
    ['credentials after a scheme with backslashes', 'https:\\\\deploy:hunter2@cdn.example.com/a'],
    ['credentials in a scheme-relative URL', '//deploy:hunter2@cdn.example.com/a']
  ])('refuses %s without echoing the password', (_how, raw) => {
    const error = errorOf(() => parseHttpUrl(raw, 'urls', NO_SECRETS))
    expect(error).toBeInstanceOf(InputError)
    expect(error.message).not.toContain('hunter2')
  })
})

describe('isLoopbackHost', () => {
  it.each(['localhost', '127.0.0.1', '127.1.2.3', '127.255.255.255', '[::1]'])(
    '%s is loopback',
    (host) => {
      expect(isLoopbackHost(host)).toBe(true)
    }
  )

  it.each([
    'example.com',
    '128.0.0.1',
    '10.0.0.1',
    '0.0.0.0',
    '127.0.0.1.evil.example',
    'localhost.evil.example',
    'evil-localhost',
    '[::2]',
    ''
  ])('%s is not loopback', (host) => {
    expect(isLoopbackHost(host)).toBe(false)
  })

  it('recognizes the hostnames the URL parser gives for loopback addresses', () => {
    for (const raw of [
      'http://LOCALHOST:8080/',
      'http://127.0.0.1/',
      'http://[::1]:3000/',
      'http://127.1/'
    ]) {
      expect(isLoopbackHost(new URL(raw).hostname)).toBe(true)
    }
  })
})

describe('mergeUnique', () => {
  it('merges lists in order, keeping the first of each identity', () => {
    expect(
      mergeUnique(
        [
          ['a', 'b'],
          ['b', 'c', 'a'],
          ['d', 'c']
        ],
        (item) => item
      )
    ).toEqual(['a', 'b', 'c', 'd'])
  })

  it('compares by the identity given, keeping the first item of each', () => {
    const merged = mergeUnique(
      [
        [
          { name: 'first', id: '1' },
          { name: 'second', id: '2' }
        ],
        [{ name: 'again', id: '1' }]
      ],
      (item) => item.id
    )
    expect(merged.map((item) => item.name)).toEqual(['first', 'second'])
  })

  it('gives an empty list for empty lists', () => {
    expect(mergeUnique([[], []], (item: string) => item)).toEqual([])
  })
})
