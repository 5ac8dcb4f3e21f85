/**
 * Self-hosted runners behind a corporate proxy, with a corporate CA and GitHub Enterprise Server:
 * the bundled dist/index.js, run as the runner runs it with HTTPS_PROXY and HTTP_PROXY pointing at
 * a real squid, purges over HTTPS (the test certificate trusted through NODE_EXTRA_CA_CERTS), sends
 * URL purges, waits for the origin, checks the edge and reads and writes GitHub at an `/api/v3`
 * base: every one of them through the proxy, as its access log shows.
 *
 * The hosts are names only squid resolves (its hosts_file maps them to 127.0.0.1), so a request
 * that bypassed the proxy could not reach them: `@actions/http-client` never proxies `localhost`
 * or `127.*`, and a test on those addresses would prove nothing. One squid serves the suite.
 * Without squid (PATH, /usr/sbin, or $SQUID) or openssl the suite is skipped, saying so.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { makeCertificate, type Certificate } from '../../tools/certificate.js'
import { FakeContentServer, VERSION_PATH } from '../../tools/fake-content-server.js'
import { FakePurgeServer } from '../../tools/fake-purge-api/server.js'
import { resultsOf, runAction, verificationOf, ROOT } from '../../tools/run-like-runner.js'
import { FakeGitHubApi } from '../../tools/fake-github-api/server.js'
import { runCommand } from '../../tools/run-command.js'
import { expectExit } from './testbed/action-run.js'
import { findExecutable } from './testbed/find-executable.js'
import { findSquid, Squid, type AccessLogEntry } from './testbed/squid.js'

const SKIP_MESSAGE = 'squid or openssl not installed: proxy tests skipped'
/** The command line, as dist/ bundles it, on the Node .ci/run names. */
const COMMAND = join(ROOT, 'dist', 'cli', 'index.js')
const NODE = process.env.EDGE_PURGE_NODE || process.execPath
const squidPath = findSquid()
const openssl = findExecutable('openssl', 'OPENSSL')

/** Names only the proxy resolves: `.test` is reserved (RFC 6761), no DNS server knows it. */
const API_HOST = 'purge-api.test'
const CONTENT_HOST = 'content.test'
const GITHUB_HOST = 'github.test'
const TOKEN = 'test-token'
const GH_TOKEN = 'gh-test-token'
const RELEASE = 'release-7d1e2a4'
/**
 * 127.0.0.1 written as an IPv4-mapped IPv6 address: loopback, reached without any name lookup, yet
 * not one of the spellings `@actions/http-client` always reaches directly, so only NO_PROXY can
 * keep it from the proxy. NO_PROXY holds the host as URLs write it: `[::ffff:7f00:1]`.
 */
const DIRECT_HOST = '[::ffff:7f00:1]'

const port = (url: string): string => new URL(url).port

/** The log lines as `result method url hierarchy`, sorted: what the proxy did, in one glance. */
const shown = (entries: AccessLogEntry[]): string[] =>
  entries.map((entry) => `${entry.result} ${entry.method} ${entry.url} ${entry.hierarchy}`).sort()

if (squidPath === undefined || openssl === undefined) {
  console.warn(
    `${SKIP_MESSAGE}. Install the Debian packages squid and openssl (.ci/run does), or set SQUID to squid's path.`
  )
  describe('through a forward proxy (squid)', () => {
    it.skip(SKIP_MESSAGE, () => undefined)
  })
} else {
  const squidExecutable = squidPath
  describe('through a forward proxy (squid)', () => {
    let squid: Squid
    let certDir: string
    let certificate: Certificate
    let api: FakePurgeServer
    let content: FakeContentServer
    let github: FakeGitHubApi
    /** Where this test's lines of the access log start. */
    let logMark: number
    /** The servers this test started, closed after it however far it got. */
    const running: { close(): Promise<void> }[] = []

    beforeAll(async () => {
      certDir = await mkdtemp(join(tmpdir(), 'edge-purge-cert-'))
      certificate = await makeCertificate(certDir, [API_HOST, GITHUB_HOST])
      squid = await Squid.start(squidExecutable, [API_HOST, CONTENT_HOST, GITHUB_HOST])
    }, 60_000)
    afterAll(async () => {
      await squid?.stop()
      if (certDir !== undefined) await rm(certDir, { recursive: true, force: true })
    }, 30_000)

    beforeEach(async () => {
      api = await FakePurgeServer.start({ tls: certificate })
      running.push(api)
      content = await FakeContentServer.start()
      running.push(content)
      logMark = (await squid.accessLog()).length
    })
    afterEach(async () => {
      // Not the variables: when beforeAll failed, jest runs this hook without beforeEach.
      await Promise.all(running.splice(0).map((server) => server.close()))
    })

    const apiUrl = (): string => `https://${API_HOST}:${port(api.url)}`
    const contentUrl = (path: string): string =>
      `http://${CONTENT_HOST}:${port(content.url)}${path}`
    const tunnelTo = (url: string): string =>
      `TCP_TUNNEL/200 CONNECT ${new URL(url).host} HIER_DIRECT/127.0.0.1`

    /** The runner's environment on a self-hosted runner behind the proxy, trusting the test CA. */
    const proxied = (extra: Record<string, string> = {}): Record<string, string> => ({
      HTTPS_PROXY: squid.url,
      HTTP_PROXY: squid.url,
      NODE_EXTRA_CA_CERTS: certificate.certFile,
      ...extra
    })

    /** This test's lines of the access log, once they name the host of each of `urls`. */
    const linesFor = (urls: string[]): Promise<AccessLogEntry[]> =>
      squid.accessLogFrom(logMark, (entries) =>
        urls.every((url) => entries.some((entry) => entry.url === new URL(url).host))
      )

    it('purges keys over HTTPS and URLs, waits for the origin and checks the edge, all through the proxy', async () => {
      content.release('release-6', RELEASE)
      content.page('/docs/', { age: 0, headers: { 'X-Cache': 'MISS' } })
      content.page('/about', { age: 0 })
      const urls = [contentUrl('/docs/'), contentUrl('/about')]
      const run = await runAction(
        {
          'api-token': TOKEN,
          'base-url': apiUrl(),
          'service-id': 'svc123',
          keys: 'blog products',
          urls: urls.join(' '),
          'wait-for-url': contentUrl(VERSION_PATH),
          'wait-for-text': RELEASE,
          'wait-timeout': '10',
          verify: 'true'
        },
        { env: proxied() }
      )
      expectExit(run, 0)

      // The purge API got the keys over TLS, addressed by the name only squid knows.
      expect(
        api.requests.map((request) => [request.method, request.path, request.headers.host])
      ).toEqual([['POST', '/service/svc123/purge', `${API_HOST}:${port(api.url)}`]])
      expect(api.purgedKeys.map((purged) => purged.key)).toEqual(['blog', 'products'])
      // Through the tunnel, PURGE reached the content host as sent: squid saw only the CONNECT.
      expect(content.purges.map((request) => [request.path, request.headers.host])).toEqual([
        ['/docs/', `${CONTENT_HOST}:${port(content.url)}`],
        ['/about', `${CONTENT_HOST}:${port(content.url)}`]
      ])
      expect(content.gets(VERSION_PATH)).toHaveLength(2)
      expect(run.outputs['wait-seconds']).not.toBe('')
      expect(resultsOf(run).map(({ target, status }) => [target, status])).toEqual([
        ['blog', 'purged'],
        ['products', 'purged'],
        [urls[0], 'purged'],
        [urls[1], 'purged']
      ])
      expect(verificationOf(run).map(({ url, fresh }) => [url, fresh])).toEqual([
        [urls[0], true],
        [urls[1], true]
      ])

      const lines = await linesFor([apiUrl(), contentUrl('/')])
      expect(new Set(shown(lines))).toEqual(
        new Set([tunnelTo(apiUrl()), tunnelTo(contentUrl('/'))])
      )
    })

    it('reads and writes GitHub Enterprise Server at GITHUB_API_URL=https://HOST/api/v3 through the proxy', async () => {
      github = await FakeGitHubApi.start({ basePath: '/api/v3', tls: certificate })
      running.push(github)
      const apiBase = `https://${GITHUB_HOST}:${port(github.url)}/api/v3`
      const root = github.commit(null, [{ write: 'public/a.html' }, { write: 'public/b.html' }])
      github.deploy('edge-purge/svc123', root, ['in_progress', 'success'])
      const after = github.commit(root, [{ write: 'public/a.html' }])
      const event = { ref: 'refs/heads/main', before: root, after, forced: false }
      const run = await runAction(
        {
          'api-token': TOKEN,
          'base-url': apiUrl(),
          'service-id': 'svc123',
          'changed-files': 'true',
          'changed-since': 'last-purge',
          'github-token': GH_TOKEN,
          'url-map': `public/ => ${contentUrl('/')}`
        },
        {
          files: { 'event.json': JSON.stringify(event) },
          env: proxied({
            GITHUB_API_URL: apiBase,
            GITHUB_EVENT_NAME: 'push',
            GITHUB_EVENT_PATH: 'event.json',
            GITHUB_REPOSITORY: 'acme/site',
            GITHUB_SHA: after
          })
        }
      )
      expectExit(run, 0)

      expect(run.outputs).toMatchObject({ base: root, 'base-source': 'record' })
      expect(content.purges.map((request) => request.path)).toEqual(['/a.html'])
      // Every call went under the /api/v3 base, to the name only squid knows.
      expect(github.requests.length).toBeGreaterThan(0)
      for (const request of github.requests) {
        expect(request.path).toMatch(/^\/api\/v3\/repos\/acme\/site\//)
        expect(request.headers.host).toBe(`${GITHUB_HOST}:${port(github.url)}`)
      }
      // The purge mark: a deployment of `after`, its status success.
      expect(github.deployments.at(-1)).toMatchObject({
        sha: after,
        environment: 'edge-purge/svc123'
      })
      expect(github.deployments.at(-1)?.statuses.map((status) => status.state)).toEqual([
        'in_progress',
        'success'
      ])

      const lines = await linesFor([apiBase, contentUrl('/')])
      expect(new Set(shown(lines))).toEqual(new Set([tunnelTo(apiBase), tunnelTo(contentUrl('/'))]))
    })

    it('the command line, too, reads and writes GitHub at GITHUB_API_URL through the proxy', async () => {
      github = await FakeGitHubApi.start({ basePath: '/api/v3', tls: certificate })
      running.push(github)
      const apiBase = `https://${GITHUB_HOST}:${port(github.url)}/api/v3`
      const root = github.commit(null, [{ write: 'public/a.html' }, { write: 'public/b.html' }])
      github.deploy('edge-purge/svc123', root, ['success'])
      const after = github.commit(root, [{ write: 'public/b.html' }])
      const cwd = await mkdtemp(join(tmpdir(), 'edge-purge-command-'))
      const args = ['--service-id', 'svc123', '--changed-files', '--changed-since', 'last-purge']
      const run = await runCommand(NODE, [COMMAND, ...args], {
        cwd,
        env: proxied({
          PATH: process.env.PATH ?? '',
          TMPDIR: cwd,
          EDGE_PURGE_API_TOKEN: TOKEN,
          EDGE_PURGE_BASE_URL: apiUrl(),
          EDGE_PURGE_URL_MAP: `public/ => ${contentUrl('/')}`,
          EDGE_PURGE_GITHUB_TOKEN: GH_TOKEN,
          GITHUB_API_URL: apiBase,
          GITHUB_REPOSITORY: 'acme/site',
          GITHUB_SHA: after
        })
      }).finally(() => rm(cwd, { recursive: true, force: true }))
      // Matched whole: a failure shows what the command printed.
      expect(run).toMatchObject({ code: 0 })

      expect(content.purges.map((request) => request.path)).toEqual(['/b.html'])
      expect(github.deployments.at(-1)?.statuses.map((status) => status.state)).toEqual([
        'in_progress',
        'success'
      ])
      const lines = await linesFor([apiBase, contentUrl('/')])
      expect(new Set(shown(lines))).toEqual(new Set([tunnelTo(apiBase), tunnelTo(contentUrl('/'))]))
    })

    it('reaches a NO_PROXY host directly while the rest goes through the proxy', async () => {
      content.release(RELEASE)
      const direct = `http://${DIRECT_HOST}:${port(content.url)}${VERSION_PATH}`
      const run = await runAction(
        {
          'api-token': TOKEN,
          'base-url': apiUrl(),
          'service-id': 'svc123',
          keys: 'blog',
          'wait-for-url': direct,
          'wait-for-text': RELEASE
        },
        { env: proxied({ NO_PROXY: `internal.example,${DIRECT_HOST}` }) }
      )
      expectExit(run, 0)

      expect(content.gets(VERSION_PATH).map((request) => request.headers.host)).toEqual([
        `${DIRECT_HOST}:${port(content.url)}`
      ])
      expect(api.purgedKeys.map((purged) => purged.key)).toEqual(['blog'])
      const lines = await linesFor([apiUrl()])
      expect(shown(lines)).toEqual([tunnelTo(apiUrl())])
    })
  })
}
