/**
 * Listing the files a range changed: the comparison's own list, or every commit's files across
 * GitHub's pages and caps, and how a failed call names the token. Against the fake GitHub API,
 * read through the runner's client.
 */
import { describe, expect, it } from '@jest/globals'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { compare, filesOfRange } from '../src/stages/changed-files/range-files.js'
import type { ComparedRange } from '../src/record/index.js'
import { hideSecrets } from '../src/text/guard.js'
import { inputError } from './support/input-error.js'
import { recordedLog } from './support/recorded-log.js'
import type { Change, FakeGitHubApi } from '../tools/fake-github-api/server.js'
import {
  ACCESS,
  connect,
  numbered,
  pushEvent,
  short,
  siteRoot,
  TOKEN,
  writes,
  fakeGitHubEachTest,
  type Access
} from './support/site-repository.js'

let api: FakeGitHubApi
fakeGitHubEachTest({ tokens: { [TOKEN]: 'read', 'gh-no-contents': 'none' } }, (started) => {
  api = started
})

/** The files of `base...head` as a push's range, read from the fake GitHub API. */
async function filesOf(access: Access, base: string, head: string): Promise<ComparedRange> {
  const github = await connect(access, pushEvent(base, head), recordedLog())
  const comparison = await compare(github, base, head)
  if (comparison.kind !== 'ancestor') throw new Error(`${base} is not an ancestor of ${head}`)
  const range = { base, head, origin: 'push' as const, notes: [], comparison: comparison.page }
  return filesOfRange(github, range)
}

const requestsTo = (pattern: RegExp): number => api.requestsTo(pattern).length

describe('the files a range lists', () => {
  it('counts removed files, and a renamed file under its old and its new name', async () => {
    const root = siteRoot(api)
    const after = api.commit(root, [
      { remove: 'public/old.html' },
      { rename: 'public/a.html', to: 'public/renamed/a.html' }
    ])
    const report = await filesOf(ACCESS, root, after)
    expect(report.files).toEqual(['public/a.html', 'public/old.html', 'public/renamed/a.html'])
  })
})

describe("GitHub's file limits", () => {
  it('uses the comparison when it lists fewer than 300 files', async () => {
    const root = siteRoot(api)
    const after = api.commit(root, writes(numbered('public/p', 299)))
    const report = await filesOf(ACCESS, root, after)
    expect(report.method).toBe('compare')
    expect(report.files).toHaveLength(299)
    expect(requestsTo(/\/commits\//)).toBe(0)
  })

  it('gathers files commit by commit when the comparison lists 300, which may be cut', async () => {
    const root = siteRoot(api)
    const after = api.commit(root, writes(numbered('public/p', 300)))
    const report = await filesOf(ACCESS, root, after)
    expect(report.method).toBe('per-commit')
    expect(report.files).toEqual(numbered('public/p', 300))
  })

  it('unites the files of every commit across paged commits and paged commit files', async () => {
    const root = siteRoot(api)
    const big = numbered('public/big/f', 700)
    // 150 commits (two pages of 100), one of them with 700 files (three pages of 300), a rename
    // and a removal among them: 855 changed paths, far past the comparison's 300.
    const changes: Change[][] = [
      writes(big),
      [{ rename: 'public/a.html', to: 'public/moved/a.html' }],
      [{ remove: 'public/old.html' }],
      ...numbered('public/small/s', 147).map((path) => writes([path]))
    ]
    const shas = api.chain(root, changes)
    const after = shas[shas.length - 1] as string

    const report = await filesOf(ACCESS, root, after)

    const expected = [
      ...big,
      'public/a.html',
      'public/moved/a.html',
      'public/old.html',
      ...numbered('public/small/s', 147)
    ].sort()
    expect(report).toMatchObject({ method: 'per-commit', commits: 150 })
    expect(report.files).toEqual(expected)
    expect(report.description).toBe(`push ${short(root)}...${short(after)} (150 commits)`)
    const comparePages = api.requestsTo(/\/compare\//).map((r) => r.query.get('page'))
    expect(comparePages).toEqual(['1', '1', '2'])
    const bigPages = api.requestsTo(new RegExp(`/commits/${shas[0]}$`))
    expect(bigPages.map((r) => r.query.get('page'))).toEqual(['1', '2', '3'])
    expect(requestsTo(/\/commits\//)).toBe(150 + 2)
  })

  it('fails, suggesting mode: all, when a commit reaches GitHub’s 3,000 files', async () => {
    const root = siteRoot(api)
    const huge = api.commit(root, writes(numbered('public/h/', 3000)))
    const after = api.commit(huge, writes(['public/a.html']))
    const message = await inputError(filesOf(ACCESS, root, after))
    expect(message).toContain(`commit ${short(huge)}`)
    expect(message).toContain('at least 3,000 files')
    expect(message).toContain('mode: all')
  })

  it('fails when a commit has more than 3,000 files, of which GitHub lists 3,000', async () => {
    const root = siteRoot(api)
    const after = api.commit(root, writes(numbered('public/h/', 3500)))
    const message = await inputError(filesOf(ACCESS, root, after))
    expect(message).toContain('mode: all')
    // Every page GitHub offers was read before deciding: 3,000 files at 300 a page.
    expect(requestsTo(/\/commits\//)).toBe(10)
  })

  it('accepts a commit of 2,999 files', async () => {
    const root = siteRoot(api)
    const after = api.commit(root, writes(numbered('public/h/', 2999)))
    const report = await filesOf(ACCESS, root, after)
    expect(report.files).toHaveLength(2999)
  })
})

describe('github-token', () => {
  it('is named when GitHub rejects it', async () => {
    const root = siteRoot(api)
    const after = api.commit(root, writes(['public/a.html']))
    const access = { ...ACCESS, githubToken: 'gh-wrong' }
    const message = await inputError(filesOf(access, root, after))
    expect(message).toMatch(/^github-token: GitHub rejected the token \(401/)
  })

  it('is named, with the permission it needs, when it cannot read contents', async () => {
    const root = siteRoot(api)
    const after = api.commit(root, writes(['public/a.html']))
    const access = { ...ACCESS, githubToken: 'gh-no-contents' }
    const message = await inputError(filesOf(access, root, after))
    expect(message).toMatch(/^github-token: GitHub refused to compare .* \(403/)
    expect(message).toContain('contents: read')
  })

  it.each([401, 403, 500])(
    'never reaches a message when a %i answer echoes it, raw, URL-encoded or base64',
    async (status) => {
      const token = 'ghs_Echo/Me+9fQ2xL7vR4mN8'
      const echo = createServer((request, response) => {
        const sent = /^(?:token|bearer) (.+)$/i.exec(request.headers.authorization ?? '')?.[1] ?? ''
        const spellings = [
          sent,
          encodeURIComponent(sent),
          Buffer.from(`x:${sent}`).toString('base64')
        ]
        response.writeHead(status, { 'Content-Type': 'application/json' })
        response.end(JSON.stringify({ message: `Bad token ${spellings.join(' ')}` }))
      })
      await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve))
      process.env.GITHUB_API_URL = `http://127.0.0.1:${(echo.address() as AddressInfo).port}`
      // The runner door registers both tokens with the guard before anything runs.
      hideSecrets([token])
      try {
        const access = { ...ACCESS, githubToken: token }
        const failure = await filesOf(access, 'a'.repeat(40), 'b'.repeat(40)).then(
          () => new Error('expected a failure'),
          (reason: unknown) => reason as Error
        )
        expect(failure.message).toContain('Bad token *** *** eDp***')
        expect(failure.message).not.toContain('9fQ2')
      } finally {
        hideSecrets([])
        await new Promise<void>((resolve) => echo.close(() => resolve()))
      }
    }
  )
})
