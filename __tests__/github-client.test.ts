/**
 * The GitHub client under faults, in-process against the fake GitHub API through the real Octokit
 * and the real clock: what the stages that read and write the purge marks of the last purge, and
 * list changed files, still do when GitHub answers a 5xx, rate limits, trickles, stays silent, is
 * cancelled, or pages for ever.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import type { LastPurgeSettings } from '../src/config/settings.js'
import { InputError } from '../src/config/input-error.js'
import type { GitHubRepository, RunEvent } from '../src/github.js'
import { systemClock } from '../src/clock.js'
import { connectGitHub } from '../src/github-api/github-client.js'
import { openGitHub } from '../src/runner/open-github.js'
import { findChangedFiles } from '../src/capabilities/changed-files/choose-range.js'
import { recallLastPurges } from '../src/capabilities/changed-files/last-purge/recall.js'
import { closeMarks, openMarks } from '../src/capabilities/changed-files/last-purge/write.js'
import { decideMarks } from '../src/capabilities/changed-files/last-purge/complete.js'
import { FakeGitHubApi, type Change, type Permission } from '../tools/fake-github-api/server.js'
import { inputError } from './support/input-error.js'
import { recordedLog, type RecordedLog } from './support/recorded-log.js'
import { NO_SECRETS } from './support/guard.js'

const TOKEN = 'gh-client-token'
const SETTINGS: LastPurgeSettings = { serviceIds: ['svc123'] }
const ENV = 'edge-purge/svc123'
/** The deployments list (GET) and create (POST): one path. */
const DEPLOYMENTS = /^\/repos\/acme\/site\/deployments$/
const COMPARE = /^\/repos\/acme\/site\/compare\//
const PERMISSION = 'permissions: deployments: write'
/** The deployments list as the client names it in a retry's line. */
const ROUTE = 'GET /repos/{owner}/{repo}/deployments'

let api: FakeGitHubApi
let log: RecordedLog
/** The run's cancel. */
let cancel: AbortController

async function start(permission: Permission = 'read'): Promise<void> {
  api = await FakeGitHubApi.start({ tokens: { [TOKEN]: permission } })
}

beforeEach(() => {
  log = recordedLog()
  cancel = new AbortController()
})
afterEach(async () => {
  // A call a failed test left pending ends with the fake's sockets; its waits end at the cancel.
  cancel.abort()
  await api.close()
  await Promise.allSettled(inFlight.splice(0))
})

function event(eventName: string, sha: string, payload: Record<string, unknown> = {}): RunEvent {
  return { eventName, sha, payload, runId: '99', runUrl: 'https://github.example/runs/99' }
}

const pushOf = (before: string, after: string): RunEvent =>
  event('push', after, { ref: 'refs/heads/main', before, after, forced: false })

function open(
  trigger: RunEvent,
  { maxAttempts = 5, timeoutMs = 10_000 }: { maxAttempts?: number; timeoutMs?: number } = {}
): Promise<GitHubRepository> {
  return connectGitHub(
    { token: TOKEN, owner: 'acme', repo: 'site', event: trigger, baseUrl: api.url },
    { guard: NO_SECRETS, maxAttempts, timeoutMs, clock: systemClock, signal: cancel.signal, log }
  )
}

const writes = (paths: string[]): Change[] => paths.map((path) => ({ write: path }))

function site(): string {
  return api.commit(null, writes(['public/a.html', 'public/b.html', 'public/c.html']))
}

/** GETs of the deployments list. */
const listReads = (): number =>
  api.requestsTo(DEPLOYMENTS).filter((request) => request.method === 'GET').length

/** POSTs to the deployments list: deployments asked for. */
const creates = (): number =>
  api.requestsTo(DEPLOYMENTS).filter((request) => request.method === 'POST').length

/** Calls a test left pending when its bound ran out: settled in afterEach, once the fake is closed. */
const inFlight: Promise<unknown>[] = []

/** Long enough for any call here to end; a call still pending then hangs, which fails the test. */
const BOUND_MS = 5000

/** `promise`, and how long it took to settle; fails the test when it has not settled in `boundMs`. */
async function bounded<T>(
  promise: Promise<T>,
  boundMs = BOUND_MS
): Promise<{ outcome: PromiseSettledResult<T>; ms: number }> {
  const began = performance.now()
  const settled = promise.then(
    (value): PromiseSettledResult<T> => ({ status: 'fulfilled', value }),
    (reason: unknown): PromiseSettledResult<T> => ({ status: 'rejected', reason })
  )
  inFlight.push(settled)
  let timer: NodeJS.Timeout | undefined
  const hung = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), boundMs)
  })
  const outcome = await Promise.race([settled, hung])
  clearTimeout(timer)
  if (outcome === undefined)
    throw new Error(`the call has not settled within ${boundMs} ms: it hangs`)
  return { outcome, ms: performance.now() - began }
}

/** What `promise` rejects with, and how long it took; fails the test when it resolves or hangs. */
async function timedRejection(
  promise: Promise<unknown>,
  boundMs?: number
): Promise<{ error: Error; ms: number }> {
  const { outcome, ms } = await bounded(promise, boundMs)
  if (outcome.status === 'fulfilled') throw new Error('the call resolved; it was to reject')
  expect(outcome.reason).toBeInstanceOf(Error)
  return { error: outcome.reason as Error, ms }
}

/** What `promise` resolves to, and how long it took; fails the test when it rejects or hangs. */
async function timed<T>(promise: Promise<T>, boundMs?: number): Promise<{ value: T; ms: number }> {
  const { outcome, ms } = await bounded(promise, boundMs)
  if (outcome.status === 'rejected') throw outcome.reason
  return { value: outcome.value, ms }
}

const warnings = (): string[] => log.lines.filter((line) => line.startsWith('warning: '))

/** A repository whose last complete purge of svc123 is `marked`, behind one failed purge. */
function markedHistory(): { root: string; marked: string } {
  const root = site()
  const marked = api.commit(root, writes(['public/a.html']))
  api.deploy(ENV, marked, ['in_progress', 'success'], '41')
  api.deploy(ENV, root, ['in_progress', 'failure'], '42')
  return { root, marked }
}

describe('reading the purge marks through a failing GitHub', () => {
  it('retries a 502 on the deployments list and still finds the last complete purge', async () => {
    await start()
    const { root, marked } = markedHistory()
    api.fault({ method: 'GET', path: DEPLOYMENTS, times: 1, fault: { kind: 'reply', status: 502 } })

    const github = await open(event('workflow_dispatch', root), { maxAttempts: 5 })
    const recalled = await recallLastPurges(github, SETTINGS, true, log)

    expect(recalled.last.get('svc123')).toMatchObject({ sha: marked, runId: '41' })
    expect(listReads()).toBe(2)
    expect(api.faultsLeft()).toBe(0)
    // The client names the call by its route; the line's words are GitHubCalls' (github-calls.test.ts).
    expect(log.lines.filter((line) => line.startsWith(`${ROUTE}: `))).toHaveLength(1)
  })

  it('gives up after max-attempts 502s, with the status and a re-run to try, not a permission', async () => {
    await start()
    const { root } = markedHistory()
    api.fault({ method: 'GET', path: DEPLOYMENTS, fault: { kind: 'reply', status: 502 } })

    const github = await open(event('workflow_dispatch', root), { maxAttempts: 2 })
    const { error } = await timedRejection(recallLastPurges(github, SETTINGS, true, log))

    // Not the user's input to fix: a re-run once GitHub answers again.
    expect(error).not.toBeInstanceOf(InputError)
    expect(error.message).toMatch(/\b502\b/)
    expect(error.message).toContain('re-run')
    expect(error.message).not.toContain(PERMISSION)
    expect(listReads()).toBe(2)
  })

  it('waits out a secondary rate limit’s retry-after, then reads', async () => {
    await start()
    const { root, marked } = markedHistory()
    api.fault({
      method: 'GET',
      path: DEPLOYMENTS,
      times: 1,
      fault: { kind: 'secondary-limit', retryAfterSeconds: 1 }
    })

    const github = await open(event('workflow_dispatch', root), { maxAttempts: 3 })
    const { value: recalled, ms } = await timed(recallLastPurges(github, SETTINGS, true, log))

    expect(recalled.last.get('svc123')?.sha).toBe(marked)
    expect(ms).toBeGreaterThanOrEqual(950)
    expect(listReads()).toBe(2)
  })

  it('fails at once on a spent primary rate limit, naming its reset, not a permission', async () => {
    await start()
    const { root } = markedHistory()
    const resetAt = Math.floor(Date.now() / 1000) + 3600
    api.fault({ method: 'GET', path: DEPLOYMENTS, fault: { kind: 'primary-limit', resetAt } })

    const github = await open(event('workflow_dispatch', root), { maxAttempts: 5 })
    const { error, ms } = await timedRejection(recallLastPurges(github, SETTINGS, true, log))

    expect(error).not.toBeInstanceOf(InputError)
    expect(error.message).toContain(new Date(resetAt * 1000).toISOString())
    expect(error.message).not.toContain(PERMISSION)
    expect(listReads()).toBe(1)
    expect(ms).toBeLessThan(1000)
  })

  it('fails at once on a sign-in page where the deployments belong, asking for no re-run', async () => {
    await start()
    const { root } = markedHistory()
    api.fault({
      method: 'GET',
      path: DEPLOYMENTS,
      fault: {
        kind: 'reply',
        status: 200,
        body: '<!DOCTYPE html><html><body>Sign in to GitHub Enterprise</body></html>',
        headers: { 'content-type': 'text/html; charset=utf-8' }
      }
    })

    const github = await open(event('workflow_dispatch', root), { maxAttempts: 5 })
    const { error } = await timedRejection(recallLastPurges(github, SETTINGS, true, log))

    expect(error).not.toBeInstanceOf(InputError)
    // Found in the way, not read as a broken answer: a re-run alone would meet the same page.
    expect(error.message).not.toContain('re-run')
    expect(listReads()).toBe(1)
    expect(log.lines).toEqual([])
  })

  it('still names the permission when the token lacks deployments', async () => {
    await start({ contents: 'read', deployments: 'none' })
    const github = await open(event('workflow_dispatch', site()))
    const message = await inputError(recallLastPurges(github, SETTINGS, true, log))
    expect(message).toContain(PERMISSION)
    // A refusal is not retried: no attempt would pass.
    expect(listReads()).toBe(1)
  })

  it('abandons a body that trickles for ever at the timeout', async () => {
    await start()
    const { root } = markedHistory()
    api.fault({ method: 'GET', path: DEPLOYMENTS, fault: { kind: 'trickle' } })

    const github = await open(event('workflow_dispatch', root), {
      maxAttempts: 1,
      timeoutMs: 400
    })
    const { error, ms } = await timedRejection(recallLastPurges(github, SETTINGS, true, log), 3000)

    expect(error).not.toBeInstanceOf(InputError)
    expect(ms).toBeGreaterThanOrEqual(350)
    expect(ms).toBeLessThan(2000)
    expect(listReads()).toBe(1)
  })

  it('abandons a server that never answers at the timeout', async () => {
    await start()
    const { root } = markedHistory()
    api.fault({ method: 'GET', path: DEPLOYMENTS, fault: { kind: 'silent' } })

    const github = await open(event('workflow_dispatch', root), {
      maxAttempts: 1,
      timeoutMs: 400
    })
    const { error, ms } = await timedRejection(recallLastPurges(github, SETTINGS, true, log), 3000)

    expect(error).not.toBeInstanceOf(InputError)
    expect(ms).toBeGreaterThanOrEqual(350)
    expect(ms).toBeLessThan(2000)
    expect(listReads()).toBe(1)
  })

  it('retries an attempt that timed out, and reads the purge marks', async () => {
    await start()
    const { root, marked } = markedHistory()
    api.fault({ method: 'GET', path: DEPLOYMENTS, times: 1, fault: { kind: 'silent' } })

    const github = await open(event('workflow_dispatch', root), {
      maxAttempts: 2,
      timeoutMs: 400
    })
    const { value: recalled } = await timed(recallLastPurges(github, SETTINGS, true, log), 4000)

    expect(recalled.last.get('svc123')?.sha).toBe(marked)
    expect(listReads()).toBe(2)
    expect(log.lines.filter((line) => line.startsWith(`${ROUTE}: `))).toHaveLength(1)
  })
})

describe('cancelling a GitHub call', () => {
  it('ends a call GitHub is silent on at once, well before the timeout', async () => {
    await start()
    const { root } = markedHistory()
    api.fault({ method: 'GET', path: DEPLOYMENTS, fault: { kind: 'silent' } })

    const github = await open(event('workflow_dispatch', root), { timeoutMs: 10_000 })
    const recall = recallLastPurges(github, SETTINGS, true, log)
    const timer = setTimeout(() => cancel.abort(), 200)
    const { error, ms } = await timedRejection(recall, 3000)
    clearTimeout(timer)

    expect(error).not.toBeInstanceOf(InputError)
    expect(ms).toBeLessThan(1500)
    expect(listReads()).toBe(1)
  })

  it('ends the wait before a retry at once', async () => {
    await start()
    const { root } = markedHistory()
    api.fault({
      method: 'GET',
      path: DEPLOYMENTS,
      fault: { kind: 'secondary-limit', retryAfterSeconds: 60 }
    })

    const github = await open(event('workflow_dispatch', root), { maxAttempts: 5 })
    const recall = recallLastPurges(github, SETTINGS, true, log)
    const timer = setTimeout(() => cancel.abort(), 300)
    const { error, ms } = await timedRejection(recall, 3000)
    clearTimeout(timer)

    expect(error).not.toBeInstanceOf(InputError)
    expect(ms).toBeLessThan(1500)
    expect(listReads()).toBe(1)
  })
})

describe('paging the deployments', () => {
  it('stops empty pages that always name a next one after a bounded number of reads', async () => {
    await start()
    const { root } = markedHistory()
    api.fault({ method: 'GET', path: DEPLOYMENTS, fault: { kind: 'empty-pages' } })

    const github = await open(event('workflow_dispatch', root))
    const { error } = await timedRejection(recallLastPurges(github, SETTINGS, true, log))

    expect(error).not.toBeInstanceOf(InputError)
    expect(listReads()).toBeGreaterThan(1)
    expect(listReads()).toBeLessThanOrEqual(3)
  })

  it('ends the walk when page 1 names page 1 as next', async () => {
    await start()
    const root = site()
    api.deploy(ENV, root, ['in_progress', 'failure'])
    api.fault({ method: 'GET', path: DEPLOYMENTS, fault: { kind: 'link-loop' } })

    const github = await open(event('workflow_dispatch', root))
    const recalled = await recallLastPurges(github, SETTINGS, true, log)

    expect(recalled.last.size).toBe(0)
    expect(listReads()).toBe(1)
  })

  it('finds a complete purge on a page whose Link loops', async () => {
    await start()
    const { root, marked } = markedHistory()
    api.fault({ method: 'GET', path: DEPLOYMENTS, fault: { kind: 'link-loop' } })

    const github = await open(event('workflow_dispatch', root))
    const recalled = await recallLastPurges(github, SETTINGS, true, log)

    expect(recalled.last.get('svc123')?.sha).toBe(marked)
    expect(listReads()).toBe(1)
  })
})

describe('writing the purge marks through a failing GitHub', () => {
  const complete = {
    results: [],
    stopped: undefined,
    unexpectedError: undefined,
    notComplete: undefined
  }

  it('makes the deployment when its creation answers 502 once', async () => {
    await start()
    const root = site()
    api.fault({
      method: 'POST',
      path: DEPLOYMENTS,
      times: 1,
      fault: { kind: 'reply', status: 502 }
    })

    const github = await open(event('workflow_dispatch', root), { maxAttempts: 5 })
    const opened = await openMarks(github, SETTINGS, root, log)

    expect(opened).toEqual([
      { service: 'svc123', sha: root, deploymentId: expect.any(Number), refusal: undefined }
    ])
    expect(creates()).toBe(2)
    expect(api.deployments).toHaveLength(1)
    expect(api.deployments[0]).toMatchObject({ environment: ENV, sha: root })
    expect(api.deployments[0]?.statuses.map((status) => status.state)).toEqual(['in_progress'])
    expect(warnings()).toEqual([])
  })

  it('warns of a rate limit without telling the user to grant a permission', async () => {
    await start()
    const root = site()
    const resetAt = Math.floor(Date.now() / 1000) + 3600
    api.fault({ method: 'POST', path: DEPLOYMENTS, fault: { kind: 'primary-limit', resetAt } })

    const github = await open(event('workflow_dispatch', root), { maxAttempts: 5 })
    const opened = await openMarks(github, SETTINGS, root, log)

    expect(opened).toEqual([expect.objectContaining({ deploymentId: undefined })])
    expect(decideMarks(opened, complete)).toEqual([
      expect.objectContaining({ state: 'not written' })
    ])
    expect(creates()).toBe(1)
    expect(api.deployments).toHaveLength(0)
    expect(warnings()).toHaveLength(1)
    expect(warnings()[0]).not.toContain(PERMISSION)
  })

  it('still names the permission when the token may only read deployments', async () => {
    await start({ contents: 'read', deployments: 'read' })
    const root = site()
    const github = await open(event('workflow_dispatch', root))
    await openMarks(github, SETTINGS, root, log)
    expect(warnings()).toEqual([expect.stringContaining(PERMISSION)])
  })

  it('under a cancel, warns and leaves the deployment in_progress instead of throwing', async () => {
    await start()
    const root = site()
    const github = await open(event('workflow_dispatch', root))
    const marks = decideMarks(await openMarks(github, SETTINGS, root, log), complete)
    expect(marks).toEqual([expect.objectContaining({ state: 'success' })])
    const sent = api.requests.length

    cancel.abort()
    await expect(closeMarks(github, marks, true, log)).resolves.toBeUndefined()

    expect(warnings()).toHaveLength(1)
    expect(warnings()[0]).not.toContain(PERMISSION)
    expect(api.requests).toHaveLength(sent)
    expect(api.deployments[0]?.statuses.map((status) => status.state)).toEqual(['in_progress'])
  })
})

describe('opening GitHub for changed-files', () => {
  it('refuses an empty github-token, naming it, before any call', async () => {
    await start()
    const limits = { maxAttempts: 1, timeoutMs: 1000, clock: systemClock, log, guard: NO_SECRETS }
    const opening = openGitHub('')({ ...limits, signal: cancel.signal })
    await expect(opening).rejects.toThrow(InputError)
    await expect(opening).rejects.toThrow(/^github-token is required with changed-files: true/)
    expect(api.requests).toEqual([])
  })
})

describe('listing changed files through a failing GitHub', () => {
  it('retries a compare that answered 502 and lists the files', async () => {
    await start()
    const root = site()
    const after = api.commit(root, writes(['public/a.html', 'public/new.html']))
    api.fault({ method: 'GET', path: COMPARE, times: 1, fault: { kind: 'reply', status: 502 } })

    const github = await open(pushOf(root, after), { maxAttempts: 3 })
    const range = await findChangedFiles(github, undefined, { log, guard: NO_SECRETS })

    expect(range).toMatchObject({
      files: ['public/a.html', 'public/new.html'],
      method: 'compare',
      baseSha: root
    })
    expect(api.requestsTo(COMPARE)).toHaveLength(2)
  })

  it('fails on a spent rate limit without asking for contents: read', async () => {
    await start()
    const root = site()
    const after = api.commit(root, writes(['public/a.html']))
    const resetAt = Math.floor(Date.now() / 1000) + 3600
    api.fault({ method: 'GET', path: COMPARE, fault: { kind: 'primary-limit', resetAt } })

    const github = await open(pushOf(root, after))
    const { error } = await timedRejection(
      findChangedFiles(github, undefined, { log, guard: NO_SECRETS })
    )

    // A refused token would be an InputError naming contents: read; a rate limit is not one.
    expect(error).not.toBeInstanceOf(InputError)
    expect(error.message).toContain(new Date(resetAt * 1000).toISOString())
    expect(api.requestsTo(COMPARE)).toHaveLength(1)
  })
})
