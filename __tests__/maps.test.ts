/** Unit and property tests of url-map and key-map (config/maps.ts, pure). */
import { describe, expect, it } from '@jest/globals'
import { parseKeyMap, parseUrlMap } from '../src/config/maps.js'
import { InputError } from '../src/config/input-error.js'
import { deriveTargets } from '../src/capabilities/changed-files/derive.js'
import type { DerivedTarget } from '../src/capabilities/changed-files/record.js'
import { NO_SECRETS } from './support/guard.js'

const SITE = 'public/ => https://www.example.com/'

/** The InputError message `run` throws; fails the test if it throws anything else or nothing. */
function inputError(run: () => unknown): string {
  try {
    run()
  } catch (error) {
    expect(error).toBeInstanceOf(InputError)
    return (error as InputError).message
  }
  throw new Error('expected an InputError')
}

const urls = (targets: DerivedTarget[]): string[] =>
  targets.filter((target) => target.type === 'url').map((target) => target.target)
const keys = (targets: DerivedTarget[]): string[] =>
  targets.filter((target) => target.type === 'key').map((target) => target.target)

describe('url-map', () => {
  it('reads PATH_PREFIX => URL_PREFIX lines, skipping blank lines and # comments', () => {
    const map = parseUrlMap(
      [
        '# the static site',
        '',
        '  public/ => https://www.example.com/  ',
        'docs => https://docs.example.com/v2'
      ].join('\n'),
      NO_SECRETS
    )
    expect(map).toEqual([
      { pathPrefix: 'public/', urlPrefix: 'https://www.example.com/', line: 3 },
      { pathPrefix: 'docs/', urlPrefix: 'https://docs.example.com/v2/', line: 4 }
    ])
  })

  it('treats a prefix without a trailing slash as a directory, not a name prefix', () => {
    const map = parseUrlMap('public => https://x.example/', NO_SECRETS)
    expect(urls(deriveTargets(['public/a.html', 'publicity.txt'], map, []))).toEqual([
      'https://x.example/a.html'
    ])
  })

  it('accepts ./ for the repository root and drops a leading ./ or /', () => {
    expect(parseUrlMap('./ => https://x.example/', NO_SECRETS).map((m) => m.pathPrefix)).toEqual([
      ''
    ])
    expect(
      parseUrlMap('./site/ => https://x.example/', NO_SECRETS).map((m) => m.pathPrefix)
    ).toEqual(['site/'])
    expect(parseUrlMap('/site => https://x.example/', NO_SECRETS).map((m) => m.pathPrefix)).toEqual(
      ['site/']
    )
  })

  it('accepts Windows line endings and a byte order mark', () => {
    const map = parseUrlMap(
      '\uFEFFa/ => https://a.example/\r\nb/ => https://b.example/\r\n',
      NO_SECRETS
    )
    expect(map.map((m) => m.urlPrefix)).toEqual(['https://a.example/', 'https://b.example/'])
  })

  it.each([
    ['public/ https://www.example.com/', 'expected "PATH_PREFIX => URL_PREFIX"'],
    ['public/ =>', 'expected "PATH_PREFIX => URL_PREFIX"'],
    ['=> https://www.example.com/', 'expected "PATH_PREFIX => URL_PREFIX"'],
    ['public/ => www.example.com/', 'is not an absolute URL'],
    ['public/ => ftp://files.example.com/', 'only http and https'],
    ['public/ => https://www.example.com/?v=2', 'query or fragment'],
    ['public/ => https://www.example.com/#top', 'query or fragment'],
    ['public/** => https://www.example.com/', 'looks like a glob'],
    ['../public/ => https://www.example.com/', 'without . or .. segments'],
    ['public\\site => https://www.example.com/', 'not \\']
  ])('refuses %j, naming url-map and the line', (line, reason) => {
    const message = inputError(() => parseUrlMap(`# header\n${SITE}\n${line}`, NO_SECRETS))
    expect(message).toContain('url-map line 3')
    expect(message).toContain(reason)
  })

  it('never echoes credentials from a bad URL prefix', () => {
    const message = inputError(() =>
      parseUrlMap('public/ => ftp://deploy:s3cret@x.example/', NO_SECRETS)
    )
    expect(message).not.toContain('s3cret')
  })
})

describe('key-map', () => {
  it('reads GLOB => KEY lines and matches globs against whole repository paths', () => {
    const map = parseKeyMap('# blog\ncontent/blog/** => blog\n\n**/*.css => styles', NO_SECRETS)
    expect(map.map(({ glob, key, line }) => ({ glob, key, line }))).toEqual([
      { glob: 'content/blog/**', key: 'blog', line: 2 },
      { glob: '**/*.css', key: 'styles', line: 4 }
    ])
    const tags = (file: string): string[] => keys(deriveTargets([file], [], map))
    expect(tags('content/blog/2024/hello.md')).toEqual(['blog'])
    expect(tags('content/blogroll.md')).toEqual([])
    expect(tags('assets/css/site.css')).toEqual(['styles'])
    expect(tags('site.css')).toEqual(['styles'])
  })

  it('matches files in dot directories, which sites serve too', () => {
    const map = parseKeyMap('public/** => site', NO_SECRETS)
    expect(keys(deriveTargets(['public/.well-known/security.txt'], [], map))).toEqual(['site'])
  })

  it('ignores a leading ./ in a glob, since GitHub paths never have one', () => {
    const map = parseKeyMap('./content/** => content', NO_SECRETS)
    expect(keys(deriveTargets(['content/a.md'], [], map))).toEqual(['content'])
  })

  it.each([
    ['without an arrow', 'content/** blog', 'expected "GLOB => KEY"'],
    ['with two keys', 'content/** => blog posts', 'give one key per line'],
    ['with comma-separated keys', 'content/** => blog,posts', 'give one key per line'],
    ['with a non-ASCII key', 'content/** => blög', 'printable ASCII'],
    ['with a key over 1024 bytes', `content/** => ${'k'.repeat(1025)}`, 'at most 1024 bytes'],
    ['with a key in double quotes', 'content/** => "blog"', 'is wrapped in quotes'],
    ['with a key in single quotes', `content/** => 'blog'`, 'remove them']
  ])('refuses a line %s, naming key-map and the line', (_label, line, reason) => {
    const message = inputError(() => parseKeyMap(`a/** => a\n${line}`, NO_SECRETS))
    expect(message).toContain('key-map line 2')
    expect(message).toContain(reason)
  })

  it('accepts a key of exactly 1024 bytes', () => {
    const key = 'k'.repeat(1024)
    expect(parseKeyMap(`a/** => ${key}`, NO_SECRETS).map((m) => m.key)).toEqual([key])
  })
})
