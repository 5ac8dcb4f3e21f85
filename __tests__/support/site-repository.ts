/**
 * A site's repository on the fake GitHub API, read through the runner's client at GITHUB_API_URL
 * as the runner points the action at GitHub: what the changed-files suites share.
 */
import { systemClock } from '../../src/clock.js'
import type { GitHubRepository, RunEvent } from '../../src/github.js'
import type { StepLog } from '../../src/log.js'
import { connectGitHub } from '../../src/github-api/github-client.js'
import { guardAgainst } from '../../src/text/guard.js'
import { afterEach, beforeEach } from '@jest/globals'
import {
  FakeGitHubApi,
  type Change,
  type FakeGitHubOptions
} from '../../tools/fake-github-api/server.js'

/** The token the fake GitHub API grants contents: read. */
export const TOKEN = 'gh-test-token'

export interface Access {
  githubToken: string
  owner: string
  repo: string
}

export const ACCESS: Access = { githubToken: TOKEN, owner: 'acme', repo: 'site' }

/**
 * The repository `access` opens for `event` at `baseUrl` (GITHUB_API_URL's), one attempt a call,
 * its token hidden by the run's guard as the runner door hides it.
 */
export function connect(
  access: Access,
  event: RunEvent,
  log: StepLog,
  baseUrl = process.env.GITHUB_API_URL ?? ''
): Promise<GitHubRepository> {
  return connectGitHub(
    { token: access.githubToken, owner: access.owner, repo: access.repo, event, baseUrl },
    {
      guard: guardAgainst([access.githubToken]),
      maxAttempts: 1,
      timeoutMs: 10_000,
      clock: systemClock,
      signal: new AbortController().signal,
      log
    }
  )
}

export function pushEvent(
  before: string,
  after: string,
  extra: Record<string, unknown> = {}
): RunEvent {
  const payload = { ref: 'refs/heads/main', before, after, forced: false, ...extra }
  return { eventName: 'push', sha: after, payload, runId: '', runUrl: '' }
}

export const writes = (paths: string[]): Change[] => paths.map((path) => ({ write: path }))
export const numbered = (prefix: string, count: number): string[] =>
  Array.from({ length: count }, (_, index) => `${prefix}${String(index).padStart(4, '0')}.html`)

/** A repository whose first commit holds a small site. */
export function siteRoot(api: FakeGitHubApi): string {
  return api.commit(null, writes(['public/index.html', 'public/a.html', 'public/old.html']))
}

export const short = (sha: string): string => sha.slice(0, 7)

/**
 * A fake GitHub API for each test, with GITHUB_API_URL pointing at it while the test runs (a test
 * may point it elsewhere): started before the test and handed to `onStart`, closed after it, and
 * GITHUB_API_URL put back as it was.
 */
export function fakeGitHubEachTest(
  options: FakeGitHubOptions,
  onStart: (api: FakeGitHubApi) => void
): void {
  let api: FakeGitHubApi | undefined
  let savedApiUrl: string | undefined
  beforeEach(async () => {
    api = await FakeGitHubApi.start(options)
    savedApiUrl = process.env.GITHUB_API_URL
    process.env.GITHUB_API_URL = api.url
    onStart(api)
  })
  afterEach(async () => {
    if (savedApiUrl === undefined) delete process.env.GITHUB_API_URL
    else process.env.GITHUB_API_URL = savedApiUrl
    await api?.close()
  })
}
