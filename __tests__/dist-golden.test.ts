/**
 * The golden runs: dist/ run as the runner runs it, in fixed scenes (fixed ids, inputs, commits
 * and run context), one fixture each in fixtures/golden/: mixed, big, changed-files, last-purge,
 * wait, dry-run, repeat and cancel. They are the contract every later step keeps byte for byte:
 * every output, the results and verification files, the annotations, the whole log and the
 * summary must stay as the fixtures hold them, and so must what each fake was sent and, for
 * last-purge, the deployments the fake GitHub holds after the run. Only what differs from one run
 * of a scene to the next (durations, ports, paths, file ids, instants, how often the edge check
 * re-checked a page) is replaced by a placeholder, each rule in support/golden.ts saying why.
 *
 * `GOLDEN_WRITE=1 npm test -- __tests__/dist-golden.test.ts` rewrites the fixtures: only in the
 * commit of a change meant to alter them, whose message lists what changed (the cause-first report
 * of issue 27 last did).
 */
import { afterEach, beforeEach, describe, it } from '@jest/globals'
import { FakeContentServer, VERSION_PATH } from '../tools/fake-content-server.js'
import { FakeGitHubApi } from '../tools/fake-github-api/server.js'
import { FakePurgeServer } from '../tools/fake-purge-api/server.js'
import { RUN_CONTEXT_ENV, runAction, type ActionRun } from '../tools/run-like-runner.js'
import { expectGolden, goldenRecord, sentLines } from './support/golden.js'
import { twoCommitPush } from './support/two-commit-push.js'

const TOKEN = 'golden-token-7f3a9c'

const GH_TOKEN = 'gh-golden-token-5e1d'
/** The release a deploy brings, which the wait awaits. */
const RELEASE = 'release-2f9c1e0'

let api: FakePurgeServer
let content: FakeContentServer
/** Started by the scenes that read the repository: changed files and last-purge. */
let github: FakeGitHubApi | undefined

beforeEach(async () => {
  api = await FakePurgeServer.start({ tokens: { [TOKEN]: 'engineer' } })
  content = await FakeContentServer.start()
})
afterEach(async () => {
  await api.close()
  await content.close()
  await github?.close()
  github = undefined
})

/** The purge API's inputs; every scene sends one call at a time, so ids follow the plan's order. */
const purgeApi = (): Record<string, string> => ({
  'api-token': TOKEN,
  'base-url': api.url,
  'service-id': 'svc123',
  concurrency: '1'
})

/** What the purge API and the content host were sent: the calls, the checks, in order. */
const sent = (run: ActionRun): Record<string, string[]> => ({
  purgeApiRequests: sentLines(run, api.requests),
  contentRequests: sentLines(run, content.requests)
})

/** The runner's variables for a push from `before` to `after` whose event file is event.json. */
function onPush(
  repository: FakeGitHubApi,
  before: string,
  after: string
): { env: Record<string, string>; files: Record<string, string> } {
  return {
    env: {
      ...RUN_CONTEXT_ENV,
      GITHUB_EVENT_PATH: 'event.json',
      GITHUB_SHA: after,
      GITHUB_API_URL: repository.url
    },
    files: {
      'event.json': JSON.stringify({ ref: 'refs/heads/main', before, after, forced: false })
    }
  }
}

/**
 * What the fake GitHub was asked, and the deployments (purge marks) it holds after the run, as
 * they are: their ids, statuses and creation times are the fake's own, the same every run.
 */
const recorded = (run: ActionRun, repository: FakeGitHubApi): Record<string, unknown> => ({
  githubRequests: sentLines(run, repository.requests),
  deployments: repository.deployments
})

const keys = (count: number, prefix: string): string =>
  Array.from({ length: count }, (_, index) => `${prefix}-${index}`).join('\n')

describe('golden runs', () => {
  it('a mixed run: keys in batches, one refused with the token echoed, URLs, an edge check', async () => {
    content.page('/fresh', { age: 0 })
    content.page('/stale', { age: 3600 })
    // The server echoes the token, raw and in base64, in the answer to the batch holding `echo`.
    api.fault({
      match: (request) => request.body.includes('"echo"'),
      action: {
        kind: 'reply',
        status: 400,
        body: `{"msg":"bad batch for ${TOKEN} (${Buffer.from(`Key:${TOKEN}`).toString('base64')})"}`
      }
    })
    const run = await runAction(
      {
        'api-token': TOKEN,
        'base-url': api.url,
        'service-id': 'svc123',
        keys: `${keys(260, 'product')}\necho`,
        urls: `${content.urlOf('/fresh')}\n${content.urlOf('/stale')}`,
        verify: 'true',
        'verify-timeout': '1',
        concurrency: '1',
        'max-attempts': '1'
      },
      { env: RUN_CONTEXT_ENV }
    )
    await expectGolden('mixed', await goldenRecord(run))
  })

  it('a big run: results past the 1 MB output limit, kept whole in the results file', async () => {
    const run = await runAction(
      {
        'api-token': TOKEN,
        'base-url': api.url,
        'service-id': 'svc123',
        'keys-file': 'keys.txt',
        concurrency: '1'
      },
      {
        env: RUN_CONTEXT_ENV,
        files: { 'keys.txt': keys(8000, 'catalogue-entry-with-a-longer-name') }
      }
    )
    await expectGolden('big', await goldenRecord(run))
  })

  it('changed files: a push of two commits, url-map and key-map turning its files into targets', async () => {
    github = await FakeGitHubApi.start({ tokens: { [GH_TOKEN]: 'read' } })
    const { before, after } = twoCommitPush(github)
    const run = await runAction(
      {
        ...purgeApi(),
        'changed-files': 'true',
        'github-token': GH_TOKEN,
        'url-map': `public/ => ${content.url}/`,
        'key-map': 'content/blog/** => blog\ncontent/**/*.md => content'
      },
      onPush(github, before, after)
    )
    await expectGolden(
      'changed-files',
      await goldenRecord(run, { ...sent(run), ...recorded(run, github) })
    )
  })

  it('last-purge: recalls the last complete purge past a failed one, purges since it, writes and closes its mark', async () => {
    github = await FakeGitHubApi.start({ tokens: { [GH_TOKEN]: 'read' } })
    const root = github.commit(null, [
      { write: 'public/a.html' },
      { write: 'public/b.html' },
      { write: 'public/c.html' }
    ])
    github.deploy('edge-purge/svc123', root, ['in_progress', 'success'])
    const failed = github.commit(root, [{ write: 'public/a.html' }])
    github.deploy('edge-purge/svc123', failed, ['in_progress', 'failure'], '8')
    const after = github.commit(failed, [{ write: 'public/b.html' }])
    const run = await runAction(
      {
        ...purgeApi(),
        'changed-files': 'true',
        'changed-since': 'last-purge',
        'github-token': GH_TOKEN,
        'url-map': `public/ => ${content.url}/`
      },
      onPush(github, failed, after)
    )
    await expectGolden(
      'last-purge',
      await goldenRecord(run, { ...sent(run), ...recorded(run, github) })
    )
  })

  it('the wait: the origin shows the release at its second check, then the purge', async () => {
    // The version endpoint answers the old release once, then the new one: two checks, 2 s apart.
    content.release('release-1', RELEASE)
    const run = await runAction(
      {
        ...purgeApi(),
        keys: 'blog',
        urls: content.urlOf('/page'),
        'wait-for-url': content.urlOf(VERSION_PATH),
        'wait-for-text': RELEASE,
        'wait-timeout': '10'
      },
      { env: RUN_CONTEXT_ENV }
    )
    await expectGolden('wait', await goldenRecord(run, sent(run)))
  })

  it('a dry run: keys, URLs, the wait, the edge check and the repeat pass planned, nothing sent', async () => {
    const run = await runAction(
      {
        ...purgeApi(),
        keys: 'blog products',
        urls: `${content.urlOf('/page')}\n${content.urlOf('/other')}`,
        'wait-for-url': content.urlOf(VERSION_PATH),
        'wait-for-text': RELEASE,
        verify: 'true',
        'repeat-after': '300',
        'dry-run': 'true'
      },
      { env: RUN_CONTEXT_ENV }
    )
    await expectGolden('dry-run', await goldenRecord(run, sent(run)))
  })

  it('the repeat pass: the same calls sent again 1 s after the first pass', async () => {
    const run = await runAction(
      {
        ...purgeApi(),
        keys: 'k1 k2 k3',
        urls: content.urlOf('/page'),
        'repeat-after': '1'
      },
      { env: RUN_CONTEXT_ENV }
    )
    await expectGolden('repeat', await goldenRecord(run, sent(run)))
  })

  it('a cancel: SIGINT while the fourth of six calls is out', async () => {
    // The fourth call, PURGE /p3, gets no answer until the fake closes: the runner's SIGINT always
    // lands while it is in flight, after three calls confirmed and before the last two are sent.
    content.fault({ path: '/p3', method: 'PURGE', action: { kind: 'delay', ms: 60_000 } })
    const run = await runAction(
      {
        ...purgeApi(),
        keys: 'a b c',
        urls: ['/p1', '/p2', '/p3', '/p4', '/p5'].map((path) => content.urlOf(path)).join('\n')
      },
      {
        env: RUN_CONTEXT_ENV,
        onStart: (child) => {
          const poll = setInterval(() => {
            if (!content.purges.some((request) => request.path === '/p3')) return
            clearInterval(poll)
            child.kill('SIGINT')
          }, 5)
          // A node that cannot start (a wrong EDGE_PURGE_NODE) never exits: stop polling then too.
          for (const end of ['exit', 'error']) child.on(end, () => clearInterval(poll))
        }
      }
    )
    await expectGolden('cancel', await goldenRecord(run, sent(run)))
  })
})
