/**
 * The command line as its users get it: the package packed with `npm pack`, installed from the
 * tarball offline into an empty folder (support/packed-package.ts), and its `edge-purge` run
 * against the fake purge API on 127.0.0.1: options and variables in; exit code, `--json`, files
 * and requests out. First, what the package holds.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { delimiter, dirname, join, relative } from 'node:path'
import { FakePurgeServer } from '../tools/fake-purge-api/server.js'
import { FakeGitHubApi } from '../tools/fake-github-api/server.js'
import { runCommand, type CommandOptions, type CommandRun } from '../tools/run-command.js'
import { ROOT, runAction } from '../tools/run-like-runner.js'
import { INPUT_GROUPS } from '../src/cli/input-groups.js'
import { ACTION_DEFAULTS, ACTION_DESCRIPTIONS } from '../src/cli/action-inputs.js'
import { packAndInstall, type InstalledPackage } from './support/packed-package.js'
import { gitlabPipeline, gitRepo, type GitRepo } from './support/git-repo.js'

/** The node `edge-purge` runs on: the bin's `#!/usr/bin/env node` finds it first on PATH. */
const NODE = process.env.EDGE_PURGE_NODE || process.execPath
const TOKEN = 'test-token-5ecret'
const GITHUB_TOKEN = 'ghs-5ecret-github'

let installed: InstalledPackage
beforeAll(async () => {
  installed = await packAndInstall(ROOT)
}, 120_000)
afterAll(async () => {
  // Undefined when packing or installing failed: packAndInstall has removed its folder then.
  await installed?.remove()
})

let server: FakePurgeServer
/** The run's TMPDIR: the default results file goes there, and every file a run writes. */
let temp: string
beforeEach(async () => {
  server = await FakePurgeServer.start({ tokens: { [TOKEN]: 'engineer' } })
  temp = await mkdtemp(join(tmpdir(), 'edge-purge-cli-'))
})
afterEach(async () => {
  await server.close()
  await rm(temp, { recursive: true, force: true })
})

interface RunOptions {
  env?: Record<string, string>
  /** Where it runs: the test's folder, or a git repository. */
  cwd?: string
  onStart?: CommandOptions['onStart']
}

function edgePurge(args: string[], options: RunOptions = {}): Promise<CommandRun> {
  const PATH = [dirname(NODE), process.env.PATH ?? ''].join(delimiter)
  // HOME too is the test's folder: whatever the command might write there is searched for tokens.
  const env = { PATH, HOME: temp, TMPDIR: temp, ...options.env }
  return runCommand(installed.bin, args, { ...options, env, cwd: options.cwd ?? temp })
}

const withToken = { env: { EDGE_PURGE_API_TOKEN: TOKEN } }
const api = (): string[] => ['--base-url', server.url, '--service-id', 'svc123']
const keyList = (count: number): string[] => Array.from({ length: count }, (_, i) => `key-${i}`)
const jsonOf = (run: CommandRun): Record<string, unknown> =>
  JSON.parse(run.stdout) as Record<string, unknown>
const statuses = (json: Record<string, unknown>): string[] =>
  (json.results as { status: string }[]).map((result) => result.status)

async function keysFile(count: number): Promise<string> {
  const path = join(temp, 'keys.txt')
  await writeFile(path, `${keyList(count).join('\n')}\n`)
  return path
}

/** Every file under `dir`, as a path relative to it, sorted. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true })
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort()
}

/**
 * Scripts npm runs by itself: the first three on `npm pack` and `npm publish`, which would change
 * the tarball after verify-dist vouched for dist/; the last three on every user's install.
 */
const LIFECYCLE_SCRIPTS = ['prepack', 'prepare', 'postpack', 'preinstall', 'install', 'postinstall']

interface PackageJson {
  private?: boolean
  bin?: Record<string, string>
  scripts?: Record<string, string>
  [field: string]: unknown
}

describe('the package npm publishes', () => {
  it('holds dist/ whole (dist/cli/ too), action.yml, LICENSE, README.md, package.json: nothing else', async () => {
    const packed = installed.pack.files.map((file) => file.path).sort()
    expect(packed).toEqual(expect.arrayContaining(['dist/index.js', 'dist/cli/index.js']))
    const dist = (await filesUnder(join(ROOT, 'dist'))).map((file) => `dist/${file}`)
    const others = ['LICENSE', 'README.md', 'action.yml', 'package.json']
    expect(packed).toEqual([...dist, ...others].sort())
    expect(installed.pack.entryCount).toBe(packed.length)
  })

  // The same bytes as the dist/ the runner-contract suites run: the packed action behaves as they say.
  it('installs offline, from an empty cache, the files of the repository byte for byte', async () => {
    const files = await filesUnder(installed.root)
    expect(files).toEqual(installed.pack.files.map((file) => file.path).sort())
    const differing: string[] = []
    for (const file of files) {
      const copy = await readFile(join(installed.root, file))
      if (!copy.equals(await readFile(join(ROOT, file)))) differing.push(file)
    }
    expect(differing).toEqual([])
  })

  it('declares no dependencies and runs no script of its own, so it installs alone', async () => {
    const text = await readFile(join(installed.root, 'package.json'), 'utf8')
    const manifest = JSON.parse(text) as PackageJson
    expect(manifest.private).toBeUndefined()
    for (const field of ['dependencies', 'optionalDependencies', 'peerDependencies'])
      expect(manifest[field]).toBeUndefined()
    expect(manifest.bin).toEqual({ 'edge-purge': 'dist/cli/index.js' })
    const scripts = Object.keys(manifest.scripts ?? {})
    expect(scripts.filter((name) => LIFECYCLE_SCRIPTS.includes(name))).toEqual([])
    const modules = await readdir(join(installed.app, 'node_modules'))
    expect(modules.filter((name) => !name.startsWith('.'))).toEqual(['edge-purge'])
  })
})

describe('what the command purges', () => {
  it('splits 600 keys from a keys-file into calls of 256, 256 and 88, and exits 0', async () => {
    const run = await edgePurge([...api(), '--keys-file', await keysFile(600), '--json'], withToken)
    expect(run.code).toBe(0)
    const sizes = server.requests.map(
      (request) => (JSON.parse(request.body) as { surrogate_keys: string[] }).surrogate_keys.length
    )
    expect(sizes).toEqual([256, 256, 88])
    const json = jsonOf(run)
    expect(json).toMatchObject({ 'purged-count': 600, 'failed-count': 0 })
    const file = json['results-file'] as string
    expect(file.startsWith(temp)).toBe(true)
    expect(JSON.parse(await readFile(file, 'utf8'))).toHaveLength(600)
    expect(json.results).toEqual(JSON.parse(await readFile(file, 'utf8')))
    // The summary's footer names the file, which stays; no runner deletes it, no artifact keeps it.
    const summary = run.stderr.slice(0, run.stderr.lastIndexOf('Results:'))
    expect(summary).toContain(file)
    expect(run.stderr).not.toMatch(/artifact|runner/i)
  })

  it('purges URLs, given as an option or as EDGE_PURGE_URLS (the option winning)', async () => {
    const urls = [`${server.url}/a`, `${server.url}/b`]
    const run = await edgePurge(['--urls', urls.join(' '), '--json'], {
      env: { EDGE_PURGE_URLS: `${server.url}/not-this` }
    })
    expect(run.code).toBe(0)
    expect(server.purgedUrls.map(({ url }) => url)).toEqual(urls)
    expect(statuses(jsonOf(run))).toEqual(['purged', 'purged'])
  })

  it('sends nothing on a dry run, from --dry-run or EDGE_PURGE_DRY_RUN', async () => {
    const flag = await edgePurge([...api(), '--keys', 'a b', '--dry-run', '--json'])
    const variable = await edgePurge([...api(), '--keys=a b', '--json'], {
      env: { EDGE_PURGE_DRY_RUN: 'true' }
    })
    for (const run of [flag, variable]) {
      expect(run.code).toBe(0)
      expect(statuses(jsonOf(run))).toEqual(['planned', 'planned'])
    }
    expect(server.requests).toEqual([])
  })

  it('--no-summary and --verify=false read as the inputs false', async () => {
    const run = await edgePurge([...api(), '--keys', 'a', '--no-summary', '--verify=false'], {
      ...withToken
    })
    expect(run.code).toBe(0)
    expect(server.requests).toHaveLength(1)
  })
})

describe('--help', () => {
  it.each(['--help', '-h'])(
    '%s: every input by group, own options, tokens, exit codes; exit 0',
    async (flag) => {
      const run = await edgePurge([flag, '--keys', 'a'])
      expect(run.code).toBe(0)
      expect(run.stderr).toBe('')
      const lines = run.stdout.split('\n')
      const titles = INPUT_GROUPS.map(([title]) => lines.indexOf(`${title}:`))
      expect(titles.every((at) => at >= 0)).toBe(true)
      expect([...titles].sort((a, b) => a - b)).toEqual(titles)
      const flat = run.stdout.replace(/\s+/g, ' ')
      INPUT_GROUPS.forEach(([, names], group) => {
        const section = lines.slice(titles[group], titles[group + 1] ?? undefined).join('\n')
        for (const name of names) {
          const shown = name.endsWith('-token')
            ? `EDGE_PURGE_${name.toUpperCase().replace('-', '_')}`
            : `--${name}`
          expect(section).toMatch(new RegExp(`^  ${shown}[ ,]`, 'm'))
          expect(flat).toContain(ACTION_DESCRIPTIONS[name])
        }
      })
      expect(run.stdout).toContain(`Default: ${ACTION_DEFAULTS['batch-size']}`)
      for (const option of [
        '--api-token-file',
        '--github-token-file',
        '--json',
        '--results-file',
        '--help, -h'
      ])
        expect(run.stdout).toContain(`  ${option}`)
      for (const code of [0, 1, 2, 130, 143, 129])
        expect(run.stdout).toMatch(new RegExp(`^  ${code} `, 'm'))
      expect(server.requests).toEqual([])
    }
  )
})

const JSON_VALUES = ['purge-ids', 'results', 'verification']

/**
 * An output of the action as --json gives it: counts (and wait-seconds) as numbers, three JSON values, strings; an
 * empty count or JSON value (nothing measured) as null.
 */
function asJson(name: string, value: string): unknown {
  const number = name.endsWith('-count') || name === 'wait-seconds'
  if ((number || JSON_VALUES.includes(name)) && value === '') return null
  if (number) return Number(value)
  if (JSON_VALUES.includes(name)) return JSON.parse(value)
  return value
}

describe('--json', () => {
  it('holds the outputs the action sets for the same inputs, by the same names and values', async () => {
    const inputs = { 'base-url': server.url, 'service-id': 'svc123', keys: 'a b c' }
    const urls = `${server.url}/page`
    server.fault({
      match: (request) => request.path.endsWith('/c') || request.body.includes('"c"'),
      action: { kind: 'reply', status: 400, body: '{"msg":"bad key"}' }
    })
    const action = await runAction(
      { ...inputs, urls, 'api-token': TOKEN, 'batch-size': '1' },
      { entry: join(installed.root, 'dist', 'index.js') }
    )
    const run = await edgePurge(
      ['--json', '--batch-size=1', '--base-url', server.url, '--service-id', 'svc123'],
      { env: { EDGE_PURGE_API_TOKEN: TOKEN, EDGE_PURGE_KEYS: 'a b c', EDGE_PURGE_URLS: urls } }
    )
    expect(action.code).toBe(1)
    expect(run.code).toBe(1)
    // The fake numbers its ids in order: the same ids, once the runs' own numbers are set aside.
    const normal = (value: unknown): unknown =>
      JSON.parse(JSON.stringify(value).replace(/\d+-1756794994-\d+(-1)?/g, 'ID'))
    const json = jsonOf(run)
    const { 'results-file': resultsFile, ...rest } = json
    expect(typeof resultsFile).toBe('string')
    const expected = Object.fromEntries(
      Object.entries(action.outputs)
        .filter(([name]) => name !== 'results-file')
        .map(([name, value]) => [name, asJson(name, value)])
    )
    expect(normal(rest)).toEqual(normal(expected))
  })
})

describe('refusals: exit 2, nothing sent', () => {
  it('refuses an input as the action does', async () => {
    const run = await edgePurge(
      [...api(), '--keys', 'a', '--batch-size', '999', '--json'],
      withToken
    )
    expect(run.code).toBe(2)
    expect(run.stdout).toBe('')
    expect(server.requests).toEqual([])
  })

  it('refuses an unknown option, naming the closest one', async () => {
    const run = await edgePurge([...api(), '--keys', 'a', '--dry-rn'], withToken)
    expect(run.code).toBe(2)
    expect(run.stderr).toContain('--dry-run')
    expect(server.requests).toEqual([])
  })

  it.each([
    ['EDGE_PURGE_DRY_RN', 'EDGE_PURGE_DRY_RUN'],
    ['EDGE_PURGE_KEY', 'EDGE_PURGE_KEYS']
  ])('refuses %s, a variable that names no input, naming %s', async (variable, closest) => {
    const run = await edgePurge([...api(), '--keys', 'a'], {
      env: { EDGE_PURGE_API_TOKEN: TOKEN, [variable]: 'true' }
    })
    expect(run.code).toBe(2)
    expect(run.stderr).toContain(variable)
    expect(run.stderr).toContain(closest)
    expect(server.requests).toEqual([])
  })

  it.each([['--api-token', TOKEN], [`--api-token=${TOKEN}`], ['--github-token', GITHUB_TOKEN]])(
    'refuses %s on the command line without echoing the value',
    async (...given) => {
      const run = await edgePurge([...api(), '--keys', 'a', ...given])
      expect(run.code).toBe(2)
      expect(run.stdout).toBe('')
      expect(run.stderr).not.toContain(TOKEN)
      expect(run.stderr).not.toContain(GITHUB_TOKEN)
      const name = given[0]?.includes('github') ? 'GITHUB_TOKEN' : 'API_TOKEN'
      expect(run.stderr).toContain(`EDGE_PURGE_${name}`)
      expect(server.requests).toEqual([])
    }
  )

  it('refuses a results file in a folder that does not exist, naming it', async () => {
    const missing = join(temp, 'no-such-folder', 'results.json')
    const run = await edgePurge([...api(), '--keys', 'a', '--results-file', missing], withToken)
    expect(run.code).toBe(2)
    expect(run.stderr).toContain(JSON.stringify(dirname(missing)))
    expect(server.requests).toEqual([])
  })

  it('refuses a token given both in its variable and in a file, as ambiguous', async () => {
    const file = join(temp, 'token')
    await writeFile(file, TOKEN)
    const run = await edgePurge([...api(), '--keys', 'a', '--api-token-file', file], withToken)
    expect(run.code).toBe(2)
    expect(server.requests).toEqual([])
  })
})

describe('the token', () => {
  it('is read from --api-token-file, its trailing newline and spaces trimmed', async () => {
    const file = join(temp, 'token')
    await writeFile(file, `  ${TOKEN} \n`)
    const run = await edgePurge([...api(), '--keys', 'a', '--api-token-file', file])
    expect(run.code).toBe(0)
    expect(server.requests.map((request) => request.headers['edge-key'])).toEqual([TOKEN])
  })

  it('rejected: exit 1, after at most concurrency requests', async () => {
    const run = await edgePurge(
      [...api(), '--keys-file', await keysFile(600), '--batch-size', '10', '--concurrency', '2'],
      { env: { EDGE_PURGE_API_TOKEN: 'not-the-token' } }
    )
    expect(run.code).toBe(1)
    expect(server.requests.length).toBeGreaterThan(0)
    expect(server.requests.length).toBeLessThanOrEqual(2)
  })

  it('shows in nothing written: stdout, stderr, the results file, nor any other file', async () => {
    // Keys and a URL that hold both tokens, and a server that quotes them back.
    const keys = [`k-${TOKEN}`, `k-${GITHUB_TOKEN}`].join(' ')
    server.fault({
      match: (request) => request.method === 'PURGE',
      action: { kind: 'reply', status: 500, body: `error for ${TOKEN} and ${GITHUB_TOKEN}` }
    })
    const urls = `${server.url}/${TOKEN}`
    const run = await edgePurge(
      [...api(), '--keys', keys, '--urls', urls, '--max-attempts', '1', '--json'],
      { env: { EDGE_PURGE_API_TOKEN: TOKEN, EDGE_PURGE_GITHUB_TOKEN: GITHUB_TOKEN } }
    )
    expect(run.code).toBe(1)
    expect(server.requests.length).toBe(2)
    expect(await filesUnder(temp)).toContain(relative(temp, jsonOf(run)['results-file'] as string))
    const written = [run.stdout, run.stderr]
    // Where the command could write: its cwd, TMPDIR and HOME (temp), and its own package's folder.
    for (const dir of [temp, installed.app])
      for (const file of await filesUnder(dir))
        written.push(await readFile(join(dir, file), 'utf8'))
    for (const text of written) {
      expect(text).not.toContain(TOKEN)
      expect(text).not.toContain(GITHUB_TOKEN)
    }
  })
})

describe('a cancel', () => {
  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143]
  ] as const)('after %s: exit %i, nothing new sent, the results file whole', async (name, code) => {
    server.fault({ action: { kind: 'delay', ms: 2000 } })
    const resultsFile = join(temp, 'results.json')
    let sentBefore = -1
    const run = await edgePurge(
      [
        ...api(),
        '--keys-file',
        await keysFile(600),
        '--concurrency',
        '1',
        '--results-file',
        resultsFile
      ],
      {
        ...withToken,
        onStart: (child) => {
          const poll = setInterval(() => {
            if (server.requests.length === 0) return
            clearInterval(poll)
            sentBefore = server.requests.length
            child.kill(name)
          }, 20)
        }
      }
    )
    expect(run.code).toBe(code)
    expect(sentBefore).toBe(1)
    expect(server.requests).toHaveLength(1)
    const results = JSON.parse(await readFile(resultsFile, 'utf8')) as { status: string }[]
    expect(results).toHaveLength(600)
    expect(results.some((result) => result.status === 'purged')).toBe(false)
  })
})

describe('changed files, read from the git repository the command runs in', () => {
  let repo: GitRepo
  /** The deployed commit before this one, and this one. */
  let before: string
  let after: string
  beforeEach(async () => {
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
  afterEach(() => repo.remove())

  const inRepo = (args: string[], env: Record<string, string> = {}) =>
    edgePurge(['--changed-files', '--url-map', `public/ => ${server.url}/`, '--json', ...args], {
      cwd: repo.dir,
      env: { EDGE_PURGE_API_TOKEN: TOKEN, ...env }
    })
  const pushPipeline = (from: string, to: string) => gitlabPipeline('push', from, to)

  const purgedPaths = () => server.purgedUrls.map(({ url }) => url.slice(server.url.length)).sort()
  /** What the commit between `before` and `after` changed, as URLs. */
  const CHANGED = ['/', '/added.png', '/gone.js', '/index.html', '/new.css', '/old.css']

  it('purges what the commits since --changed-since changed, renames under both names', async () => {
    const run = await inRepo(['--changed-since', 'deployed'])
    expect(run.code).toBe(0)
    expect(purgedPaths()).toEqual(CHANGED)
    expect(jsonOf(run)).toMatchObject({ base: before, 'base-source': 'input' })
  })

  it("purges a GitLab push pipeline's range, CI_COMMIT_BEFORE_SHA...CI_COMMIT_SHA", async () => {
    // A later commit the pipeline did not push: its file is not purged.
    await repo.commit({ 'public/later.html': 'later' })
    const run = await inRepo([], pushPipeline(before, after))
    expect(run.code).toBe(0)
    expect(purgedPaths()).toEqual(CHANGED)
    expect(jsonOf(run)).toMatchObject({ base: before, 'base-source': 'push' })
  })

  it("refuses a new branch's all-zero before (exit 2, nothing sent), saying to pass --changed-since or use mode: all", async () => {
    const run = await inRepo([], pushPipeline('0'.repeat(40), after))
    expect(run.code).toBe(2)
    expect(run.stderr).toContain('--changed-since')
    expect(run.stderr).toContain('mode: all')
    expect(server.requests).toEqual([])
  })

  it('refuses a run outside a push pipeline without --changed-since', async () => {
    const run = await inRepo([])
    expect(run.code).toBe(2)
    expect(run.stderr).toContain('changed-since is required')
    expect(server.requests).toEqual([])
  })

  it('refuses changed-since: last-purge without GitHub, naming what it needs', async () => {
    const run = await inRepo(['--changed-since', 'last-purge', '--service-id', 'svc123'], {
      EDGE_PURGE_GITHUB_TOKEN: GITHUB_TOKEN
    })
    expect(run.code).toBe(2)
    for (const needed of ['GITHUB_API_URL', 'GITHUB_REPOSITORY', 'EDGE_PURGE_GITHUB_TOKEN']) {
      expect(run.stderr).toContain(needed)
    }
    expect(server.requests).toEqual([])
  })
})

describe('changed-since: last-purge, with GitHub named by its variables', () => {
  let github: FakeGitHubApi
  beforeEach(async () => {
    github = await FakeGitHubApi.start({ tokens: { [GITHUB_TOKEN]: 'read' } })
  })
  afterEach(() => github.close())

  const marks = () =>
    github.deployments.map((made) => [made.sha, ...made.statuses.map(({ state }) => state)])

  it("purges what changed since the service's last complete purge, then marks this one", async () => {
    const root = github.commit(null, [{ write: 'public/a.html' }, { write: 'public/b.html' }])
    github.deploy('edge-purge/svc123', root, ['success'])
    const head = github.commit(root, [{ write: 'public/b.html' }])
    const run = await edgePurge(
      [
        ...api(),
        '--changed-files',
        '--changed-since',
        'last-purge',
        '--url-map',
        `public/ => ${server.url}/`,
        '--json'
      ],
      {
        env: {
          EDGE_PURGE_API_TOKEN: TOKEN,
          EDGE_PURGE_GITHUB_TOKEN: GITHUB_TOKEN,
          GITHUB_API_URL: github.url,
          GITHUB_REPOSITORY: 'acme/site',
          GITHUB_SHA: head,
          CI_JOB_URL: 'https://gitlab.example/acme/site/-/jobs/7'
        }
      }
    )
    expect(run.code).toBe(0)
    expect(server.purgedUrls.map(({ url }) => url)).toEqual([`${server.url}/b.html`])
    expect(jsonOf(run)).toMatchObject({ base: root, 'base-source': 'record' })
    // GitHub makes the older deployment of the environment inactive, as it does for the action's.
    expect(marks()).toEqual([
      [root, 'success', 'inactive'],
      [head, 'in_progress', 'success']
    ])
    expect(github.deployments.at(-1)?.statuses.at(-1)?.log_url).toBe(
      'https://gitlab.example/acme/site/-/jobs/7'
    )
  })
})
