/**
 * Recalling each service's last complete purge from its purge marks (recall.ts), in-process
 * against the fake GitHub API through the runner's client: the walk through the deployments, what
 * makes one the base, and what the user is told when there is none.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import type { GitHubRepository, RunEvent } from '../../../../src/github.js'
import { recallLastPurges } from '../../../../src/capabilities/changed-files/last-purge/recall.js'
import type { FakeGitHubApi } from '../../../../tools/fake-github-api/server.js'
import { InputError } from '../../../../src/config/input-error.js'
import { inputError } from '../../../support/input-error.js'
import { ENV, event, openOn, SETTINGS, site, startGitHub } from '../../../support/purge-marks.js'
import { recordedLog, type RecordedLog } from '../../../support/recorded-log.js'
import { writes } from '../../../support/site-repository.js'

let api: FakeGitHubApi
let log: RecordedLog

beforeEach(() => {
  log = recordedLog()
})
afterEach(async () => {
  await api.close()
})

const open = (trigger: RunEvent): Promise<GitHubRepository> => openOn(api, trigger, log)

describe('reading the purge marks', () => {
  it('takes the newest deployment whose latest status is success, across pages', async () => {
    api = await startGitHub()
    const root = site(api)
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
    api = await startGitHub()
    const root = site(api)
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

  it(`fails after 200 deployments without a success, saying how to reset`, async () => {
    api = await startGitHub()
    const root = site(api)
    api.deploy(ENV, root, ['success'])
    for (let index = 0; index < 200; index += 1) api.deploy(ENV, root, ['failure'])
    const github = await open(event('workflow_dispatch', root))
    const message = await inputError(recallLastPurges(github, SETTINGS, true, log))
    expect(message).toMatch(
      /^changed-since: last-purge: none of the newest 200 deployments of edge-purge\/svc123 .*Reset the record with a run of mode: all and changed-since: last-purge/
    )
    expect(api.requestsTo(/\/statuses$/)).toHaveLength(200)
  })

  it('reads nothing when the run purges everything (mode: all)', async () => {
    api = await startGitHub()
    const root = site(api)
    const github = await open(event('workflow_dispatch', root))
    const recalled = await recallLastPurges(github, SETTINGS, false, log)
    expect(recalled).toEqual({ head: root, last: new Map() })
    expect(api.requests).toHaveLength(0)
  })

  it('refused, names the deployments permission', async () => {
    api = await startGitHub({ contents: 'read', deployments: 'none' })
    const github = await open(event('workflow_dispatch', site(api)))
    const message = await inputError(recallLastPurges(github, SETTINGS, true, log))
    expect(message).toMatch(
      /refused to read the deployments of edge-purge\/svc123 .*\(403: .*\); the job needs permissions: deployments: write/
    )
  })

  it('says so when no deployment records a complete purge', async () => {
    api = await startGitHub()
    const root = site(api)
    api.deploy(ENV, root, ['in_progress', 'failure'])
    const github = await open(event('workflow_dispatch', root))
    const recalled = await recallLastPurges(github, SETTINGS, true, log)
    expect(recalled.last.size).toBe(0)
    expect(log.lines).toEqual([`No complete purge of svc123 is recorded in ${ENV}`])
  })

  it('stops the run when GitHub fails the read, asking for a re-run', async () => {
    api = await startGitHub()
    const root = site(api)
    api.fault({ path: /\/deployments$/, fault: { kind: 'reply', status: 502 } })
    const github = await open(event('workflow_dispatch', root))
    const error = await recallLastPurges(github, SETTINGS, true, log).then(
      () => new Error('the read resolved'),
      (reason: unknown) => reason as Error
    )
    expect(error).not.toBeInstanceOf(InputError)
    expect(error.message).toMatch(
      /^GitHub API: could not read the deployments of edge-purge\/svc123 in acme\/site: 502: .*\. Nothing was purged: the run needs the record to know what changed; re-run the job once GitHub answers again$/
    )
    expect(api.requestsTo(/\/deployments$/)).toHaveLength(1)
  })

  it('trusts only a run id of digits from the payload', async () => {
    api = await startGitHub()
    const root = site(api)
    api.deploy(ENV, root, ['success'], '41\n::error::forged')
    const github = await open(event('workflow_dispatch', root))
    const recalled = await recallLastPurges(github, SETTINGS, true, log)
    expect(recalled.last.get('svc123')).toMatchObject({ sha: root, runId: '' })
  })

  it('starts from the deployed commit: on workflow_run, the triggering run’s head', async () => {
    api = await startGitHub()
    const deployed = site(api)
    const newest = api.commit(deployed, writes(['public/a.html']))
    const trigger = event('workflow_run', newest, { workflow_run: { head_sha: deployed } })
    const recalled = await recallLastPurges(await open(trigger), SETTINGS, false, log)
    expect(recalled.head).toBe(deployed)
  })
})
