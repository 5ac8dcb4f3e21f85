/** The commit a run deployed, from its event, and the walk through a list’s pages (github.ts). */
import { describe, expect, it } from '@jest/globals'
import { deployedCommit, walkPages } from '../src/github.js'

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

describe('the walk through a list’s pages', () => {
  it('reads at most mostPages of a list that never ends, then fails, saying so', async () => {
    const read: number[] = []
    const walk = walkPages(
      async (page) => {
        read.push(page)
        return { nextPage: page + 1 }
      },
      3,
      'the deployments of edge-purge/svc123',
      () => false
    )
    await expect(walk).rejects.toThrow(
      new Error(
        'GitHub names more than 3 pages of the deployments of edge-purge/svc123, more than a run reads'
      )
    )
    expect(read).toEqual([1, 2, 3])
  })
})
