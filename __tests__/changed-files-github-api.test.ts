/**
 * Finding the files a run's commits changed, through `@actions/github` against a fake GitHub API
 * that GITHUB_API_URL points at, as the runner points the action at GitHub.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { findChangedFiles } from '../src/stages/changed-files/github-api.js'
import type { ComparedRange } from '../src/record.js'
import { systemClock } from '../src/clock.js'
import { connectGitHub } from '../src/runner/github.js'
import { hideSecrets } from '../src/text/guard.js'
import { inputError } from './support/input-error.js'
import { recordedLog } from './support/recorded-log.js'
import { FakeGitHubApi, type Change } from './support/fake-github-api.js'
import type { RunEvent } from '../src/github.js'

const TOKEN = 'gh-test-token'
interface Access {
  githubToken: string
  owner: string
  repo: string
}

const ACCESS: Access = { githubToken: TOKEN, owner: 'acme', repo: 'site' }
const ZERO = '0'.repeat(40)

let api: FakeGitHubApi
let savedApiUrl: string | undefined

beforeEach(async () => {
  logged = recordedLog()
  api = await FakeGitHubApi.start({ tokens: { [TOKEN]: 'read', 'gh-no-contents': 'none' } })
  savedApiUrl = process.env.GITHUB_API_URL
  process.env.GITHUB_API_URL = api.url
})

afterEach(async () => {
  if (savedApiUrl === undefined) delete process.env.GITHUB_API_URL
  else process.env.GITHUB_API_URL = savedApiUrl
  await api.close()
})

/** The warnings the stage logs while `run` runs. */
async function warningsDuring(run: () => Promise<unknown>): Promise<string[]> {
  const log = recordedLog()
  logged = log
  await run()
  return log.lines.filter((line) => line.startsWith('warning: '))
}

/** Where `find` logs: a fresh log per test unless `warningsDuring` sets one. */
let logged = recordedLog()

/** The files the run's range changed, read from the fake GitHub API through the runner's client. */
async function find(access: Access, event: RunEvent, changedSince: string): Promise<ComparedRange> {
  const github = await connectGitHub(
    {
      token: access.githubToken,
      owner: access.owner,
      repo: access.repo,
      event,
      baseUrl: process.env.GITHUB_API_URL ?? ''
    },
    {
      maxAttempts: 1,
      timeoutMs: 10_000,
      clock: systemClock,
      signal: new AbortController().signal,
      log: logged
    }
  )
  return findChangedFiles(github, changedSince, logged)
}

function pushEvent(before: string, after: string, extra: Record<string, unknown> = {}): RunEvent {
  const payload = { ref: 'refs/heads/main', before, after, forced: false, ...extra }
  return { eventName: 'push', sha: after, payload, runId: '', runUrl: '' }
}

function dispatchEvent(sha: string): RunEvent {
  return { eventName: 'workflow_dispatch', sha, payload: {}, runId: '', runUrl: '' }
}

const writes = (paths: string[]): Change[] => paths.map((path) => ({ write: path }))
const numbered = (prefix: string, count: number): string[] =>
  Array.from({ length: count }, (_, index) => `${prefix}${String(index).padStart(4, '0')}.html`)

/** A repository whose first commit holds a small site. */
function siteRoot(): string {
  return api.commit(null, writes(['public/index.html', 'public/a.html', 'public/old.html']))
}

const short = (sha: string): string => sha.slice(0, 7)
const requestsTo = (pattern: RegExp): number => api.requestsTo(pattern).length

describe('a push', () => {
  it('lists the files of every commit of the push, not only the last one', async () => {
    const root = siteRoot()
    const [, , after] = api.chain(root, [
      writes(['public/a.html']),
      writes(['public/blog/post.html']),
      writes(['public/css/site.css'])
    ]) as [string, string, string]

    const report = await find(ACCESS, pushEvent(root, after), '')

    expect(report).toMatchObject({
      files: ['public/a.html', 'public/blog/post.html', 'public/css/site.css'],
      commits: 3,
      method: 'compare',
      base: root,
      head: after,
      source: 'push',
      description: `push ${short(root)}...${short(after)} (3 commits)`,
      notes: []
    })
  })

  it('reads GitHub at GITHUB_API_URL, authenticated with github-token', async () => {
    const root = siteRoot()
    const after = api.commit(root, writes(['public/a.html']))
    await find(ACCESS, pushEvent(root, after), '')
    expect(api.requests.length).toBeGreaterThan(0)
    for (const request of api.requests) {
      expect(request.headers.authorization).toBe(`token ${TOKEN}`)
      expect(request.path).toBe(`/repos/acme/site/compare/${root}...${after}`)
    }
  })

  it('counts removed files, and a renamed file under its old and its new name', async () => {
    const root = siteRoot()
    const after = api.commit(root, [
      { remove: 'public/old.html' },
      { rename: 'public/a.html', to: 'public/renamed/a.html' }
    ])
    const report = await find(ACCESS, pushEvent(root, after), '')
    expect(report.files).toEqual(['public/a.html', 'public/old.html', 'public/renamed/a.html'])
  })

  it('lists nothing for a push that changed no files', async () => {
    const root = siteRoot()
    let report: unknown
    const warnings = await warningsDuring(async () => {
      report = await find(ACCESS, pushEvent(root, root), '')
    })
    expect(report).toMatchObject({ files: [], commits: 0, method: 'compare' })
    expect(warnings).toHaveLength(1)
  })

  it('uses its own range even when changed-since is set, and says so', async () => {
    const root = siteRoot()
    const middle = api.commit(root, writes(['public/a.html']))
    const after = api.commit(middle, writes(['public/b.html']))
    api.branch('deployed', root)
    const report = await find(ACCESS, pushEvent(middle, after), 'deployed')
    expect(report.files).toEqual(['public/b.html'])
    expect(report.notes).toEqual([expect.stringContaining('was not needed')])
  })
})

describe("GitHub's file limits", () => {
  it('uses the comparison when it lists fewer than 300 files', async () => {
    const root = siteRoot()
    const after = api.commit(root, writes(numbered('public/p', 299)))
    const report = await find(ACCESS, pushEvent(root, after), '')
    expect(report.method).toBe('compare')
    expect(report.files).toHaveLength(299)
    expect(requestsTo(/\/commits\//)).toBe(0)
  })

  it('gathers files commit by commit when the comparison lists 300, which may be cut', async () => {
    const root = siteRoot()
    const after = api.commit(root, writes(numbered('public/p', 300)))
    const report = await find(ACCESS, pushEvent(root, after), '')
    expect(report.method).toBe('per-commit')
    expect(report.files).toEqual(numbered('public/p', 300))
  })

  it('unites the files of every commit across paged commits and paged commit files', async () => {
    const root = siteRoot()
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

    const report = await find(ACCESS, pushEvent(root, after), '')

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
    const root = siteRoot()
    const huge = api.commit(root, writes(numbered('public/h/', 3000)))
    const after = api.commit(huge, writes(['public/a.html']))
    const message = await inputError(find(ACCESS, pushEvent(root, after), ''))
    expect(message).toContain(`commit ${short(huge)}`)
    expect(message).toContain('at least 3,000 files')
    expect(message).toContain('mode: all')
  })

  it('fails when a commit has more than 3,000 files, of which GitHub lists 3,000', async () => {
    const root = siteRoot()
    const after = api.commit(root, writes(numbered('public/h/', 3500)))
    const message = await inputError(find(ACCESS, pushEvent(root, after), ''))
    expect(message).toContain('mode: all')
    // Every page GitHub offers was read before deciding: 3,000 files at 300 a page.
    expect(requestsTo(/\/commits\//)).toBe(10)
  })

  it('accepts a commit of 2,999 files', async () => {
    const root = siteRoot()
    const after = api.commit(root, writes(numbered('public/h/', 2999)))
    const report = await find(ACCESS, pushEvent(root, after), '')
    expect(report.files).toHaveLength(2999)
  })
})

describe('a push whose before cannot be compared', () => {
  it('fails for a new branch without changed-since, saying what to set', async () => {
    const root = siteRoot()
    const after = api.commit(root, writes(['public/a.html']))
    const event = pushEvent(ZERO, after, { ref: 'refs/heads/feature', created: true })
    const message = await inputError(find(ACCESS, event, ''))
    expect(message).toMatch(/^changed-since: this push created refs\/heads\/feature/)
    expect(message).toContain('Set changed-since')
    expect(message).toContain('mode: all')
    expect(api.requests).toEqual([])
  })

  it('compares a new branch against changed-since, and says so', async () => {
    const root = siteRoot()
    api.branch('main', root)
    const first = api.commit(root, writes(['public/a.html']))
    const after = api.commit(first, writes(['public/b.html']))
    const event = pushEvent(ZERO, after, { ref: 'refs/heads/feature', created: true })
    const report = await find(ACCESS, event, 'main')
    expect(report).toMatchObject({
      files: ['public/a.html', 'public/b.html'],
      base: 'main',
      source: 'input',
      description: `changed-since main...${short(after)} (2 commits)`
    })
    expect(report.notes).toEqual([
      expect.stringMatching(/created refs\/heads\/feature.*changed-since "main" instead/)
    ])
  })

  it('fails for a force-push whose before GitHub no longer knows', async () => {
    const root = siteRoot()
    const after = api.commit(root, writes(['public/a.html']))
    const vanished = 'f'.repeat(40)
    const event = pushEvent(vanished, after, { forced: true })
    const message = await inputError(find(ACCESS, event, ''))
    expect(message).toContain('this push was forced')
    expect(message).toContain(`${short(vanished)} is unknown to GitHub`)
    expect(message).toContain('Set changed-since')
  })

  it('falls back to changed-since after a force-push, and says so', async () => {
    const root = siteRoot()
    api.branch('deployed', root)
    const after = api.commit(root, writes(['public/a.html']))
    const event = pushEvent('f'.repeat(40), after, { forced: true })
    const report = await find(ACCESS, event, 'deployed')
    expect(report).toMatchObject({ files: ['public/a.html'], source: 'input' })
    expect(report.notes).toEqual([expect.stringContaining('unknown to GitHub')])
  })

  it('fails for a force-push that replaced commits, whose before is not an ancestor', async () => {
    const root = siteRoot()
    const replaced = api.commit(root, writes(['public/draft.html']))
    const after = api.commit(root, writes(['public/a.html']))
    const event = pushEvent(replaced, after, { forced: true })
    const message = await inputError(find(ACCESS, event, ''))
    // Comparing anyway would miss public/draft.html, which is cached and now gone.
    expect(message).toContain(`${short(replaced)} is not an ancestor of its after ${short(after)}`)
    expect(message).toContain('diverged')
  })

  it('fails for a force-push that moved the branch back', async () => {
    const root = siteRoot()
    const later = api.commit(root, writes(['public/a.html']))
    const message = await inputError(find(ACCESS, pushEvent(later, root, { forced: true }), ''))
    expect(message).toContain('moved the branch back')
  })

  it('fails when changed-since is not an ancestor either', async () => {
    const root = siteRoot()
    const elsewhere = api.commit(root, writes(['public/x.html']))
    api.branch('elsewhere', elsewhere)
    const after = api.commit(root, writes(['public/a.html']))
    const event = pushEvent(ZERO, after, { created: true })
    const message = await inputError(find(ACCESS, event, 'elsewhere'))
    expect(message).toMatch(/^changed-since: "elsewhere" is not an ancestor/)
    expect(message).toContain('this push created')
  })
})

describe('a range from a commit to itself', () => {
  it('warns, naming both, when changed-since is the branch a force-push already moved', async () => {
    const root = siteRoot()
    const after = api.commit(root, writes(['public/a.html']))
    // A force-push to main deployed with changed-since: main: by the time the run reads it, main is
    // the push's own after.
    api.branch('main', after)
    const event = pushEvent('f'.repeat(40), after, { forced: true })
    let files: string[] = []
    const warnings = await warningsDuring(async () => {
      files = (await find(ACCESS, event, 'main')).files
    })
    expect(files).toEqual([])
    expect(warnings).toEqual([
      expect.stringMatching(
        new RegExp(
          `changed-since "main" is the same commit as this run's ${short(after)}, so comparing them finds no changed file`
        )
      )
    ])
  })

  it('does not warn when the range holds commits', async () => {
    const root = siteRoot()
    api.branch('deployed', root)
    const after = api.commit(root, writes(['public/a.html']))
    const event = pushEvent('f'.repeat(40), after, { forced: true })
    const warnings = await warningsDuring(() => find(ACCESS, event, 'deployed'))
    expect(warnings).toEqual([])
  })
})

describe('a release', () => {
  function releaseEvent(id: number, tag: string, sha: string, publishedAt: string): RunEvent {
    const release = {
      id,
      tag_name: tag,
      draft: false,
      prerelease: false,
      published_at: publishedAt
    }
    return {
      eventName: 'release',
      sha,
      payload: { action: 'published', release },
      runId: '',
      runUrl: ''
    }
  }

  it('is compared against the previous release’s tag', async () => {
    const root = siteRoot()
    // Older releases fill more than one page of the releases list.
    for (let index = 0; index < 120; index += 1) {
      const day = String(1 + (index % 28)).padStart(2, '0')
      api.release({ tag: `v0.${index}`, sha: root, publishedAt: `2024-01-${day}T00:00:00Z` })
    }
    const v1 = api.commit(root, writes(['public/a.html']))
    api.release({ tag: 'v1.0.0', sha: v1, publishedAt: '2025-01-01T00:00:00Z' })
    const work = api.commit(v1, writes(['public/blog/post.html']))
    const v11 = api.commit(work, [{ remove: 'public/old.html' }])
    api.release({ tag: 'v1.2.0-draft', sha: v11, publishedAt: '2025-02-02T00:00:00Z', draft: true })
    const id = api.release({ tag: 'v1.1.0', sha: v11, publishedAt: '2025-02-01T00:00:00Z' })

    const report = await find(ACCESS, releaseEvent(id, 'v1.1.0', v11, '2025-02-01T00:00:00Z'), '')

    expect(report).toMatchObject({
      files: ['public/blog/post.html', 'public/old.html'],
      base: 'v1.0.0',
      source: 'release',
      description: `release v1.1.0: v1.0.0...${short(v11)} (2 commits)`
    })
    expect(api.requestsTo(/\/releases$/).map((r) => r.query.get('page') ?? '1')).toEqual(['1', '2'])
  })

  it('needs changed-since for the first release', async () => {
    const root = siteRoot()
    const id = api.release({ tag: 'v1.0.0', sha: root, publishedAt: '2025-01-01T00:00:00Z' })
    const event = releaseEvent(id, 'v1.0.0', root, '2025-01-01T00:00:00Z')
    const message = await inputError(find(ACCESS, event, ''))
    expect(message).toContain('v1.0.0 is the first published release')
    expect(message).toContain('Set changed-since')
  })
})

describe('other events', () => {
  it('require changed-since', async () => {
    const root = siteRoot()
    const event = dispatchEvent(root)
    const message = await inputError(find(ACCESS, event, ''))
    expect(message).toMatch(/^changed-since is required for workflow_dispatch events/)
  })

  it('compare changed-since with the run’s commit', async () => {
    const root = siteRoot()
    api.branch('deployed', root)
    const head = api.commit(root, writes(['public/a.html']))
    const event = dispatchEvent(head)
    const report = await find(ACCESS, event, 'deployed')
    expect(report).toMatchObject({ files: ['public/a.html'], source: 'input', notes: [] })
  })

  it('name changed-since when GitHub does not know it', async () => {
    const root = siteRoot()
    const event = dispatchEvent(root)
    const message = await inputError(find(ACCESS, event, 'no-such-branch'))
    expect(message).toMatch(/^changed-since: "no-such-branch" is not a commit, branch or tag/)
  })
})

describe('github-token', () => {
  it('is named when GitHub rejects it', async () => {
    const root = siteRoot()
    const after = api.commit(root, writes(['public/a.html']))
    const access = { ...ACCESS, githubToken: 'gh-wrong' }
    const message = await inputError(find(access, pushEvent(root, after), ''))
    expect(message).toMatch(/^github-token: GitHub rejected the token \(401/)
  })

  it('is named, with the permission it needs, when it cannot read contents', async () => {
    const root = siteRoot()
    const after = api.commit(root, writes(['public/a.html']))
    const access = { ...ACCESS, githubToken: 'gh-no-contents' }
    const message = await inputError(find(access, pushEvent(root, after), ''))
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
        const failure = await find(access, pushEvent('a'.repeat(40), 'b'.repeat(40)), '').then(
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
