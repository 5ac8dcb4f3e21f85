/**
 * What the last-purge suites share: the purge marks of one service, svc123, kept on the fake
 * GitHub API as deployments of edge-purge/svc123 and reached through the runner's client; a site
 * of three pages; the events a run starts from; and a run that purged everything.
 */
import type { LastPurgeSettings } from '../../src/config/settings.js'
import type { GitHubRepository, RunEvent } from '../../src/github.js'
import type { StepLog } from '../../src/log.js'
import type { decideMarks } from '../../src/capabilities/changed-files/last-purge/complete.js'
import { FakeGitHubApi, type Permission } from '../../tools/fake-github-api/server.js'
import { ACCESS, connect, TOKEN, writes } from './site-repository.js'

export const SETTINGS: LastPurgeSettings = { serviceIds: ['svc123'] }
/** The environment that holds svc123's purge marks. */
export const ENV = 'edge-purge/svc123'

/** The fake GitHub API granting the token `permission`: by default, what a purge mark needs. */
export function startGitHub(permission: Permission = 'read'): Promise<FakeGitHubApi> {
  return FakeGitHubApi.start({ tokens: { [TOKEN]: permission } })
}

/** The repository on `api` as a run started by `trigger` reads it, one attempt a call. */
export function openOn(
  api: FakeGitHubApi,
  trigger: RunEvent,
  log: StepLog
): Promise<GitHubRepository> {
  return connect(ACCESS, trigger, log, api.url)
}

/** An event of run 99, whose page a purge mark links to. */
export function event(
  eventName: string,
  sha: string,
  payload: Record<string, unknown> = {}
): RunEvent {
  return { eventName, sha, payload, runId: '99', runUrl: 'https://github.example/runs/99' }
}

export const pushOf = (before: string, after: string, forced = false): RunEvent =>
  event('push', after, { ref: 'refs/heads/main', before, after, forced })

/** The first commit: a site of three pages. */
export function site(api: FakeGitHubApi): string {
  return api.commit(null, writes(['public/a.html', 'public/b.html', 'public/c.html']))
}

/** A run that purged every target, checked no page, and ran to its end: complete. */
export const COMPLETE: Parameters<typeof decideMarks>[1] = {
  results: [],
  stopped: undefined,
  unexpectedError: undefined,
  notComplete: undefined
}
