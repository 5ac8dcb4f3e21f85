/**
 * The command's changed files, read from a git repository made in the test: `edge-purge`
 * (dist/cli/index.js) run in it against the fake purge API on 127.0.0.1, with --changed-since or
 * a GitLab push pipeline's variables; refusals exit 2 and send nothing.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { FakePurgeServer } from '../tools/fake-purge-api/server.js'
import { ROOT } from '../tools/run-like-runner.js'
import { gitRepo, type GitRepo } from './support/git-repo.js'

const CLI = join(ROOT, 'dist', 'cli', 'index.js')
const NODE = process.env.EDGE_PURGE_NODE || process.execPath
const TOKEN = 'test-token-5ecret'

let server: FakePurgeServer
let repo: GitRepo
/** The deployed commit before this one, and this one. */
let before: string
let after: string
beforeEach(async () => {
  server = await FakePurgeServer.start({ tokens: { [TOKEN]: 'engineer' } })
  repo = await gitRepo()
  before = await repo.commit({
    'public/index.html': 'home',
    'public/old.css': 'body { color: red }\n'.repeat(20),
    'public/gone.js': 'gone',
    'public/kept.txt': 'kept',
    'notes.md': 'not served'
  })
  repo.git('tag', 'deployed')
  repo.git('mv', 'public/old.css', 'public/new.css')
  after = await repo.commit({
    'public/index.html': 'home, changed',
    'public/gone.js': null,
    'public/added.png': 'png'
  })
  // Neither is a changed file: the deploy is of commits.
  await repo.write('public/kept.txt', 'changed, not committed')
  await repo.write('public/untracked.html', 'never added')
})
afterEach(async () => {
  await server.close()
  await repo.remove()
})

async function edgePurge(args: string[], env: Record<string, string> = {}) {
  const child = spawn(
    NODE,
    [CLI, '--changed-files', '--url-map', `public/ => ${server.url}/`, '--json', ...args],
    { cwd: repo.dir, env: { PATH: process.env.PATH ?? '', EDGE_PURGE_API_TOKEN: TOKEN, ...env } }
  )
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
  return { code, stdout, stderr }
}

const outputs = (stdout: string) => JSON.parse(stdout) as Record<string, unknown>
const purged = () => server.purgedUrls.map(({ url }) => url.slice(server.url.length)).sort()
/** What the commit between `before` and `after` changed, as URLs. */
const CHANGED = ['/', '/added.png', '/gone.js', '/index.html', '/new.css', '/old.css']

describe('changed files from local git', () => {
  it('purges what the commits since --changed-since changed, renames under both names', async () => {
    const run = await edgePurge(['--changed-since', 'deployed'])
    expect(run.code).toBe(0)
    expect(purged()).toEqual(CHANGED)
    expect(outputs(run.stdout)).toMatchObject({ base: before, 'base-source': 'input' })
  })

  it("purges a GitLab push pipeline's range, CI_COMMIT_BEFORE_SHA...CI_COMMIT_SHA", async () => {
    // A later commit the pipeline did not push: its file is not purged.
    await repo.commit({ 'public/later.html': 'later' })
    const pipeline = {
      GITLAB_CI: 'true',
      CI_PIPELINE_SOURCE: 'push',
      CI_COMMIT_BEFORE_SHA: before,
      CI_COMMIT_SHA: after
    }
    const run = await edgePurge([], pipeline)
    expect(run.code).toBe(0)
    expect(purged()).toEqual(CHANGED)
    expect(outputs(run.stdout)).toMatchObject({ base: before, 'base-source': 'push' })
  })
})

describe('refused: exit 2, nothing sent', () => {
  it("a new branch's all-zero before, saying to pass --changed-since or use mode: all", async () => {
    const run = await edgePurge([], {
      GITLAB_CI: 'true',
      CI_PIPELINE_SOURCE: 'push',
      CI_COMMIT_BEFORE_SHA: '0'.repeat(40),
      CI_COMMIT_SHA: after
    })
    expect(run.code).toBe(2)
    expect(run.stderr).toContain('--changed-since')
    expect(run.stderr).toContain('mode: all')
    expect(server.requests).toEqual([])
  })

  it('a run outside a push pipeline without --changed-since', async () => {
    const run = await edgePurge([])
    expect(run.code).toBe(2)
    expect(run.stderr).toContain('changed-since is required')
    expect(server.requests).toEqual([])
  })

  it('changed-since: last-purge, which needs GitHub, naming what it needs', async () => {
    const run = await edgePurge(['--changed-since', 'last-purge', '--service-id', 'svc123'], {
      EDGE_PURGE_GITHUB_TOKEN: 'gh-token'
    })
    expect(run.code).toBe(2)
    for (const needed of ['GITHUB_API_URL', 'GITHUB_REPOSITORY', 'GitHub token']) {
      expect(run.stderr).toContain(needed)
    }
    expect(server.requests).toEqual([])
  })
})
