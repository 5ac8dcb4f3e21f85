/**
 * Listing the files a range changed: the comparison's own list, or past GitHub's 300 files the
 * difference of the two commits' trees, and how a failed call names the token. Against the fake
 * GitHub API, read through the runner's client.
 */
import { describe, expect, it } from '@jest/globals'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { compare, filesOfRange } from '../../../src/capabilities/changed-files/range-files.js'
import type { ComparedRange } from '../../../src/capabilities/changed-files/record.js'
import { InputError } from '../../../src/config/input-error.js'
import { inputError } from '../../support/input-error.js'
import { recordedLog } from '../../support/recorded-log.js'
import type { Change, FakeGitHubApi } from '../../../tools/fake-github-api/server.js'
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
} from '../../support/site-repository.js'

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
    expect(requestsTo(/\/git\/trees\//)).toBe(0)
  })

  it('compares the two trees when the comparison lists 300, which may be cut', async () => {
    const root = siteRoot(api)
    const after = api.commit(root, writes(numbered('public/p', 300)))
    const report = await filesOf(ACCESS, root, after)
    expect(report).toMatchObject({ method: 'trees', commits: 1 })
    expect(report.files).toEqual(numbered('public/p', 300))
    expect(requestsTo(/\/git\/trees\//)).toBe(2)
  })

  it('lists a push of 300 files or more over more than 250 commits by the two trees, in 2 calls', async () => {
    const root = siteRoot(api)
    const big = numbered('public/big/f', 700)
    // 260 commits, one of them with 700 files, a rename, a removal, and a page changed and changed
    // back: 958 paths differ, far past the comparison’s 300 files and 250 commits.
    const changes: Change[][] = [
      writes(big),
      [{ rename: 'public/a.html', to: 'public/moved/a.html' }],
      [{ remove: 'public/old.html' }],
      [{ rename: 'public/index.html', to: 'public/tmp.html' }],
      [{ rename: 'public/tmp.html', to: 'public/index.html' }],
      ...numbered('public/small/s', 255).map((path) => writes([path]))
    ]
    const shas = api.chain(root, changes)
    const after = shas[shas.length - 1] as string

    const report = await filesOf(ACCESS, root, after)

    const expected = [
      ...big,
      'public/a.html',
      'public/moved/a.html',
      'public/old.html',
      ...numbered('public/small/s', 255)
    ].sort()
    expect(report).toMatchObject({ method: 'trees', commits: 260 })
    expect(report.files).toEqual(expected)
    expect(report.description).toBe(`push ${short(root)}...${short(after)} (260 commits)`)
    expect(requestsTo(/\/compare\//)).toBe(1)
    expect(api.requestsTo(/\/git\/trees\//).map((request) => request.path)).toEqual([
      `/repos/acme/site/git/trees/${root}`,
      `/repos/acme/site/git/trees/${after}`
    ])
    expect(api.requests).toHaveLength(3)
  })

  it('fails, suggesting mode: all, when GitHub lists a tree only in part', async () => {
    const root = siteRoot(api)
    const after = api.commit(root, writes(numbered('public/p', 300)))
    api.truncateTree(after)
    const message = await inputError(filesOf(ACCESS, root, after))
    expect(message).toBe(
      `changed-files: GitHub lists the tree of ${short(after)} only in part (over 100,000 entries or 7 MB), so the changed files cannot all be known; purge everything with mode: all`
    )
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
    expect(message).toMatch(
      /^github-token: GitHub refused to compare .* \(403: .*\); the token needs contents: read$/
    )
  })

  it('is not blamed when GitHub fails: the comparison is named, with GitHub’s status', async () => {
    const root = siteRoot(api)
    const after = api.commit(root, writes(['public/a.html']))
    api.fault({ path: /\/compare\//, fault: { kind: 'reply', status: 502 } })
    const failure = await filesOf(ACCESS, root, after).then(
      () => new Error('expected a failure'),
      (reason: unknown) => reason as Error
    )
    expect(failure).not.toBeInstanceOf(InputError)
    expect(failure.message).toMatch(
      /^GitHub API: could not compare \w{7}\.\.\.\w{7} in acme\/site: 502: /
    )
    expect(requestsTo(/\/compare\//)).toBe(1)
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
      // The runner door's guard hides the token the client holds.
      try {
        const access = { ...ACCESS, githubToken: token }
        const base64 = Buffer.from(`x:${token}`).toString('base64')
        const failure = await filesOf(access, 'a'.repeat(40), 'b'.repeat(40)).then(
          () => new Error('expected a failure'),
          (reason: unknown) => reason as Error
        )
        expect(failure.message).toContain('Bad token')
        for (const spelling of [token, encodeURIComponent(token), base64, '9fQ2']) {
          expect(failure.message).not.toContain(spelling)
        }
      } finally {
        await new Promise<void>((resolve) => echo.close(() => resolve()))
      }
    }
  )
})
