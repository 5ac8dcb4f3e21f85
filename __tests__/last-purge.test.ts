/**
 * The record of the last complete purge, in-process against the fake GitHub API through the
 * runner's client: reading it (the walk), the files since it (range or trees), writing it, and
 * what makes a run complete.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import type { LastPurgeSettings } from '../src/config/settings.js'
import type { GitHubRepository, RunEvent } from '../src/github.js'
import type { ComparedRange, PurgeResult, EdgeCheckOutcome } from '../src/record/index.js'
import { systemClock } from '../src/clock.js'
import { connectGitHub } from '../src/runner/github.js'
import { changedSinceLastPurge } from '../src/stages/changed-files/since-last-purge.js'
import { incompleteBecause } from '../src/stages/last-purge/complete.js'
import { MOST_DEPLOYMENTS, recallLastPurges } from '../src/stages/last-purge/recall.js'
import {
  closeRecords,
  decideRecords,
  openRecords,
  REPORT_NOT_WRITTEN
} from '../src/stages/last-purge/write.js'
import { FakeGitHubApi, type Change, type Permission } from './support/fake-github-api.js'
import { inputError } from './support/input-error.js'
import { recordedLog, type RecordedLog } from './support/recorded-log.js'

const TOKEN = 'gh-record-token'
const SETTINGS: LastPurgeSettings = { serviceIds: ['svc123'], githubToken: TOKEN }
const ENV = 'edge-purge/svc123'

let api: FakeGitHubApi
let log: RecordedLog

async function start(permission: Permission = 'read'): Promise<void> {
  api = await FakeGitHubApi.start({ tokens: { [TOKEN]: permission } })
}

beforeEach(() => {
  log = recordedLog()
})
afterEach(async () => {
  await api.close()
})

function event(eventName: string, sha: string, payload: Record<string, unknown> = {}): RunEvent {
  return { eventName, sha, payload, runId: '99', runUrl: 'https://github.example/runs/99' }
}

const pushOf = (before: string, after: string, forced = false): RunEvent =>
  event('push', after, { ref: 'refs/heads/main', before, after, forced })

function open(trigger: RunEvent): Promise<GitHubRepository> {
  return connectGitHub(
    { token: TOKEN, owner: 'acme', repo: 'site', event: trigger, baseUrl: api.url },
    {
      maxAttempts: 1,
      timeoutMs: 10_000,
      clock: systemClock,
      signal: new AbortController().signal,
      log
    }
  )
}

const writes = (paths: string[]): Change[] => paths.map((path) => ({ write: path }))

function site(): string {
  return api.commit(null, writes(['public/a.html', 'public/b.html', 'public/c.html']))
}

/** Reads the records, then the files changed since them, for `trigger`. */
async function filesSince(
  trigger: RunEvent,
  serviceIds = SETTINGS.serviceIds
): Promise<ComparedRange[]> {
  const github = await open(trigger)
  const recalled = await recallLastPurges(github, { ...SETTINGS, serviceIds }, true, log)
  return changedSinceLastPurge(github, recalled, serviceIds, log)
}

describe('reading the record', () => {
  it('takes the newest deployment whose latest status is success, across pages', async () => {
    await start()
    const root = site()
    const older = api.commit(root, writes(['public/a.html']))
    api.deploy(ENV, older, ['success'], '41')
    for (let index = 0; index < 120; index += 1) api.deploy(ENV, root, ['in_progress', 'failure'])
    api.deploy(ENV, root, ['in_progress'])
    api.deploy('edge-purge/other', root, ['success'])

    const github = await open(event('workflow_dispatch', root))
    const recalled = await recallLastPurges(github, SETTINGS, true, log)

    expect(recalled.last.get('svc123')).toMatchObject({ sha: older, runId: '41' })
    expect(api.requestsTo(/\/deployments$/).map((r) => r.query.get('page'))).toEqual(['1', '2'])
    expect(api.requestsTo(/\/statuses$/).every((r) => r.query.get('per_page') === '1')).toBe(true)
  })

  it('skips a success made inactive by a newer one', async () => {
    await start()
    const root = site()
    const newer = api.commit(root, writes(['public/a.html']))
    api.deploy(ENV, root, ['success'])
    api.deploy(ENV, newer, ['success'])
    const github = await open(event('workflow_dispatch', newer))
    const recalled = await recallLastPurges(github, SETTINGS, true, log)
    expect(recalled.last.get('svc123')?.sha).toBe(newer)
    expect(api.deployments[0]?.statuses.map((status) => status.state)).toEqual([
      'success',
      'inactive'
    ])
  })

  it(`fails after ${MOST_DEPLOYMENTS} deployments without a success, saying how to reset`, async () => {
    await start()
    const root = site()
    api.deploy(ENV, root, ['success'])
    for (let index = 0; index < MOST_DEPLOYMENTS; index += 1) api.deploy(ENV, root, ['failure'])
    const github = await open(event('workflow_dispatch', root))
    const message = await inputError(recallLastPurges(github, SETTINGS, true, log))
    expect(message).toContain(`none of the newest ${MOST_DEPLOYMENTS} deployments of ${ENV}`)
    expect(message).toContain('mode: all and changed-since: last-purge')
    expect(api.requestsTo(/\/statuses$/)).toHaveLength(MOST_DEPLOYMENTS)
  })

  it('reads nothing when the run purges everything (mode: all)', async () => {
    await start()
    const root = site()
    const github = await open(event('workflow_dispatch', root))
    const recalled = await recallLastPurges(github, SETTINGS, false, log)
    expect(recalled).toEqual({ head: root, last: new Map() })
    expect(api.requests).toHaveLength(0)
  })

  it('refused, names the deployments permission', async () => {
    await start({ contents: 'read', deployments: 'none' })
    const github = await open(event('workflow_dispatch', site()))
    const message = await inputError(recallLastPurges(github, SETTINGS, true, log))
    expect(message).toMatch(/refused to read the deployments of edge-purge\/svc123 .*\(403: /)
    expect(message).toContain('deployments: write')
  })

  it('trusts only a run id of digits from the payload', async () => {
    await start()
    const root = site()
    api.deploy(ENV, root, ['success'], '41\n::error::forged')
    const github = await open(event('workflow_dispatch', root))
    const recalled = await recallLastPurges(github, SETTINGS, true, log)
    expect(recalled.last.get('svc123')).toMatchObject({ sha: root, runId: '' })
  })

  it('starts from the deployed commit: on workflow_run, the triggering run’s head', async () => {
    await start()
    const deployed = site()
    const newest = api.commit(deployed, writes(['public/a.html']))
    const trigger = event('workflow_run', newest, { workflow_run: { head_sha: deployed } })
    const recalled = await recallLastPurges(await open(trigger), SETTINGS, false, log)
    expect(recalled.head).toBe(deployed)
  })
})

describe('the files since the record', () => {
  it('compares a base the head contains as a range', async () => {
    await start()
    const root = site()
    api.deploy(ENV, root, ['success'], '41')
    const [first, after] = api.chain(root, [
      writes(['public/a.html']),
      writes(['public/b.html'])
    ]) as [string, string]
    const [range] = await filesSince(pushOf(first, after))
    expect(range).toMatchObject({
      files: ['public/a.html', 'public/b.html'],
      method: 'compare',
      baseSha: root,
      source: 'record',
      description: `last complete purge of svc123: ${root.slice(0, 7)}, run 41 → ${after.slice(0, 7)} (2 commits)`
    })
    expect(api.requestsTo(/\/git\/trees\//)).toHaveLength(0)
  })

  it('compares the two trees when the range lists 300 files, not commit by commit', async () => {
    await start()
    const root = site()
    api.deploy(ENV, root, ['success'])
    const many = Array.from({ length: 310 }, (_, index) => `public/p${index}.html`)
    const after = api.commit(root, writes(many))
    const [range] = await filesSince(pushOf(root, after))
    expect(range?.method).toBe('trees')
    expect(range?.files).toHaveLength(310)
    expect(api.requestsTo(/\/commits\//)).toHaveLength(0)
    expect(api.requestsTo(/\/git\/trees\//)).toHaveLength(2)
  })

  it('compares the trees of a base the head does not contain: added, removed, changed', async () => {
    await start()
    const root = site()
    const recorded = api.commit(root, [{ write: 'public/a.html' }, { remove: 'public/c.html' }])
    api.deploy(ENV, recorded, ['success'])
    const rewritten = api.commit(root, [{ write: 'public/new.html' }, { remove: 'public/b.html' }])
    const [range] = await filesSince(pushOf(recorded, rewritten, true))
    expect(range).toMatchObject({ method: 'trees', commits: undefined, baseSha: recorded })
    // a.html is back to root's; c.html is back; b.html is gone; new.html is new.
    expect(range?.files).toEqual([
      'public/a.html',
      'public/b.html',
      'public/c.html',
      'public/new.html'
    ])
    expect(range?.description).toContain(`→ ${rewritten.slice(0, 7)} (not its ancestor)`)
  })

  it('fails before purging on a tree GitHub lists only in part, suggesting mode: all', async () => {
    await start()
    const root = site()
    const recorded = api.commit(root, writes(['public/a.html']))
    api.deploy(ENV, recorded, ['success'])
    const rewritten = api.commit(root, writes(['public/b.html']))
    api.truncateTree(rewritten)
    const message = await inputError(filesSince(pushOf(recorded, rewritten, true)))
    expect(message).toContain(`tree of ${rewritten.slice(0, 7)} only in part`)
    expect(message).toContain('mode: all')
  })

  it('fails before purging when GitHub no longer has the recorded commit', async () => {
    await start()
    const root = site()
    const recorded = api.commit(root, writes(['public/a.html']))
    api.deploy(ENV, recorded, ['success'])
    const rewritten = api.commit(root, writes(['public/b.html']))
    api.forget(recorded)
    const message = await inputError(filesSince(pushOf(recorded, rewritten, true)))
    expect(message).toContain(`was for ${recorded.slice(0, 7)}, a commit GitHub no longer has`)
    expect(message).toContain('mode: all')
  })

  it('compares once for services recorded at the same commit, once more for another', async () => {
    await start()
    const root = site()
    const mid = api.commit(root, writes(['public/a.html']))
    api.deploy('edge-purge/one', root, ['success'])
    api.deploy('edge-purge/two', root, ['success'])
    api.deploy('edge-purge/three', mid, ['success'])
    const after = api.commit(mid, writes(['public/b.html']))
    const ranges = await filesSince(pushOf(mid, after), ['one', 'two', 'three'])
    expect(ranges.map((range) => [range.baseSha, range.files])).toEqual([
      [root, ['public/a.html', 'public/b.html']],
      [mid, ['public/b.html']]
    ])
    expect(ranges[0]?.description).toContain('last complete purge of one, two:')
  })

  it('uses the push’s own range for a service with no record yet, with a notice', async () => {
    await start()
    const root = site()
    const after = api.commit(root, writes(['public/a.html']))
    const [range] = await filesSince(pushOf(root, after))
    expect(range).toMatchObject({ source: 'push', baseSha: root, files: ['public/a.html'] })
    expect(log.lines).toContain(
      "notice: No complete purge of svc123 is recorded yet: comparing this push's own range. This run records one when its purge is complete"
    )
  })

  it('without a record, fails on a new branch, saying how to begin', async () => {
    await start()
    const after = site()
    const message = await inputError(filesSince(pushOf('0'.repeat(40), after)))
    expect(message).toMatch(
      /^changed-since: last-purge: no complete purge of svc123 is recorded yet, and this push created/
    )
    expect(message).toContain(
      'Begin the record with a run of mode: all and changed-since: last-purge'
    )
  })
})

describe('writing the record', () => {
  it('opens a deployment in progress, then marks it success when complete', async () => {
    await start()
    const root = site()
    const github = await open(event('workflow_dispatch', root))
    const records = decideRecords(await openRecords(github, SETTINGS, root, log), complete)
    expect(api.deployments.map((made) => made.statuses.map((status) => status.state))).toEqual([
      ['in_progress']
    ])
    expect(records).toEqual([
      { service: 'svc123', sha: root, deploymentId: expect.any(Number), state: 'success', why: '' }
    ])
    await closeRecords(github, records, true, log)
    expect(api.deployments[0]?.statuses.at(-1)).toMatchObject({
      state: 'success',
      log_url: 'https://github.example/runs/99'
    })
  })

  it('marks an incomplete purge failure, saying why', async () => {
    await start()
    const root = site()
    const github = await open(event('workflow_dispatch', root))
    const opened = await openRecords(github, SETTINGS, root, log)
    const records = decideRecords(opened, { ...complete, stopped: 'Cancelled' })
    expect(records).toEqual([
      expect.objectContaining({ state: 'failure', why: 'the run was cancelled' })
    ])
    await closeRecords(github, records, true, log)
    expect(api.deployments[0]?.statuses.at(-1)?.description).toBe('the run was cancelled')
  })

  it('marks a complete purge failure when its report could not be written', async () => {
    await start()
    const root = site()
    const github = await open(event('workflow_dispatch', root))
    const records = decideRecords(await openRecords(github, SETTINGS, root, log), complete)
    await closeRecords(github, records, false, log)
    expect(api.deployments[0]?.statuses.at(-1)).toMatchObject({
      state: 'failure',
      description: REPORT_NOT_WRITTEN
    })
  })

  it('refused, warns and goes on: the record is not written', async () => {
    await start({ contents: 'read', deployments: 'read' })
    const root = site()
    const github = await open(event('workflow_dispatch', root))
    const records = decideRecords(await openRecords(github, SETTINGS, root, log), complete)
    await closeRecords(github, records, true, log)
    expect(records).toEqual([
      expect.objectContaining({ state: 'not written', why: expect.stringMatching(/^403: /) })
    ])
    expect(log.lines.filter((line) => line.startsWith('warning: '))).toEqual([
      expect.stringContaining(
        'the next run with changed-since: last-purge compares from the older record'
      )
    ])
  })
})

const complete = {
  results: [] as PurgeResult[],
  edgeCheck: undefined,
  stopped: undefined,
  unexpectedError: undefined
}

function result(overrides: Partial<PurgeResult>): PurgeResult {
  return {
    type: 'key',
    target: 'k',
    service: 'svc123',
    soft: false,
    status: 'purged',
    id: 'id',
    http_status: 200,
    attempts: 1,
    error: null,
    ...overrides
  }
}

function checked(fresh: boolean[]): EdgeCheckOutcome {
  const entries = fresh.map((isFresh, index) => ({
    url: `https://www.example.com/${index}`,
    fresh: isFresh,
    http_status: 200,
    age: 0,
    checks: 1,
    evidence: ''
  }))
  return { entries, cancelled: false, malformedAge: [] }
}

describe('a complete purge', () => {
  it('is every target of the service and every URL purged, and every checked page fresh', () => {
    const results = [result({}), result({ type: 'url', service: null })]
    expect(incompleteBecause({ ...complete, results, edgeCheck: checked([true]) }, 'svc123')).toBe(
      undefined
    )
  })

  it('is a run that purged nothing', () => {
    expect(incompleteBecause(complete, 'svc123')).toBe(undefined)
  })

  it('is not one with a failed target of the service, or a failed URL', () => {
    const failedKey = [result({ status: 'failed' })]
    const failedUrl = [result({ type: 'url', service: null, status: 'failed' })]
    expect(incompleteBecause({ ...complete, results: failedKey }, 'svc123')).toBe(
      '1 target not purged'
    )
    expect(incompleteBecause({ ...complete, results: failedUrl }, 'svc123')).toBe(
      '1 target not purged'
    )
  })

  it('does not count another service’s failed key against this one', () => {
    const results = [result({ service: 'other', status: 'failed' }), result({})]
    expect(incompleteBecause({ ...complete, results }, 'svc123')).toBe(undefined)
  })

  it('is not one when the repeat pass failed', () => {
    const results = [result({ repeat: { status: 'failed', id: null, attempts: 5 } })]
    expect(incompleteBecause({ ...complete, results }, 'svc123')).toBe('1 target not purged')
  })

  it('is not one with a page stale or unchecked at the edge, a cancel or an unexpected error', () => {
    expect(incompleteBecause({ ...complete, edgeCheck: checked([true, false]) }, 'svc123')).toBe(
      '1 page not fresh at the edge'
    )
    expect(incompleteBecause({ ...complete, stopped: 'Cancelled' }, 'svc123')).toBe(
      'the run was cancelled'
    )
    const unexpectedError = 'edge-purge stopped on an unexpected error: Cannot find module'
    expect(incompleteBecause({ ...complete, unexpectedError }, 'svc123')).toBe(
      'the run stopped on an unexpected error'
    )
  })
})
