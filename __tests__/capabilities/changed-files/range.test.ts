/** What range an event asks for, the previous release, and how a range reads in the log (changed-files/range.ts, pure). */
import { describe, expect, it } from '@jest/globals'
import {
  describeRange,
  eventRange,
  previousRelease,
  type ReleaseInfo
} from '../../../src/capabilities/changed-files/range.js'

describe('the range an event asks for', () => {
  const sha = (digit: string): string => digit.repeat(40)

  it('is before...after for a push: the whole push, not its last commit', () => {
    const range = eventRange({
      eventName: 'push',
      sha: sha('b'),
      payload: { ref: 'refs/heads/main', before: sha('a'), after: sha('b'), forced: false }
    })
    expect(range).toEqual({
      kind: 'push',
      base: sha('a'),
      head: sha('b'),
      ref: 'refs/heads/main',
      forced: false
    })
  })

  it('notices a push that created the branch (before is all zeros)', () => {
    const range = eventRange({
      eventName: 'push',
      sha: sha('b'),
      payload: { ref: 'refs/heads/feature', before: sha('0'), after: sha('b'), created: true }
    })
    expect(range).toEqual({ kind: 'new-branch', head: sha('b'), ref: 'refs/heads/feature' })
  })

  it('notices a push that deleted the branch', () => {
    const range = eventRange({
      eventName: 'push',
      sha: '',
      payload: { ref: 'refs/heads/old', before: sha('a'), after: sha('0'), deleted: true }
    })
    expect(range).toEqual({ kind: 'deleted-branch', ref: 'refs/heads/old' })
  })

  it('is the release for a release event, and nothing for other events', () => {
    const release = {
      id: 7,
      tag_name: 'v2.0.0',
      draft: false,
      published_at: '2025-01-02T00:00:00Z'
    }
    expect(eventRange({ eventName: 'release', sha: sha('c'), payload: { release } })).toEqual({
      kind: 'release',
      head: sha('c'),
      release: { id: 7, tagName: 'v2.0.0', draft: false, publishedAt: '2025-01-02T00:00:00Z' }
    })
    expect(eventRange({ eventName: 'workflow_dispatch', sha: sha('c'), payload: {} })).toEqual({
      kind: 'none',
      head: sha('c')
    })
  })

  it('ends at the commit the triggering workflow ran on for workflow_run, not GITHUB_SHA', () => {
    const range = eventRange({
      eventName: 'workflow_run',
      sha: sha('f'),
      payload: { workflow_run: { head_sha: sha('d'), head_branch: 'main' } }
    })
    expect(range).toEqual({ kind: 'none', head: sha('d') })
  })
})

describe('the previous release', () => {
  const release = (
    id: number,
    tagName: string,
    publishedAt: string | null,
    draft = false
  ): ReleaseInfo => ({ id, tagName, publishedAt, draft })
  const current = release(5, 'v1.3.0', '2025-03-01T00:00:00Z')

  it('is the newest release published before this one, skipping drafts', () => {
    const releases = [
      current,
      release(4, 'v1.4.0-draft', null, true),
      // Published once, then turned back into a draft: not what the site was deployed from.
      release(7, 'v1.2.1', '2025-02-15T00:00:00Z', true),
      release(2, 'v1.1.0', '2025-01-01T00:00:00Z'),
      release(3, 'v1.2.0-rc.1', '2025-02-01T00:00:00Z'),
      release(6, 'v1.3.1', '2025-04-01T00:00:00Z')
    ]
    expect(previousRelease(releases, current)?.tagName).toBe('v1.2.0-rc.1')
  })

  it('does not exist for the first release', () => {
    expect(previousRelease([current, release(4, 'draft', null, true)], current)).toBeUndefined()
  })
})

describe('describing a range for the log', () => {
  it('shortens SHAs and counts commits', () => {
    const before = 'abc1234'.padEnd(40, '0')
    const after = 'def5678'.padEnd(40, '9')
    expect(describeRange({ origin: 'push', base: before, head: after }, 3)).toBe(
      'push abc1234...def5678 (3 commits)'
    )
    expect(describeRange({ origin: 'input', base: 'main', head: after }, 1)).toBe(
      'changed-since main...def5678 (1 commit)'
    )
    expect(
      describeRange({ origin: 'release', base: 'v1.0.0', head: after, label: 'v1.1.0' }, 2)
    ).toBe('release v1.1.0: v1.0.0...def5678 (2 commits)')
  })
})
