/**
 * Choosing the commits a run compares (the event's own range, or changed-since) and listing their
 * files: `findChangedFiles` against the fake GitHub API, read through the runner's client.
 */
import { beforeEach, describe, expect, it } from '@jest/globals'
import { findChangedFiles } from '../../../src/capabilities/changed-files/choose-range.js'
import type { ComparedRange } from '../../../src/capabilities/changed-files/record.js'
import type { RunEvent } from '../../../src/github.js'
import { inputError } from '../../support/input-error.js'
import { recordedLog } from '../../support/recorded-log.js'
import type { FakeGitHubApi } from '../../../tools/fake-github-api/server.js'
import {
  ACCESS,
  connect,
  pushEvent,
  short,
  siteRoot,
  TOKEN,
  writes,
  fakeGitHubEachTest,
  type Access
} from '../../support/site-repository.js'
import { NO_SECRETS } from '../../support/guard.js'

const ZERO = '0'.repeat(40)

let api: FakeGitHubApi
fakeGitHubEachTest({ tokens: { [TOKEN]: 'read' } }, (started) => {
  api = started
})

beforeEach(() => {
  logged = recordedLog()
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
async function find(
  access: Access,
  event: RunEvent,
  changedSince: string | undefined
): Promise<ComparedRange> {
  const github = await connect(access, event, logged)
  return findChangedFiles(github, changedSince, { log: logged, guard: NO_SECRETS })
}

function dispatchEvent(sha: string): RunEvent {
  return { eventName: 'workflow_dispatch', sha, payload: {}, runId: '', runUrl: '' }
}

describe('a push', () => {
  it('lists the files of every commit of the push, not only the last one', async () => {
    const root = siteRoot(api)
    const [, , after] = api.chain(root, [
      writes(['public/a.html']),
      writes(['public/blog/post.html']),
      writes(['public/css/site.css'])
    ]) as [string, string, string]

    const report = await find(ACCESS, pushEvent(root, after), undefined)

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
    const root = siteRoot(api)
    const after = api.commit(root, writes(['public/a.html']))
    await find(ACCESS, pushEvent(root, after), undefined)
    expect(api.requests.length).toBeGreaterThan(0)
    for (const request of api.requests) {
      expect(request.headers.authorization).toBe(`token ${TOKEN}`)
      expect(request.path).toBe(`/repos/acme/site/compare/${root}...${after}`)
    }
  })

  it('lists nothing for a push that changed no files', async () => {
    const root = siteRoot(api)
    let report: unknown
    const warnings = await warningsDuring(async () => {
      report = await find(ACCESS, pushEvent(root, root), undefined)
    })
    expect(report).toMatchObject({ files: [], commits: 0, method: 'compare' })
    expect(warnings).toHaveLength(1)
  })

  it('uses its own range even when changed-since is set, and says so', async () => {
    const root = siteRoot(api)
    const middle = api.commit(root, writes(['public/a.html']))
    const after = api.commit(middle, writes(['public/b.html']))
    api.branch('deployed', root)
    const report = await find(ACCESS, pushEvent(middle, after), 'deployed')
    expect(report.files).toEqual(['public/b.html'])
    expect(report.notes).toEqual([expect.stringContaining('was not needed')])
  })
})

describe('a push whose before cannot be compared', () => {
  it('fails for a new branch without changed-since, saying what to set', async () => {
    const root = siteRoot(api)
    const after = api.commit(root, writes(['public/a.html']))
    const event = pushEvent(ZERO, after, { ref: 'refs/heads/feature', created: true })
    const message = await inputError(find(ACCESS, event, undefined))
    // The one test of what every refusal for want of changed-since says to do.
    expect(message).toBe(
      'changed-since: this push created refs/heads/feature (its before is 0000000), so the branch has no earlier commit to compare against. Set changed-since to the commit, branch or tag the site was last deployed from, or purge everything with mode: all'
    )
    expect(api.requests).toEqual([])
  })

  it('compares a new branch against changed-since, and says so', async () => {
    const root = siteRoot(api)
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
    const root = siteRoot(api)
    const after = api.commit(root, writes(['public/a.html']))
    const vanished = 'f'.repeat(40)
    const event = pushEvent(vanished, after, { forced: true })
    const message = await inputError(find(ACCESS, event, undefined))
    expect(message).toContain(
      `this push was forced: its before ${short(vanished)} is unknown to GitHub`
    )
  })

  it('falls back to changed-since after a force-push, and says so', async () => {
    const root = siteRoot(api)
    api.branch('deployed', root)
    const after = api.commit(root, writes(['public/a.html']))
    const event = pushEvent('f'.repeat(40), after, { forced: true })
    const report = await find(ACCESS, event, 'deployed')
    expect(report).toMatchObject({ files: ['public/a.html'], source: 'input' })
    expect(report.notes).toHaveLength(1)
  })

  it('fails for a force-push that replaced commits, whose before is not an ancestor', async () => {
    const root = siteRoot(api)
    const replaced = api.commit(root, writes(['public/draft.html']))
    const after = api.commit(root, writes(['public/a.html']))
    const event = pushEvent(replaced, after, { forced: true })
    const message = await inputError(find(ACCESS, event, undefined))
    // Comparing anyway would miss public/draft.html, which is cached and now gone.
    expect(message).toContain(`${short(replaced)} is not an ancestor of its after ${short(after)}`)
    expect(message).toContain('diverged')
  })

  it('fails for a force-push that moved the branch back', async () => {
    const root = siteRoot(api)
    const later = api.commit(root, writes(['public/a.html']))
    const message = await inputError(
      find(ACCESS, pushEvent(later, root, { forced: true }), undefined)
    )
    expect(message).toContain('moved the branch back')
  })

  it('fails when changed-since is not an ancestor either', async () => {
    const root = siteRoot(api)
    const elsewhere = api.commit(root, writes(['public/x.html']))
    api.branch('elsewhere', elsewhere)
    const after = api.commit(root, writes(['public/a.html']))
    const event = pushEvent(ZERO, after, { created: true })
    const message = await inputError(find(ACCESS, event, 'elsewhere'))
    expect(message).toMatch(
      /^changed-since: "elsewhere" is not an ancestor .*\(needed because this push created/
    )
  })
})

describe('a range from a commit to itself', () => {
  it('warns, naming both, when changed-since is the branch a force-push already moved', async () => {
    const root = siteRoot(api)
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
    const root = siteRoot(api)
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
    const root = siteRoot(api)
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

    const report = await find(
      ACCESS,
      releaseEvent(id, 'v1.1.0', v11, '2025-02-01T00:00:00Z'),
      undefined
    )

    expect(report).toMatchObject({
      files: ['public/blog/post.html', 'public/old.html'],
      base: 'v1.0.0',
      source: 'release',
      description: `release v1.1.0: v1.0.0...${short(v11)} (2 commits)`
    })
    expect(api.requestsTo(/\/releases$/).map((r) => r.query.get('page') ?? '1')).toEqual(['1', '2'])
  })

  it('needs changed-since for the first release', async () => {
    const root = siteRoot(api)
    const id = api.release({ tag: 'v1.0.0', sha: root, publishedAt: '2025-01-01T00:00:00Z' })
    const event = releaseEvent(id, 'v1.0.0', root, '2025-01-01T00:00:00Z')
    const message = await inputError(find(ACCESS, event, undefined))
    expect(message).toContain('v1.0.0 is the first published release')
    expect(api.requestsTo(/\/compare\//)).toEqual([])
  })
})

describe('other events', () => {
  it('require changed-since', async () => {
    const root = siteRoot(api)
    const event = dispatchEvent(root)
    const message = await inputError(find(ACCESS, event, undefined))
    expect(message).toMatch(/^changed-since is required for workflow_dispatch events/)
  })

  it('compare changed-since with the run’s commit', async () => {
    const root = siteRoot(api)
    api.branch('deployed', root)
    const head = api.commit(root, writes(['public/a.html']))
    const event = dispatchEvent(head)
    const report = await find(ACCESS, event, 'deployed')
    expect(report).toMatchObject({ files: ['public/a.html'], source: 'input', notes: [] })
  })

  it('name changed-since when GitHub does not know it', async () => {
    const root = siteRoot(api)
    const event = dispatchEvent(root)
    const message = await inputError(find(ACCESS, event, 'no-such-branch'))
    expect(message).toBe(
      'changed-since: "no-such-branch" is not a commit, branch or tag GitHub knows in acme/site; give a full commit SHA, branch or tag, or use mode: all'
    )
  })
})
