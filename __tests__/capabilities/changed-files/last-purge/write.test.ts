/**
 * Writing each service's purge mark (write.ts), in-process against the fake GitHub API through the
 * runner's client: a deployment opened in progress, then closed success or failure as decided, and
 * a refusal that costs a warning, never the purge.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import {
  closeMarks,
  openMarks
} from '../../../../src/capabilities/changed-files/last-purge/write.js'
import { decideMarks } from '../../../../src/capabilities/changed-files/last-purge/complete.js'
import type { FakeGitHubApi } from '../../../../tools/fake-github-api/server.js'
import {
  COMPLETE,
  event,
  openOn,
  SETTINGS,
  site,
  startGitHub
} from '../../../support/purge-marks.js'
import { recordedLog, type RecordedLog } from '../../../support/recorded-log.js'

let api: FakeGitHubApi
let log: RecordedLog

beforeEach(() => {
  log = recordedLog()
})
afterEach(async () => {
  await api.close()
})

describe('writing the purge mark', () => {
  it('opens a deployment in progress, then marks it success when complete', async () => {
    api = await startGitHub()
    const root = site(api)
    const github = await openOn(api, event('workflow_dispatch', root), log)
    const marks = decideMarks(await openMarks(github, SETTINGS, root, log), COMPLETE)
    expect(api.deployments.map((made) => made.statuses.map((status) => status.state))).toEqual([
      ['in_progress']
    ])
    expect(marks).toEqual([
      { service: 'svc123', sha: root, deploymentId: expect.any(Number), state: 'success', why: '' }
    ])
    await closeMarks(github, marks, true, log)
    expect(api.deployments[0]?.statuses.at(-1)).toMatchObject({
      state: 'success',
      log_url: 'https://github.example/runs/99'
    })
  })

  it('marks an incomplete purge failure, saying why', async () => {
    api = await startGitHub()
    const root = site(api)
    const github = await openOn(api, event('workflow_dispatch', root), log)
    const opened = await openMarks(github, SETTINGS, root, log)
    const marks = decideMarks(opened, { ...COMPLETE, stopped: 'Cancelled' })
    expect(marks).toEqual([
      expect.objectContaining({ state: 'failure', why: 'the run was cancelled' })
    ])
    await closeMarks(github, marks, true, log)
    expect(api.deployments[0]?.statuses.at(-1)?.description).toBe('the run was cancelled')
  })

  it('marks a complete purge failure when its report could not be written', async () => {
    api = await startGitHub()
    const root = site(api)
    const github = await openOn(api, event('workflow_dispatch', root), log)
    const marks = decideMarks(await openMarks(github, SETTINGS, root, log), COMPLETE)
    await closeMarks(github, marks, false, log)
    expect(api.deployments[0]?.statuses.at(-1)).toMatchObject({
      state: 'failure',
      description: 'the outputs or the job summary could not be written'
    })
  })

  it('refused, warns and goes on: the purge mark is not written', async () => {
    api = await startGitHub({ contents: 'read', deployments: 'read' })
    const root = site(api)
    const github = await openOn(api, event('workflow_dispatch', root), log)
    const marks = decideMarks(await openMarks(github, SETTINGS, root, log), COMPLETE)
    await closeMarks(github, marks, true, log)
    expect(marks).toEqual([
      expect.objectContaining({ state: 'not written', why: expect.stringMatching(/^403: /) })
    ])
    expect(log.lines.filter((line) => line.startsWith('warning: '))).toEqual([
      expect.stringMatching(
        /^warning: Could not record this purge of svc123 in edge-purge\/svc123 \(403: .*\): the purge goes on, and the next run with changed-since: last-purge compares from the older record, which is safe; /
      )
    ])
  })

  it('warns when GitHub does not take the closing status: the mark stays in_progress', async () => {
    api = await startGitHub()
    const root = site(api)
    const github = await openOn(api, event('workflow_dispatch', root), log)
    const marks = decideMarks(await openMarks(github, SETTINGS, root, log), COMPLETE)
    api.fault({ method: 'POST', path: /\/statuses$/, fault: { kind: 'reply', status: 502 } })
    await expect(closeMarks(github, marks, true, log)).resolves.toBeUndefined()
    expect(api.deployments[0]?.statuses.map((status) => status.state)).toEqual(['in_progress'])
    expect(log.lines.filter((line) => line.startsWith('warning: '))).toEqual([
      expect.stringMatching(
        /^warning: Could not mark the record of svc123 as success \(502: .*\): it stays in_progress, so the next run with changed-since: last-purge compares from the older record, which is safe$/
      )
    ])
  })
})
