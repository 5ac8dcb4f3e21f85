/** Unit and property tests of the maps and of deriving targets from changed files (pure). */
import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { parseKeyMap, parseUrlMap } from '../src/config/maps.js'
import { deployedCommit } from '../src/github.js'
import {
  describeRange,
  eventRange,
  previousRelease,
  type ReleaseInfo
} from '../src/stages/changed-files/range.js'
import { InputError } from '../src/config/input-error.js'
import { parseKeys, parseUrls } from '../src/config/lists.js'
import { deriveTargets } from '../src/stages/changed-files/derive.js'
import type { DerivedTarget } from '../src/record/index.js'

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
      ].join('\n')
    )
    expect(map).toEqual([
      { pathPrefix: 'public/', urlPrefix: 'https://www.example.com/', line: 3 },
      { pathPrefix: 'docs/', urlPrefix: 'https://docs.example.com/v2/', line: 4 }
    ])
  })

  it('treats a prefix without a trailing slash as a directory, not a name prefix', () => {
    const map = parseUrlMap('public => https://x.example/')
    expect(urls(deriveTargets(['public/a.html', 'publicity.txt'], map, []))).toEqual([
      'https://x.example/a.html'
    ])
  })

  it('accepts ./ for the repository root and drops a leading ./ or /', () => {
    expect(parseUrlMap('./ => https://x.example/').map((m) => m.pathPrefix)).toEqual([''])
    expect(parseUrlMap('./site/ => https://x.example/').map((m) => m.pathPrefix)).toEqual(['site/'])
    expect(parseUrlMap('/site => https://x.example/').map((m) => m.pathPrefix)).toEqual(['site/'])
  })

  it('accepts Windows line endings and a byte order mark', () => {
    const map = parseUrlMap('\uFEFFa/ => https://a.example/\r\nb/ => https://b.example/\r\n')
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
    const message = inputError(() => parseUrlMap(`# header\n${SITE}\n${line}`))
    expect(message).toContain('url-map line 3')
    expect(message).toContain(reason)
  })

  it('never echoes credentials from a bad URL prefix', () => {
    const message = inputError(() => parseUrlMap('public/ => ftp://deploy:s3cret@x.example/'))
    expect(message).not.toContain('s3cret')
  })
})

describe('key-map', () => {
  it('reads GLOB => KEY lines and matches globs against whole repository paths', () => {
    const map = parseKeyMap('# blog\ncontent/blog/** => blog\n\n**/*.css => styles')
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
    const map = parseKeyMap('public/** => site')
    expect(keys(deriveTargets(['public/.well-known/security.txt'], [], map))).toEqual(['site'])
  })

  it('ignores a leading ./ in a glob, since GitHub paths never have one', () => {
    const map = parseKeyMap('./content/** => content')
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
    const message = inputError(() => parseKeyMap(`a/** => a\n${line}`))
    expect(message).toContain('key-map line 2')
    expect(message).toContain(reason)
  })

  it('accepts a key of exactly 1024 bytes', () => {
    const key = 'k'.repeat(1024)
    expect(parseKeyMap(`a/** => ${key}`).map((m) => m.key)).toEqual([key])
  })
})

describe('deriving targets from changed files', () => {
  const urlMap = parseUrlMap(SITE)

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
    const map = parseUrlMap('content/posts/ => https://www.example.com/blog')
    expect(urls(deriveTargets(['content/posts/hello.html'], map, []))).toEqual([
      'https://www.example.com/blog/hello.html'
    ])
  })

  it('applies every matching url-map line, so a site served on two hosts is purged on both', () => {
    const map = parseUrlMap('public/ => https://a.example/\npublic/ => https://b.example/')
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
    const keyMap = parseKeyMap('public/blog/** => blog\npublic/** => site')
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
      'public/ => https://x.example/\npublic/docs/ => https://x.example/docs/'
    )
    expect(deriveTargets(['public/docs/a.html'], map, [])).toEqual([
      { type: 'url', target: 'https://x.example/docs/a.html', file: 'public/docs/a.html' }
    ])
  })

  it('derives nothing when no map covers the changed files', () => {
    expect(deriveTargets(['src/app.ts'], urlMap, parseKeyMap('content/** => c'))).toEqual([])
  })

  it('derives URLs and keys that pass the same validation as urls and keys', () => {
    const file = fc.stringMatching(/^[a-zA-Z0-9 ._~!$&'()*+,;=:@%#?\\\u00e9\u4e2d-]{1,12}$/)
    const path = fc
      .array(file, { minLength: 1, maxLength: 4 })
      .filter((segments) => segments.every((s) => s !== '.' && s !== '..'))
      .map((segments) => `public/${segments.join('/')}`)
    const keyMap = parseKeyMap('public/** => site')
    fc.assert(
      fc.property(fc.array(path, { minLength: 1, maxLength: 5 }), (files) => {
        const targets = deriveTargets(files, urlMap, keyMap)
        const derivedUrls = urls(targets)
        // As a JSON array: in text, a comma ending a file name would be read as a separator.
        const parsed = parseUrls([JSON.stringify(derivedUrls), 'urls'])
        // Valid, one item each (no whitespace), and already in the URL parser's form.
        expect(parsed.map((entry) => entry.target)).toEqual(derivedUrls)
        expect(parsed.map((entry) => entry.url.href)).toEqual(derivedUrls)
        expect(parseKeys([keys(targets).join('\n'), 'keys'])).toEqual(['site'])
      })
    )
  })
})

describe('the path of a derived URL', () => {
  it('decodes back to the file’s path under the url-map prefix, segment by segment, keeping /', () => {
    const map = parseUrlMap('public/ => https://x.example/')
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

describe('the range an event asks for', () => {
  const sha = (digit: string): string => digit.repeat(40)

  it('is before...after for a push: the whole push, not its last commit', () => {
    const range = eventRange({
      eventName: 'push',
      sha: sha('b'),
      payload: { ref: 'refs/heads/main', before: sha('a'), after: sha('b'), forced: false }
    })
    expect(range).toEqual({
      kind: 'push',
      base: sha('a'),
      head: sha('b'),
      ref: 'refs/heads/main',
      forced: false
    })
  })

  it('notices a push that created the branch (before is all zeros)', () => {
    const range = eventRange({
      eventName: 'push',
      sha: sha('b'),
      payload: { ref: 'refs/heads/feature', before: sha('0'), after: sha('b'), created: true }
    })
    expect(range).toEqual({ kind: 'new-branch', head: sha('b'), ref: 'refs/heads/feature' })
  })

  it('notices a push that deleted the branch', () => {
    const range = eventRange({
      eventName: 'push',
      sha: '',
      payload: { ref: 'refs/heads/old', before: sha('a'), after: sha('0'), deleted: true }
    })
    expect(range).toEqual({ kind: 'deleted-branch', ref: 'refs/heads/old' })
  })

  it('is the release for a release event, and nothing for other events', () => {
    const release = {
      id: 7,
      tag_name: 'v2.0.0',
      draft: false,
      published_at: '2025-01-02T00:00:00Z'
    }
    expect(eventRange({ eventName: 'release', sha: sha('c'), payload: { release } })).toEqual({
      kind: 'release',
      head: sha('c'),
      release: { id: 7, tagName: 'v2.0.0', draft: false, publishedAt: '2025-01-02T00:00:00Z' }
    })
    expect(eventRange({ eventName: 'workflow_dispatch', sha: sha('c'), payload: {} })).toEqual({
      kind: 'none',
      head: sha('c')
    })
  })

  it('ends at the commit the triggering workflow ran on for workflow_run, not GITHUB_SHA', () => {
    const range = eventRange({
      eventName: 'workflow_run',
      sha: sha('f'),
      payload: { workflow_run: { head_sha: sha('d'), head_branch: 'main' } }
    })
    expect(range).toEqual({ kind: 'none', head: sha('d') })
  })
})

describe('the commit a run deployed', () => {
  const sha = (digit: string): string => digit.repeat(40)
  /** GITHUB_SHA of every event below: the commit each must name only when the event says no other. */
  const RUN_SHA = sha('f')
  const deployed = (eventName: string, payload: Record<string, unknown> = {}): string =>
    deployedCommit({ eventName, sha: RUN_SHA, payload })

  it('is the push’s after', () => {
    expect(deployed('push', { before: sha('a'), after: sha('b') })).toBe(sha('b'))
  })

  it('is the pull request’s head, not the merge commit GitHub makes for the run', () => {
    const payload = { pull_request: { head: { sha: sha('a') } } }
    expect(deployed('pull_request', payload)).toBe(sha('a'))
    expect(deployed('pull_request_target', payload)).toBe(sha('a'))
  })

  it('is the commit the triggering workflow ran on for workflow_run', () => {
    expect(deployed('workflow_run', { workflow_run: { head_sha: sha('d') } })).toBe(sha('d'))
  })

  it.each([
    ['a branch name', { workflow_run: { head_sha: 'main' } }],
    ['a short SHA', { workflow_run: { head_sha: 'ddddddd' } }],
    ['not hex', { workflow_run: { head_sha: 'g'.repeat(40) } }],
    ['a SHA with a line after it', { workflow_run: { head_sha: `${sha('d')}\nmain` } }],
    ['a number', { workflow_run: { head_sha: 42 } }],
    ['no head_sha', { workflow_run: {} }],
    ['no workflow_run', {}],
    ['a workflow_run that is not an object', { workflow_run: 'd' }]
  ])('falls back to GITHUB_SHA on workflow_run when head_sha is %s', (_what, payload) => {
    expect(deployed('workflow_run', payload)).toBe(RUN_SHA)
  })

  it('is GITHUB_SHA for release, workflow_dispatch and schedule', () => {
    expect(deployed('release', { release: { id: 7, tag_name: 'v2.0.0' } })).toBe(RUN_SHA)
    expect(deployed('workflow_dispatch')).toBe(RUN_SHA)
    expect(deployed('schedule', { schedule: '0 3 * * *' })).toBe(RUN_SHA)
  })
})

describe('the previous release', () => {
  const release = (
    id: number,
    tagName: string,
    publishedAt: string | null,
    draft = false
  ): ReleaseInfo => ({ id, tagName, publishedAt, draft })
  const current = release(5, 'v1.3.0', '2025-03-01T00:00:00Z')

  it('is the newest release published before this one, skipping drafts', () => {
    const releases = [
      current,
      release(4, 'v1.4.0-draft', null, true),
      // Published once, then turned back into a draft: not what the site was deployed from.
      release(7, 'v1.2.1', '2025-02-15T00:00:00Z', true),
      release(2, 'v1.1.0', '2025-01-01T00:00:00Z'),
      release(3, 'v1.2.0-rc.1', '2025-02-01T00:00:00Z'),
      release(6, 'v1.3.1', '2025-04-01T00:00:00Z')
    ]
    expect(previousRelease(releases, current)?.tagName).toBe('v1.2.0-rc.1')
  })

  it('does not exist for the first release', () => {
    expect(previousRelease([current, release(4, 'draft', null, true)], current)).toBeUndefined()
  })
})

describe('describing a range for the log', () => {
  it('shortens SHAs and counts commits', () => {
    const before = 'abc1234'.padEnd(40, '0')
    const after = 'def5678'.padEnd(40, '9')
    expect(describeRange('push', before, after, 3)).toBe('push abc1234...def5678 (3 commits)')
    expect(describeRange('input', 'main', after, 1)).toBe('changed-since main...def5678 (1 commit)')
    expect(describeRange('release', 'v1.0.0', after, 2, 'v1.1.0')).toBe(
      'release v1.1.0: v1.0.0...def5678 (2 commits)'
    )
  })
})
