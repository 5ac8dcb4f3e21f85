/** Runner-contract tests of dist/ with changed-files: a fake GitHub API and the fake purge server. */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { makeCertificate } from '../tools/certificate.js'
import { FakeGitHubApi } from '../tools/fake-github-api/server.js'
import { FakePurgeServer } from '../tools/fake-purge-api/server.js'
import { elementCounts, renderMarkdown, textOf } from './support/rendered-markdown.js'
import { resultsOf, runAction, type ActionRun } from '../tools/run-like-runner.js'
import { twoCommitPush } from './support/two-commit-push.js'

const GH_TOKEN = 'gh-test-token'
let github: FakeGitHubApi
let purge: FakePurgeServer

beforeEach(async () => {
  github = await FakeGitHubApi.start({ tokens: { [GH_TOKEN]: 'read' } })
  purge = await FakePurgeServer.start()
})
afterEach(async () => {
  await github.close()
  await purge.close()
})

/** Runs the action for a push from `before` to `after`, as the runner would on that event. */
function runOnPush(
  before: string,
  after: string,
  inputs: Record<string, string>
): Promise<ActionRun> {
  return runAction(
    {
      'api-token': 'test-token',
      'base-url': purge.url,
      'service-id': 'svc123',
      'changed-files': 'true',
      'github-token': GH_TOKEN,
      'url-map': `public/ => ${purge.url}/`,
      'key-map': 'content/blog/** => blog\ncontent/**/*.md => content',
      ...inputs
    },
    {
      files: {
        'event.json': JSON.stringify({ ref: 'refs/heads/main', before, after, forced: false })
      },
      env: {
        GITHUB_EVENT_NAME: 'push',
        GITHUB_EVENT_PATH: 'event.json',
        GITHUB_REPOSITORY: 'acme/site',
        GITHUB_SHA: after,
        GITHUB_API_URL: github.url
      }
    }
  )
}

/** The summary names every file a result came from. */
function expectSummaryNamesEachFile(run: ActionRun): void {
  const files = new Set(resultsOf(run).map((result) => result.file))
  expect(files.size).toBeGreaterThan(0)
  for (const file of files) expect(textOf(run.summary)).toContain(file)
}

describe('changed-files', () => {
  it('purges what the whole push changed, each result naming its file', async () => {
    const { before, after } = twoCommitPush(github)
    const run = await runOnPush(before, after, {})
    expect(run.code).toBe(0)
    const purged = resultsOf(run).map((result) => [
      result.type,
      result.target,
      result.source,
      result.file
    ])
    expect(purged).toEqual(
      expect.arrayContaining([
        ['key', 'blog', 'changed-files', 'content/blog/second.md'],
        ['key', 'content', 'changed-files', 'content/blog/second.md'],
        ['url', `${purge.url}/docs/`, 'changed-files', 'public/docs/index.html'],
        ['url', `${purge.url}/docs/index.html`, 'changed-files', 'public/docs/index.html'],
        ['url', `${purge.url}/old.html`, 'changed-files', 'public/old.html'],
        ['url', `${purge.url}/new.html`, 'changed-files', 'public/new.html']
      ])
    )
    expect(purged).toHaveLength(6)
    expect(purge.purgedUrls.map((entry) => new URL(entry.url).pathname).sort()).toEqual([
      '/docs/',
      '/docs/index.html',
      '/new.html',
      '/old.html'
    ])
    expect(purge.purgedKeys.map((entry) => entry.key).sort()).toEqual(['blog', 'content'])
    expectSummaryNamesEachFile(run)
  })

  it('merges given keys with derived targets, marking which is which', async () => {
    const { before, after } = twoCommitPush(github)
    const run = await runOnPush(before, after, { keys: 'manual blog', 'url-map': '' })
    expect(run.code).toBe(0)
    const sources = Object.fromEntries(
      resultsOf(run).map((result) => [result.target, [result.source, result.file]])
    )
    expect(sources).toEqual({
      manual: ['input', null],
      blog: ['input', null],
      content: ['changed-files', 'content/blog/second.md']
    })
  })

  it('shows the derivation in a dry run without sending anything', async () => {
    const { before, after } = twoCommitPush(github)
    const run = await runOnPush(before, after, { 'dry-run': 'true' })
    expect(run.code).toBe(0)
    expect(purge.requests).toHaveLength(0)
    expect(resultsOf(run).every((result) => result.status === 'planned')).toBe(true)
    expect(resultsOf(run).every((result) => result.source === 'changed-files')).toBe(true)
    expectSummaryNamesEachFile(run)
  })

  it('succeeds with a notice when no changed file maps to a target', async () => {
    const before = github.commit(null, [{ write: 'README.md' }])
    const after = github.commit(before, [{ write: 'README.md' }])
    const run = await runOnPush(before, after, {})
    expect(run.code).toBe(0)
    const annotations = run.stdout
      .split('\n')
      .filter((line) => /^::(notice|warning|error)/.test(line))
    expect(annotations).toHaveLength(1)
    expect(annotations[0]?.startsWith('::notice::')).toBe(true)
    expect(purge.requests).toHaveLength(0)
    expect(resultsOf(run)).toEqual([])
    expect(run.outputs).toMatchObject({ 'purged-count': '0', 'failed-count': '0' })
  })

  it('fails before purging when a new branch gives no range and changed-since is empty', async () => {
    const after = github.commit(null, [{ write: 'public/a.html' }])
    const run = await runOnPush('0'.repeat(40), after, {})
    expect(run.code).toBe(1)
    expect(run.stdout).toMatch(/::error::.*changed-since/)
    expect(purge.requests).toHaveLength(0)
  })

  it('never prints the GitHub token', async () => {
    const { before, after } = twoCommitPush(github)
    const run = await runOnPush(before, after, {})
    const lines = run.log.split('\n').filter((line) => !line.startsWith('::add-mask::'))
    expect(lines.join('\n')).not.toContain(GH_TOKEN)
    // The runner is told to mask it, once.
    const masks = run.stdout.split('\n').filter((line) => line === `::add-mask::${GH_TOKEN}`)
    expect(masks).toHaveLength(1)
  })

  it('prints a file name with line breaks and commands as one inert line, and shows it as text (issue 9)', async () => {
    const injecting = 'public/a\n::set-output name=x::1\n::add-mask::a\nb.html'
    const breaking = 'public/c\n\n# Heading\n\n[link](https://evil.example)\n\nd.html'
    const before = github.commit(null, [{ write: 'README.md' }])
    const after = github.commit(before, [{ write: injecting }, { write: breaking }])
    const run = await runOnPush(before, after, {})
    expect(run.code).toBe(0)
    expect(purge.purgedUrls).toHaveLength(2)

    const own = new Set([`::add-mask::test-token`, `::add-mask::${GH_TOKEN}`])
    const commands = run.stdout
      .split(/\r\n|\r|\n/)
      .filter((line) => /^\s*::(set-output|add-mask|stop-commands|error title)/.test(line))
    expect(commands.filter((line) => !own.has(line))).toEqual([])
    expect(run.stdout).not.toContain('##[')
    // Each name is printed whole, its line breaks shown as \n.
    const shown = (name: string): string => name.replaceAll('\n', '\\n')
    expect(run.stdout).toContain(shown(injecting))
    expect(run.stdout).toContain(shown(breaking))

    const rendered = renderMarkdown(run.summary)
    expect(elementCounts(rendered)).not.toHaveProperty('h1')
    expect(elementCounts(rendered)).not.toHaveProperty('a')
    expect(textOf(rendered)).toContain(shown(breaking))
  })
})

/** The step's failure, as the runner shows it. */
const errorLines = (run: ActionRun): string[] =>
  run.stdout.split('\n').filter((line) => line.startsWith('::error::'))

describe('changed-files, when something stands between the runner and GitHub', () => {
  it('fails before purging on a sign-in page where GitHub’s JSON belongs, without a retry', async () => {
    const { before, after } = twoCommitPush(github)
    github.fault({
      path: /./,
      fault: {
        kind: 'reply',
        status: 200,
        body: '<!DOCTYPE html><html><body><form action="/login">Sign in</form></body></html>',
        headers: { 'content-type': 'text/html; charset=utf-8' }
      }
    })
    const run = await runOnPush(before, after, { 'max-attempts': '5' })

    expect(run.code).toBe(1)
    expect(purge.requests).toHaveLength(0)
    expect(github.requests).toHaveLength(1)
    expect(errorLines(run)).toEqual([
      `::error::GitHub API: could not compare ${before.slice(0, 7)}...${after.slice(0, 7)} in acme/site: GitHub answered a web page (200 text/html), not JSON: GITHUB_API_URL may be behind a sign-in`
    ])
  })

  it('fails before purging on a GitHub Enterprise certificate Node does not trust, after one connection', async () => {
    await github.close()
    const dir = await mkdtemp(join(tmpdir(), 'edge-purge-ghe-'))
    try {
      const tls = await makeCertificate(dir, ['127.0.0.1'])
      github = await FakeGitHubApi.start({
        tokens: { [GH_TOKEN]: 'read' },
        basePath: '/api/v3',
        tls
      })
      const { before, after } = twoCommitPush(github)
      const run = await runOnPush(before, after, { 'max-attempts': '5' })

      expect(run.code).toBe(1)
      expect(purge.requests).toHaveLength(0)
      expect(github.connections).toBe(1)
      expect(github.requests).toHaveLength(0)
      expect(errorLines(run)).toHaveLength(1)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
