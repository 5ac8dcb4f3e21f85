/**
 * Runner-contract tests of dist/ with `changed-since: last-purge`: the purge mark of each service's
 * last complete purge, kept as GitHub deployments in the fake GitHub API, read before the purge
 * and written after it.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import {
  FakeGitHubApi,
  type FakeDeployment,
  type Permission
} from '../tools/fake-github-api/server.js'
import { FakeContentServer } from '../tools/fake-content-server.js'
import { FakePurgeServer } from '../tools/fake-purge-api/server.js'
import { renderMarkdown, textOf } from './support/rendered-markdown.js'
import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ROOT, runAction, type ActionRun, type RunOptions } from '../tools/run-like-runner.js'

const GH_TOKEN = 'gh-last-purge-token'
const RUN_ID = '4242'
const ENV = 'edge-purge/svc123'
let github: FakeGitHubApi
let purge: FakePurgeServer

async function start(permission: Permission = 'read'): Promise<void> {
  github = await FakeGitHubApi.start({ tokens: { [GH_TOKEN]: permission } })
}

beforeEach(async () => {
  purge = await FakePurgeServer.start({ services: ['svc123', 'svc-one', 'svc-two'] })
})
afterEach(async () => {
  await github.close()
  await purge.close()
})

interface Trigger {
  event: string
  payload: Record<string, unknown>
  sha: string
}

const push = (before: string, after: string, forced = false): Trigger => ({
  event: 'push',
  payload: { ref: 'refs/heads/main', before, after, forced },
  sha: after
})

const dispatch = (sha: string): Trigger => ({ event: 'workflow_dispatch', payload: {}, sha })

/** Runs dist/ as the runner would on `trigger`, with the page map `public/ → purge.url/`. */
function runOn(
  trigger: Trigger,
  inputs: Record<string, string> = {},
  options: Pick<RunOptions, 'entry' | 'onStart'> = {}
): Promise<ActionRun> {
  return runAction(
    {
      'api-token': 'test-token',
      'base-url': purge.url,
      'service-id': 'svc123',
      'changed-files': 'true',
      'changed-since': 'last-purge',
      'github-token': GH_TOKEN,
      'url-map': `public/ => ${purge.url}/`,
      ...inputs
    },
    {
      files: { 'event.json': JSON.stringify(trigger.payload) },
      env: {
        GITHUB_EVENT_NAME: trigger.event,
        GITHUB_EVENT_PATH: 'event.json',
        GITHUB_REPOSITORY: 'acme/site',
        GITHUB_SHA: trigger.sha,
        GITHUB_RUN_ID: RUN_ID,
        GITHUB_SERVER_URL: 'https://github.example',
        GITHUB_API_URL: github.url
      },
      ...options
    }
  )
}

/** The pages a run purged, as paths. */
const purgedPaths = (): string[] =>
  purge.purgedUrls.map((entry) => new URL(entry.url).pathname).sort()

/** Each deployment of an environment, oldest first, as `sha state state…`. */
const history = (environment = ENV): string[][] =>
  github.deployments
    .filter((made) => made.environment === environment)
    .map((made) => [made.sha, ...made.statuses.map((status) => status.state)])

/** The runner's annotations of one kind: `::error::…` lines and the like. */
const annotations = (run: ActionRun, kind: 'error' | 'warning' | 'notice'): string[] =>
  run.stdout.split('\n').filter((line) => line.startsWith(`::${kind}::`))

const newest = (environment = ENV): FakeDeployment | undefined =>
  github.deployments.filter((made) => made.environment === environment).at(-1)

/** A site of three pages. */
function site(): string {
  return github.commit(null, [
    { write: 'public/a.html' },
    { write: 'public/b.html' },
    { write: 'public/c.html' }
  ])
}

describe('changed-since: last-purge', () => {
  it('compares a first run with its push, then records the complete purge as a deployment', async () => {
    await start()
    const root = site()
    const after = github.commit(root, [{ write: 'public/a.html' }])
    const run = await runOn(push(root, after))

    expect(run.code).toBe(0)
    expect(purgedPaths()).toEqual(['/a.html'])
    expect(run.outputs).toMatchObject({ base: root, 'base-source': 'push' })
    expect(annotations(run, 'notice')).toHaveLength(1)
    expect(history()).toEqual([[after, 'in_progress', 'success']])
    const deployment = newest()
    expect(deployment).toMatchObject({
      ref: after,
      task: 'edge-purge',
      payload: { run_id: RUN_ID },
      transient_environment: false,
      production_environment: false
    })
    const create = github.requestsTo(/\/deployments$/).find((request) => request.method === 'POST')
    expect(create?.body).toMatchObject({ auto_merge: false, required_contexts: [] })
    expect(deployment?.statuses.at(-1)?.log_url).toBe(
      `https://github.example/acme/site/actions/runs/${RUN_ID}`
    )
  })

  it('after a failed purge, the next run purges both pushes’ files', async () => {
    await start()
    const root = site()
    github.deploy(ENV, root, ['in_progress', 'success'])
    const first = github.commit(root, [{ write: 'public/a.html' }])
    purge.fault({ times: 1, action: { kind: 'reply', status: 500 } })
    const failed = await runOn(push(root, first), { 'max-attempts': '1' })
    expect(failed.code).toBe(1)
    expect(purgedPaths()).toEqual([])
    expect(history().at(-1)).toEqual([first, 'in_progress', 'failure'])

    const second = github.commit(first, [{ write: 'public/b.html' }])
    const run = await runOn(push(first, second))

    expect(run.code).toBe(0)
    expect(purgedPaths()).toEqual(['/a.html', '/b.html'])
    expect(run.outputs).toMatchObject({ base: root, 'base-source': 'record' })
    expect(history().at(-1)).toEqual([second, 'in_progress', 'success'])
  })

  it('writes no success when a page is still stale at the edge', async () => {
    await start()
    const root = site()
    github.deploy(ENV, root, ['success'])
    const after = github.commit(root, [{ write: 'public/a.html' }])
    const content = await FakeContentServer.start()
    content.page('/a.html', { age: 3600 })
    const run = await runOn(push(root, after), {
      'url-map': `public/ => ${content.url}/`,
      verify: 'true',
      'verify-timeout': '1'
    }).finally(() => content.close())

    expect(run.code).toBe(1)
    expect(run.outputs['stale-count']).toBe('1')
    expect(history().at(-1)).toEqual([after, 'in_progress', 'failure'])
    expect(newest()?.statuses.at(-1)?.description).toBe('1 page not fresh at the edge')
  })

  it('reads the purge mark in a dry run, shows the base and writes nothing', async () => {
    await start()
    const root = site()
    github.deploy(ENV, root, ['success'])
    const after = github.commit(root, [{ write: 'public/b.html' }])
    const run = await runOn(push(root, after), { 'dry-run': 'true' })

    expect(run.code).toBe(0)
    expect(purge.requests).toHaveLength(0)
    expect(run.outputs).toMatchObject({ base: root, 'base-source': 'record' })
    const shown = textOf(renderMarkdown(run.summary))
    expect(shown).toContain(root.slice(0, 7))
    // Asserted nowhere else: what a dry run says it would record.
    expect(shown).toContain('Would then record the purge as a deployment of edge-purge/svc123')
    expect(github.requests.filter((request) => request.method !== 'GET')).toEqual([])
  })

  it('after a force-push, purges exactly the difference of the two trees', async () => {
    await start()
    const root = site()
    const recorded = github.commit(root, [{ write: 'public/a.html' }, { write: 'public/b.html' }])
    github.deploy(ENV, recorded, ['success'])
    // The history is rewritten from root: b.html gets back what root had, c.html changes.
    const rewritten = github.commit(root, [{ write: 'public/a.html' }, { write: 'public/c.html' }])
    const run = await runOn(push(recorded, rewritten, true))

    expect(run.code).toBe(0)
    // Each differs from what the edge was last purged for: a.html and c.html hold new content,
    // and b.html is back to root's, not the recorded commit's.
    expect(purgedPaths()).toEqual(['/a.html', '/b.html', '/c.html'])
    expect(run.outputs).toMatchObject({ base: recorded, 'base-source': 'record' })
    expect(github.requestsTo(/\/git\/trees\//)).toHaveLength(2)
    expect(history().at(-1)).toEqual([rewritten, 'in_progress', 'success'])
  })

  it('does not purge a file changed and changed back since the purge mark', async () => {
    await start()
    const root = site()
    github.deploy(ENV, root, ['success'])
    const dropped = github.commit(root, [{ write: 'public/a.html' }])
    const replaced = github.commit(root, [{ remove: 'public/b.html' }])
    const run = await runOn(push(dropped, replaced, true))

    expect(run.code).toBe(0)
    expect(purgedPaths()).toEqual(['/b.html'])
  })

  it('skips a newest deployment whose latest status is failure for an older success', async () => {
    await start()
    const root = site()
    const older = github.commit(root, [{ write: 'public/a.html' }])
    github.deploy(ENV, older, ['success'])
    const failed = github.commit(older, [{ write: 'public/b.html' }])
    github.deploy(ENV, failed, ['in_progress', 'failure'])
    const after = github.commit(failed, [{ write: 'public/c.html' }])
    const run = await runOn(push(failed, after))

    expect(run.code).toBe(0)
    expect(run.outputs).toMatchObject({ base: older, 'base-source': 'record' })
    expect(purgedPaths()).toEqual(['/b.html', '/c.html'])
  })

  it('keeps a purge mark per service and purges the union of their changes', async () => {
    await start()
    const root = site()
    const mid = github.commit(root, [{ write: 'public/a.html' }])
    github.deploy('edge-purge/svc-one', root, ['success'])
    github.deploy('edge-purge/svc-two', mid, ['success'])
    const after = github.commit(mid, [{ write: 'public/b.html' }])
    const run = await runOn(push(mid, after), {
      'service-id': 'svc-one, svc-two',
      'key-map': 'public/** => pages'
    })

    expect(run.code).toBe(0)
    expect(purgedPaths()).toEqual(['/a.html', '/b.html'])
    expect(purge.purgedKeys.map((entry) => entry.service).sort()).toEqual(['svc-one', 'svc-two'])
    expect(run.outputs.base).toBe(`${root}\n${mid}`)
    expect(run.outputs['base-source']).toBe('record\nrecord')
    expect(history('edge-purge/svc-one').at(-1)).toEqual([after, 'in_progress', 'success'])
    expect(history('edge-purge/svc-two').at(-1)).toEqual([after, 'in_progress', 'success'])
  })

  it('fails before purging when the purge marks cannot be read, naming the refusal', async () => {
    await start({ contents: 'read', deployments: 'none' })
    const root = site()
    const after = github.commit(root, [{ write: 'public/a.html' }])
    const run = await runOn(push(root, after))

    expect(run.code).toBe(1)
    expect(purge.requests).toHaveLength(0)
    expect(annotations(run, 'error').join('\n')).toContain('403')
  })

  it('keeps the purge’s result when the purge mark cannot be written, with a warning', async () => {
    await start({ contents: 'read', deployments: 'read' })
    const root = site()
    const after = github.commit(root, [{ write: 'public/a.html' }])
    const run = await runOn(push(root, after))

    expect(run.code).toBe(0)
    expect(purgedPaths()).toEqual(['/a.html'])
    expect(run.outputs['purged-count']).toBe('1')
    expect(annotations(run, 'error')).toEqual([])
    expect(annotations(run, 'warning')).toHaveLength(1)
    expect(github.deployments).toHaveLength(0)
  })

  it('on workflow_dispatch, compares from the purge mark, and without one fails before purging', async () => {
    await start()
    const root = site()
    const after = github.commit(root, [{ write: 'public/c.html' }])
    const without = await runOn(dispatch(after))
    expect(without.code).toBe(1)
    expect(purge.requests).toHaveLength(0)
    expect(annotations(without, 'error')).not.toEqual([])

    github.deploy(ENV, root, ['success'])
    const run = await runOn(dispatch(after))
    expect(run.code).toBe(0)
    expect(purgedPaths()).toEqual(['/c.html'])
    expect(run.outputs).toMatchObject({ base: root, 'base-source': 'record' })
  })

  it('starts the purge mark with mode: all, reading nothing', async () => {
    await start()
    const root = site()
    const run = await runOn(dispatch(root), {
      'changed-files': 'false',
      mode: 'all',
      'url-map': ''
    })

    expect(run.code).toBe(0)
    expect(purge.purgeAlls).toEqual(['svc123'])
    expect(github.requests.filter((request) => request.method === 'GET')).toEqual([])
    expect(history()).toEqual([[root, 'in_progress', 'success']])
    expect(run.outputs).toMatchObject({ base: '', 'base-source': '' })
  })

  it('sends the token with every GitHub call and never prints it', async () => {
    await start()
    const root = site()
    github.deploy(ENV, root, ['success'])
    const after = github.commit(root, [{ write: 'public/a.html' }])
    const run = await runOn(push(root, after))

    expect(run.code).toBe(0)
    const calls = github.requests.filter((request) => request.headers.authorization !== undefined)
    expect(calls.length).toBeGreaterThan(0)
    expect(calls).toHaveLength(github.requests.length)
    expect(calls.every((request) => request.headers.authorization === `token ${GH_TOKEN}`)).toBe(
      true
    )
    const lines = run.log.split('\n').filter((line) => !line.startsWith('::add-mask::'))
    expect(lines.join('\n')).not.toContain(GH_TOKEN)
    expect(run.summary).not.toContain(GH_TOKEN)
  })
})

describe('GitHub trouble', () => {
  it('a 502 on reading the purge mark is retried, and the purge happens', async () => {
    await start()
    const root = site()
    github.deploy(ENV, root, ['success'])
    const after = github.commit(root, [{ write: 'public/a.html' }])
    github.fault({
      method: 'GET',
      path: /\/deployments$/,
      times: 1,
      fault: { kind: 'reply', status: 502 }
    })
    const run = await runOn(push(root, after))

    expect(run.code).toBe(0)
    expect(github.faultsLeft()).toBe(0)
    expect(purgedPaths()).toEqual(['/a.html'])
    expect(history().at(-1)).toEqual([after, 'in_progress', 'success'])
  })

  it('a rate limit fails before purging, without a retry, naming when it resets', async () => {
    await start()
    const root = site()
    const after = github.commit(root, [{ write: 'public/a.html' }])
    const resetAt = Math.floor(Date.now() / 1000) + 3600
    github.fault({ path: /\/deployments$/, fault: { kind: 'primary-limit', resetAt } })
    const run = await runOn(push(root, after))

    expect(run.code).toBe(1)
    expect(purge.requests).toHaveLength(0)
    expect(github.requestsTo(/\/deployments$/)).toHaveLength(1)
    const [error, ...others] = annotations(run, 'error')
    expect(error).toContain(new Date(resetAt * 1000).toISOString())
    expect(others).toEqual([])
  })

  it('a GitHub that never answers ends at the deadline, after its attempts, before purging', async () => {
    await start()
    const root = site()
    const after = github.commit(root, [{ write: 'public/a.html' }])
    github.fault({ path: /\/deployments$/, fault: { kind: 'trickle' } })
    const run = await runOn(push(root, after), { timeout: '1', 'max-attempts': '2' })

    expect(run.code).toBe(1)
    expect(run.elapsedMs).toBeLessThan(8000)
    expect(github.requestsTo(/\/deployments$/)).toHaveLength(2)
    expect(annotations(run, 'error')).not.toEqual([])
    expect(purge.requests).toHaveLength(0)
  })

  it('SIGINT while the purge mark is written: ends within 10 s, every target reported', async () => {
    await start()
    const root = site()
    github.deploy(ENV, root, ['success'])
    const after = github.commit(root, [{ write: 'public/a.html' }, { write: 'public/b.html' }])
    github.fault({ method: 'POST', path: /\/deployments$/, fault: { kind: 'silent' } })
    let signalledAt = 0
    const run = await runOn(
      push(root, after),
      {},
      {
        onStart: (child) => {
          const poll = setInterval(() => {
            if (!github.requests.some((request) => request.method === 'POST')) return
            clearInterval(poll)
            signalledAt = performance.now()
            child.kill('SIGINT')
          }, 5)
          child.on('exit', () => clearInterval(poll))
        }
      }
    )

    expect(performance.now() - signalledAt).toBeLessThan(10_000)
    expect(run.code).toBe(1)
    expect(purge.requests).toHaveLength(0)
    const results = JSON.parse(run.outputs.results ?? '[]') as { error: string }[]
    expect(results.map((result) => result.error)).toEqual([
      'not sent: the run was cancelled',
      'not sent: the run was cancelled'
    ])
    expect(run.outputs['results-file']).not.toBe('')
    expect(history().at(-1)).toEqual([root, 'success'])
  })

  it('SIGINT while the purge mark is closed: ends within 10 s with every output, the purge mark not success', async () => {
    await start()
    const root = site()
    github.deploy(ENV, root, ['success'])
    const after = github.commit(root, [{ write: 'public/a.html' }])
    // The purge call waits long enough for the close to be made to hang first.
    purge.fault({ times: 1, action: { kind: 'delay', ms: 500 } })
    let signalledAt = 0
    const run = await runOn(
      push(root, after),
      {},
      {
        onStart: (child) => {
          const poll = setInterval(() => {
            if (purge.requests.length > 0 && github.faultsLeft() === 0 && signalledAt === 0) {
              github.fault({ method: 'POST', path: /\/statuses$/, fault: { kind: 'silent' } })
            }
            const closes = github
              .requestsTo(/\/statuses$/)
              .filter((request) => request.method === 'POST')
            if (closes.length < 2) return
            clearInterval(poll)
            signalledAt = performance.now()
            child.kill('SIGINT')
          }, 5)
          child.on('exit', () => clearInterval(poll))
        }
      }
    )

    expect(signalledAt).toBeGreaterThan(0)
    expect(performance.now() - signalledAt).toBeLessThan(10_000)
    expect(purgedPaths()).toEqual(['/a.html'])
    expect(run.outputs).toMatchObject({ 'purged-count': '1', 'failed-count': '0' })
    const results = JSON.parse(run.outputs.results ?? '[]') as { target: string }[]
    expect(results).toHaveLength(1)
    // The summary is written, naming what was purged.
    expect(textOf(renderMarkdown(run.summary))).toContain(results[0]?.target ?? '?')
    expect(history().at(-1)).toEqual([after, 'in_progress'])
    expect(annotations(run, 'warning')).toHaveLength(1)
  })

  it('an unexpected error after the purge fails the step and records failure, never success', async () => {
    await start()
    const root = site()
    github.deploy(ENV, root, ['success'])
    const after = github.commit(root, [{ write: 'public/a.html' }])
    const dist = await mkdtemp(join(tmpdir(), 'edge-purge-dist-'))
    try {
      await cp(join(ROOT, 'dist'), dist, { recursive: true })
      // The chunk of the edge check goes missing, as a broken checkout of dist/ would lose it.
      for (const name of await readdir(dist)) {
        const text = await readFile(join(dist, name), 'utf8').catch(() => '')
        if (name !== 'index.js' && text.includes('capabilities/edge-check/check.ts'))
          await rm(join(dist, name))
      }
      const run = await runOn(
        push(root, after),
        { verify: 'true' },
        { entry: join(dist, 'index.js') }
      )

      expect(run.code).toBe(1)
      expect(purgedPaths()).toEqual(['/a.html'])
      expect(annotations(run, 'error')).not.toEqual([])
      expect(run.outputs).toMatchObject({ 'purged-count': '1', 'stale-count': '1' })
      expect(history().at(-1)).toEqual([after, 'in_progress', 'failure'])
      expect(newest()?.statuses.at(-1)?.description).toBe('the run stopped on an unexpected error')
    } finally {
      await rm(dist, { recursive: true, force: true })
    }
  })

  it('on workflow_run, the purge mark names the commit the triggering workflow ran on, not GITHUB_SHA', async () => {
    await start()
    const root = site()
    github.deploy(ENV, root, ['success'])
    const deployed = github.commit(root, [{ write: 'public/a.html' }])
    const newest = github.commit(deployed, [{ write: 'public/b.html' }])
    const trigger: Trigger = {
      event: 'workflow_run',
      payload: { workflow_run: { head_sha: deployed, head_branch: 'main' } },
      sha: newest
    }
    const run = await runOn(trigger)

    expect(run.code).toBe(0)
    expect(purgedPaths()).toEqual(['/a.html'])
    expect(history().at(-1)).toEqual([deployed, 'in_progress', 'success'])
  })
})
