/**
 * The files changed since each service's last complete purge (since-last-purge.ts), in-process
 * against the fake GitHub API through the runner's client: a base the head contains as a range,
 * any other by the two trees, services marked at one commit compared once, and a service with no
 * purge mark yet from the event's own range.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import type { RunEvent } from '../../../src/github.js'
import type { ComparedRange } from '../../../src/capabilities/changed-files/record.js'
import { changedSinceLastPurge } from '../../../src/capabilities/changed-files/since-last-purge.js'
import { recallLastPurges } from '../../../src/capabilities/changed-files/last-purge/recall.js'
import type { FakeGitHubApi } from '../../../tools/fake-github-api/server.js'
import { inputError } from '../../support/input-error.js'
import { ENV, openOn, pushOf, SETTINGS, site, startGitHub } from '../../support/purge-marks.js'
import { recordedLog, type RecordedLog } from '../../support/recorded-log.js'
import { writes } from '../../support/site-repository.js'

let api: FakeGitHubApi
let log: RecordedLog

beforeEach(() => {
  log = recordedLog()
})
afterEach(async () => {
  await api.close()
})

/** Reads the purge marks, then the files changed since them, for `trigger`. */
async function filesSince(
  trigger: RunEvent,
  serviceIds = SETTINGS.serviceIds
): Promise<ComparedRange[]> {
  const github = await openOn(api, trigger, log)
  const recalled = await recallLastPurges(github, { ...SETTINGS, serviceIds }, true, log)
  return changedSinceLastPurge(github, recalled, serviceIds, log)
}

describe('the files since the purge marks', () => {
  it('compares a base the head contains as a range', async () => {
    api = await startGitHub()
    const root = site(api)
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

  it('compares the two trees when the range lists 300 files', async () => {
    api = await startGitHub()
    const root = site(api)
    api.deploy(ENV, root, ['success'])
    const many = Array.from({ length: 310 }, (_, index) => `public/p${index}.html`)
    const after = api.commit(root, writes(many))
    const [range] = await filesSince(pushOf(root, after))
    expect(range?.method).toBe('trees')
    expect(range?.files).toHaveLength(310)
    expect(api.requestsTo(/\/compare\//)).toHaveLength(1)
    expect(api.requestsTo(/\/git\/trees\//)).toHaveLength(2)
  })

  it('compares the trees of a base the head does not contain: added, removed, changed', async () => {
    api = await startGitHub()
    const root = site(api)
    const marked = api.commit(root, [{ write: 'public/a.html' }, { remove: 'public/c.html' }])
    api.deploy(ENV, marked, ['success'], '43')
    const rewritten = api.commit(root, [{ write: 'public/new.html' }, { remove: 'public/b.html' }])
    const [range] = await filesSince(pushOf(marked, rewritten, true))
    expect(range).toMatchObject({
      method: 'trees',
      commits: undefined,
      baseSha: marked,
      description: `last complete purge of svc123: ${marked.slice(0, 7)}, run 43 → ${rewritten.slice(0, 7)} (not its ancestor)`
    })
    // a.html is back to root's; c.html is back; b.html is gone; new.html is new.
    expect(range?.files).toEqual([
      'public/a.html',
      'public/b.html',
      'public/c.html',
      'public/new.html'
    ])
  })

  it('fails before purging on a tree GitHub lists only in part, naming the commit', async () => {
    api = await startGitHub()
    const root = site(api)
    const marked = api.commit(root, writes(['public/a.html']))
    api.deploy(ENV, marked, ['success'])
    const rewritten = api.commit(root, writes(['public/b.html']))
    api.truncateTree(rewritten)
    // An InputError, before any purge; the sentence is the tree reader's (range-files.test.ts).
    const message = await inputError(filesSince(pushOf(marked, rewritten, true)))
    expect(message).toContain(rewritten.slice(0, 7))
    expect(api.requestsTo(/\/git\/trees\//)).toHaveLength(2)
  })

  it('fails before purging when GitHub no longer has the marked commit', async () => {
    api = await startGitHub()
    const root = site(api)
    const marked = api.commit(root, writes(['public/a.html']))
    api.deploy(ENV, marked, ['success'])
    const rewritten = api.commit(root, writes(['public/b.html']))
    api.forget(marked)
    const message = await inputError(filesSince(pushOf(marked, rewritten, true)))
    expect(message).toBe(
      `changed-since: last-purge: the last complete purge of svc123 was for ${marked.slice(0, 7)}, a commit GitHub no longer has (404), so what changed since cannot be known; purge everything with mode: all and changed-since: last-purge, which resets the record of svc123`
    )
  })

  it('compares once for services marked at the same commit, once more for another', async () => {
    api = await startGitHub()
    const root = site(api)
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
    expect(ranges[0]?.description).toContain('one, two')
  })

  it('uses the push’s own range for a service with no purge mark yet, with a notice', async () => {
    api = await startGitHub()
    const root = site(api)
    const after = api.commit(root, writes(['public/a.html']))
    const [range] = await filesSince(pushOf(root, after))
    expect(range).toMatchObject({ source: 'push', baseSha: root, files: ['public/a.html'] })
    expect(log.lines).toContain(
      "notice: No complete purge of svc123 is recorded yet: comparing this push's own range. This run records one when its purge is complete"
    )
  })

  it('without a purge mark, fails on a new branch, saying how to begin', async () => {
    api = await startGitHub()
    const after = site(api)
    const message = await inputError(filesSince(pushOf('0'.repeat(40), after)))
    expect(message).toMatch(
      /^changed-since: last-purge: no complete purge of svc123 is recorded yet, and this push created .*\. Begin the record with a run of mode: all and changed-since: last-purge /
    )
  })
})
