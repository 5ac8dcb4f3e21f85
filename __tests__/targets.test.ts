/** Unit tests of the parsing of surrogate keys and URLs: what a user may ask to purge. */
import { describe, expect, it } from '@jest/globals'
import {
  InputError,
  isLoopbackHost,
  MAX_KEY_BYTES,
  mergeUnique,
  parseHttpUrl,
  parseKeys,
  parseUrls,
  splitUrls
} from '../src/config/targets.js'

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

describe('parseKeys', () => {
  it('splits on spaces, commas, newlines and tabs', () => {
    expect(parseKeys('a b,c\nd\te', 'keys')).toEqual(['a', 'b', 'c', 'd', 'e'])
  })

  it('accepts Windows line endings and runs of mixed separators', () => {
    expect(parseKeys('one\r\ntwo\r\n , \t three', 'keys')).toEqual(['one', 'two', 'three'])
  })

  it('drops blank entries, including leading and trailing separators', () => {
    expect(parseKeys(',, \n a ,,, b \n\n', 'keys')).toEqual(['a', 'b'])
  })

  it('gives no keys for empty or blank text', () => {
    expect(parseKeys('', 'keys')).toEqual([])
    expect(parseKeys(' \n\t,, ', 'keys')).toEqual([])
  })

  it('removes duplicates and keeps the order of first appearance', () => {
    expect(parseKeys('b a b c a', 'keys')).toEqual(['b', 'a', 'c'])
  })

  it('treats keys as case-sensitive: differently cased keys are different keys', () => {
    expect(parseKeys('Key key KEY', 'keys')).toEqual(['Key', 'key', 'KEY'])
  })

  it('accepts every printable ASCII character except the comma separator', () => {
    const printable = Array.from({ length: 0x7e - 0x21 + 1 }, (_, i) =>
      String.fromCharCode(0x21 + i)
    )
      .filter((char) => char !== ',')
      .join('')
    expect(parseKeys(printable, 'keys')).toEqual([printable])
  })

  it('accepts keys with characters that need encoding in a URL path', () => {
    expect(parseKeys('a/b c?d e#f g%20h', 'keys')).toEqual(['a/b', 'c?d', 'e#f', 'g%20h'])
  })

  it('accepts a key of exactly 1024 bytes', () => {
    const key = 'k'.repeat(MAX_KEY_BYTES)
    expect(MAX_KEY_BYTES).toBe(1024)
    expect(parseKeys(key, 'keys')).toEqual([key])
  })

  it('refuses a key of 1025 bytes, naming the input, the size and the limit', () => {
    const error = errorOf(() => parseKeys(`short ${'x'.repeat(1025)}`, 'keys'))
    expect(error).toBeInstanceOf(InputError)
    expect(error.message).toMatch(/^keys: /)
    expect(error.message).toContain('1025 bytes')
    expect(error.message).toContain('1024')
  })

  it('shows an over-long key shortened in the error, not whole', () => {
    const key = `${'head'.repeat(10)}${'y'.repeat(2000)}`
    const error = errorOf(() => parseKeys(key, 'keys-file'))
    expect(error.message).toMatch(/^keys-file: /)
    expect(error.message).toContain('headhead')
    expect(error.message).not.toContain(key)
    expect(error.message).not.toContain('y'.repeat(100))
    expect(error.message.length).toBeLessThan(300)
  })

  it.each([
    ['a control character', 'bad\u0001key'],
    ['DEL (0x7F)', 'bad\u007fkey'],
    ['a NUL byte', 'bad\u0000key'],
    ['an accented letter', 'café'],
    ['an emoji', 'key-🚀'],
    ['a CJK character', 'キー']
  ])('refuses a key containing %s, naming the input and the rule', (_what, key) => {
    const error = errorOf(() => parseKeys(`good ${key} other`, 'keys'))
    expect(error).toBeInstanceOf(InputError)
    expect(error.message).toMatch(/^keys: /)
    expect(error.message).toContain('printable ASCII')
  })

  it('names the offending key, showing invisible characters as escapes', () => {
    const error = errorOf(() => parseKeys('fine bad\u0001key', 'keys'))
    expect(error.message).toContain('bad\\u0001key')
    expect(error.message).not.toContain('fine')
  })

  it('shortens a long invalid key in the error and says how long it was', () => {
    const key = `${'z'.repeat(500)}é`
    const error = errorOf(() => parseKeys(key, 'keys'))
    expect(error.message).not.toContain(key)
    expect(error.message).toContain('501 characters')
  })

  it('refuses keys wrapped in quotes, which YAML leaves in when they go around each key', () => {
    const error = errorOf(() => parseKeys('"home" "about"', 'keys'))
    expect(error).toBeInstanceOf(InputError)
    expect(error.message).toBe(
      'keys: key "\\"home\\"" is wrapped in quotes, which would be purged as part of the key; remove them (keys are separated by spaces, commas or newlines; YAML quotes go around the whole value)'
    )
  })

  it.each([`'home'`, `'a"b'`, '""', `''`])('refuses the quoted key %s', (key) => {
    expect(errorOf(() => parseKeys(`ok ${key}`, 'keys-file')).message).toMatch(
      /^keys-file: key .* is wrapped in quotes/
    )
  })

  it.each(['a"b', `it's`, `"home'`, '"home', `home'`, '"', `'`])(
    'accepts the key %s: a quote inside it, unmatched or alone wraps nothing',
    (key) => {
      expect(parseKeys(key, 'keys')).toEqual([key])
    }
  )

  // Only spaces, commas, newlines and tabs separate keys. A non-ASCII space inside a key is a
  // character the key may not hold: the key must be refused, not silently split into other keys.
  it.each([
    ['a no-break space (U+00A0)', 'release\u00a0v2'],
    ['an em space (U+2003)', 'release\u2003v2'],
    ['an ideographic space (U+3000)', 'release\u3000v2'],
    ['a line separator (U+2028)', 'release\u2028v2']
  ])('refuses a key containing %s instead of splitting it', (_what, key) => {
    expect(() => parseKeys(key, 'keys')).toThrow(InputError)
  })
})

describe('parseHttpUrl', () => {
  it.each([
    ['https://cdn.example.com/a/b?x=1&y=2', 'https:', 'cdn.example.com'],
    ['http://cdn.example.com/', 'http:', 'cdn.example.com'],
    ['HTTPS://CDN.Example.com', 'https:', 'cdn.example.com']
  ])('accepts the absolute http(s) URL %s', (raw, protocol, host) => {
    const url = parseHttpUrl(raw, 'urls')
    expect(url.protocol).toBe(protocol)
    expect(url.host).toBe(host)
  })

  it('keeps path and query of the URL', () => {
    const url = parseHttpUrl('https://cdn.example.com/img/logo.png?v=3', 'urls')
    expect(url.pathname).toBe('/img/logo.png')
    expect(url.search).toBe('?v=3')
  })

  it.each(['/img/logo.png', 'cdn.example.com/logo.png', '../logo.png', 'logo.png'])(
    'refuses the relative URL %s, naming the input and asking for an absolute URL',
    (raw) => {
      const error = errorOf(() => parseHttpUrl(raw, 'urls'))
      expect(error).toBeInstanceOf(InputError)
      expect(error.message).toMatch(/^urls: /)
      expect(error.message).toMatch(/absolute|http/)
    }
  )

  it.each([
    'ftp://files.example.com/a',
    'file:///etc/passwd',
    'javascript:alert(1)',
    'data:text/html,hi',
    'ws://cdn.example.com/'
  ])('refuses the non-http scheme in %s', (raw) => {
    const error = errorOf(() => parseHttpUrl(raw, 'urls-file'))
    expect(error).toBeInstanceOf(InputError)
    expect(error.message).toMatch(/^urls-file: /)
    expect(error.message).toContain('only http and https')
  })

  it('refuses embedded credentials and says to remove them', () => {
    const error = errorOf(() => parseHttpUrl('https://deploy:hunter2@cdn.example.com/a', 'urls'))
    expect(error).toBeInstanceOf(InputError)
    expect(error.message).toMatch(/^urls: /)
    expect(error.message).toContain('credentials')
    expect(error.message).not.toContain('hunter2')
  })

  it('refuses a user name without password too', () => {
    expect(() => parseHttpUrl('https://deploy@cdn.example.com/a', 'urls')).toThrow(InputError)
  })

  it('refuses credentials on a non-http scheme without echoing them', () => {
    const error = errorOf(() => parseHttpUrl('ftp://deploy:hunter2@files.example.com/', 'urls'))
    expect(error.message).not.toContain('hunter2')
  })

  it('does not echo a password that contains an @', () => {
    const error = errorOf(() => parseHttpUrl('https://deploy:p@ss@cdn.example.com/', 'urls'))
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
    const error = errorOf(() => parseHttpUrl(raw, 'urls'))
    expect(error).toBeInstanceOf(InputError)
    expect(error.message).not.toContain('hunter2')
  })
})

describe('parseUrls', () => {
  it('splits on spaces, tabs and newlines, keeping each URL as written', () => {
    const urls = parseUrls(
      'https://a.example.com/1 https://a.example.com/2\n\thttps://b.example.com/3?q=x\r\n',
      'urls'
    )
    expect(urls.map((entry) => entry.target)).toEqual([
      'https://a.example.com/1',
      'https://a.example.com/2',
      'https://b.example.com/3?q=x'
    ])
    expect(urls[2]?.url.search).toBe('?q=x')
  })

  it('gives no URLs for blank text', () => {
    expect(parseUrls('  \n\t ', 'urls')).toEqual([])
  })

  it('removes URLs equal after normalization, keeping the first spelling', () => {
    const urls = parseUrls(
      [
        'https://CDN.example.com/a',
        'https://cdn.example.com/a',
        'https://cdn.example.com:443/a',
        'https://cdn.example.com/b',
        'https://cdn.example.com/a'
      ].join('\n'),
      'urls'
    )
    expect(urls.map((entry) => entry.target)).toEqual([
      'https://CDN.example.com/a',
      'https://cdn.example.com/b'
    ])
  })

  it('treats URLs that differ only by fragment as one purge, sent without the fragment', () => {
    const urls = parseUrls('https://cdn.example.com/a#top https://cdn.example.com/a#end', 'urls')
    expect(urls.map((entry) => [entry.target, entry.address])).toEqual([
      ['https://cdn.example.com/a#top', 'https://cdn.example.com/a']
    ])
  })

  it('keeps URLs that differ by path case, query or scheme apart', () => {
    const urls = parseUrls(
      'https://cdn.example.com/A https://cdn.example.com/a https://cdn.example.com/a?v=1 http://cdn.example.com/a',
      'urls'
    )
    expect(urls).toHaveLength(4)
  })

  it('refuses the whole list when one URL is bad, naming the input', () => {
    const error = errorOf(() => parseUrls('https://ok.example.com/ /relative', 'urls-file'))
    expect(error).toBeInstanceOf(InputError)
    expect(error.message).toMatch(/^urls-file: /)
    expect(error.message).toContain('/relative')
  })

  it('refuses a listed URL with credentials without echoing the password', () => {
    const error = errorOf(() =>
      parseUrls('https://ok.example.com/\nhttps://u:s3cr3t-pw@cdn.example.com/x', 'urls')
    )
    expect(error.message).not.toContain('s3cr3t-pw')
  })
})

describe('splitUrls: URLs joined by a comma', () => {
  // As one URL, "https://h/a,https://h/b" is valid: its purge would go to /a,https://h/b.
  it('refuses two URLs joined by a comma, naming the input and how to separate them', () => {
    const error = errorOf(() => parseUrls('https://h.example/a,https://h.example/b', 'urls'))
    expect(error).toBeInstanceOf(InputError)
    expect(error.message).toBe(
      'urls: "https://h.example/a,https://h.example/b" holds two URLs joined by a comma; separate URLs with newlines or spaces'
    )
  })

  it.each([
    ['http', 'https://h.example/a,http://h.example/b'],
    ['an upper-case scheme', 'https://h.example/a,HTTPS://h.example/b'],
    ['a mixed-case scheme', 'https://h.example/a,Http://h.example/b']
  ])('refuses a comma before %s', (_what, entry) => {
    expect(errorOf(() => splitUrls(`https://h.example/ok ${entry}`, 'urls-file')).message).toMatch(
      /^urls-file: ".*" holds two URLs joined by a comma; /
    )
  })

  it('counts three URLs joined by two commas', () => {
    const error = errorOf(() =>
      splitUrls('https://h.example/a,https://h.example/b,http://c/', 'urls')
    )
    expect(error.message).toContain('holds 3 URLs joined by commas')
  })

  it('does not echo a password in the second URL, which the URL parser reads as path', () => {
    const error = errorOf(() =>
      splitUrls('https://h.example/a,https://deploy:s3cr3t-pw@h.example/b', 'urls')
    )
    expect(error.message).toMatch(/^urls: /)
    expect(error.message).not.toContain('s3cr3t-pw')
  })

  it.each([
    'https://h.example/img/w_100,h_50.jpg',
    'https://h.example/list?ids=1,2,3',
    'https://h.example/a,httpd.conf',
    'https://h.example/a,http:/one-slash',
    'https://h.example/a,ftp://h.example/b'
  ])('keeps a comma inside a single URL: %s', (url) => {
    expect(parseUrls(url, 'urls').map((entry) => entry.target)).toEqual([url])
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
