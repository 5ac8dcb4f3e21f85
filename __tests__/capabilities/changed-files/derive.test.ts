/** Unit and property tests of deriving targets from changed files (changed-files/derive.ts, pure). */
import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { parseKeyMap, parseUrlMap } from '../../../src/config/maps.js'
import { parseKeys, parseUrls } from '../../../src/config/lists.js'
import { deriveTargets } from '../../../src/capabilities/changed-files/derive.js'
import type { DerivedTarget } from '../../../src/capabilities/changed-files/record.js'
import { NO_SECRETS } from '../../support/guard.js'

const SITE = 'public/ => https://www.example.com/'

const urls = (targets: DerivedTarget[]): string[] =>
  targets.filter((target) => target.type === 'url').map((target) => target.target)
const keys = (targets: DerivedTarget[]): string[] =>
  targets.filter((target) => target.type === 'key').map((target) => target.target)

describe('deriving targets from changed files', () => {
  const urlMap = parseUrlMap(SITE, NO_SECRETS)

  it('maps a file under PATH_PREFIX to URL_PREFIX plus the rest of its path', () => {
    const targets = deriveTargets(['public/css/site.css', 'README.md'], urlMap, [])
    expect(targets).toEqual([
      { type: 'url', target: 'https://www.example.com/css/site.css', file: 'public/css/site.css' }
    ])
  })

  it('adds the directory URL of a changed index.html before the file URL', () => {
    const targets = deriveTargets(['public/docs/index.html', 'public/index.html'], urlMap, [])
    expect(urls(targets)).toEqual([
      'https://www.example.com/docs/',
      'https://www.example.com/docs/index.html',
      'https://www.example.com/',
      'https://www.example.com/index.html'
    ])
    expect(targets.every((target) => target.file.endsWith('index.html'))).toBe(true)
  })

  it('does not treat other files named like index.html as directory indexes', () => {
    const targets = deriveTargets(['public/docs/old-index.html'], urlMap, [])
    expect(urls(targets)).toEqual(['https://www.example.com/docs/old-index.html'])
  })

  it('keeps a URL prefix path: https://x/blog + post.html is https://x/blog/post.html', () => {
    const map = parseUrlMap('content/posts/ => https://www.example.com/blog', NO_SECRETS)
    expect(urls(deriveTargets(['content/posts/hello.html'], map, []))).toEqual([
      'https://www.example.com/blog/hello.html'
    ])
  })

  it('applies every matching url-map line, so a site served on two hosts is purged on both', () => {
    const map = parseUrlMap(
      'public/ => https://a.example/\npublic/ => https://b.example/',
      NO_SECRETS
    )
    expect(urls(deriveTargets(['public/x.html'], map, []))).toEqual([
      'https://a.example/x.html',
      'https://b.example/x.html'
    ])
  })

  it.each([
    ['public/my page.html', 'https://www.example.com/my%20page.html'],
    ['public/a#b?c.html', 'https://www.example.com/a%23b%3Fc.html'],
    ['public/100%.html', 'https://www.example.com/100%25.html'],
    ['public/café/menü.html', 'https://www.example.com/caf%C3%A9/men%C3%BC.html'],
    ['public/a+b@c:d,e=f$g&h;i.html', 'https://www.example.com/a+b@c:d,e=f$g&h;i.html'],
    ['public/back\\slash.html', 'https://www.example.com/back%5Cslash.html'],
    ['public/deep/er/path.html', 'https://www.example.com/deep/er/path.html']
  ])('percent-encodes the path of %j as browsers request it', (file, url) => {
    expect(urls(deriveTargets([file], urlMap, []))).toEqual([url])
  })

  it('keeps each target once, with the first file that caused it, in file order', () => {
    const keyMap = parseKeyMap('public/blog/** => blog\npublic/** => site', NO_SECRETS)
    const targets = deriveTargets(
      ['public/blog/b.html', 'public/blog/a.html', 'public/blog/b.html'],
      urlMap,
      keyMap
    )
    expect(targets).toEqual([
      { type: 'url', target: 'https://www.example.com/blog/b.html', file: 'public/blog/b.html' },
      { type: 'key', target: 'blog', file: 'public/blog/b.html' },
      { type: 'key', target: 'site', file: 'public/blog/b.html' },
      { type: 'url', target: 'https://www.example.com/blog/a.html', file: 'public/blog/a.html' }
    ])
  })

  it('keeps a URL two url-map lines both produce once', () => {
    const map = parseUrlMap(
      'public/ => https://x.example/\npublic/docs/ => https://x.example/docs/',
      NO_SECRETS
    )
    expect(deriveTargets(['public/docs/a.html'], map, [])).toEqual([
      { type: 'url', target: 'https://x.example/docs/a.html', file: 'public/docs/a.html' }
    ])
  })

  it('derives nothing when no map covers the changed files', () => {
    expect(
      deriveTargets(['src/app.ts'], urlMap, parseKeyMap('content/** => c', NO_SECRETS))
    ).toEqual([])
  })

  it('derives URLs and keys that pass the same validation as urls and keys', () => {
    const file = fc.stringMatching(/^[a-zA-Z0-9 ._~!$&'()*+,;=:@%#?\\\u00e9\u4e2d-]{1,12}$/)
    const path = fc
      .array(file, { minLength: 1, maxLength: 4 })
      .filter((segments) => segments.every((s) => s !== '.' && s !== '..'))
      .map((segments) => `public/${segments.join('/')}`)
    const keyMap = parseKeyMap('public/** => site', NO_SECRETS)
    fc.assert(
      fc.property(fc.array(path, { minLength: 1, maxLength: 5 }), (files) => {
        const targets = deriveTargets(files, urlMap, keyMap)
        const derivedUrls = urls(targets)
        // As a JSON array: in text, a comma ending a file name would be read as a separator.
        const parsed = parseUrls(NO_SECRETS, [JSON.stringify(derivedUrls), 'urls'])
        // Valid, one item each (no whitespace), and already in the URL parser's form.
        expect(parsed.map((entry) => entry.target)).toEqual(derivedUrls)
        expect(parsed.map((entry) => entry.url.href)).toEqual(derivedUrls)
        expect(parseKeys(NO_SECRETS, [keys(targets).join('\n'), 'keys'])).toEqual(['site'])
      })
    )
  })
})

describe('the path of a derived URL', () => {
  it('decodes back to the file’s path under the url-map prefix, segment by segment, keeping /', () => {
    const map = parseUrlMap('public/ => https://x.example/', NO_SECRETS)
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'grapheme' }), { maxLength: 4 }), (segments) => {
        const path = segments.join('/')
        fc.pre(path !== '')
        const url = deriveTargets([`public/${path}`], map, []).at(-1)?.target ?? ''
        expect(url.startsWith('https://x.example/')).toBe(true)
        const encoded = url.slice('https://x.example/'.length)
        expect(encoded.split('/').map(decodeURIComponent)).toEqual(path.split('/'))
        expect(encoded).not.toMatch(/[\s#?\\]|%(?![0-9A-F]{2})/)
      })
    )
  })
})
