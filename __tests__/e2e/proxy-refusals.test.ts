/**
 * A corporate proxy that refuses: a squid that asks for proxy Basic authentication and lets CONNECT
 * reach some ports only. First the test bed itself, with raw CONNECTs (node's http.request, no
 * action): 407 for a wrong password, 200 and a working tunnel for the right one, 403 for another
 * port, each counted in its access log. Then dist/index.js behind it, run as the runner runs it: a
 * refusal costs one CONNECT per call in flight and is never retried, names the proxy without its
 * credentials, ends the wait for the origin at once, and in front of GitHub Enterprise ends the run
 * before any purge.
 *
 * The tunnels end at servers on 127.0.0.1, named for squid alone (`tunnel.test`, `purge-api.test`);
 * the second echo server is listening too, so its 403 is the port rule's, not a refused
 * connection. Without squid, its basic_ncsa_auth helper or openssl the suite is skipped, saying so.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { request } from 'node:http'
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { makeCertificate, type Certificate } from '../../tools/certificate.js'
import { FakeGitHubApi } from '../../tools/fake-github-api/server.js'
import { FakePurgeServer } from '../../tools/fake-purge-api/server.js'
import { runAction, type ActionRun, type ResultEntry } from '../../tools/run-like-runner.js'
import { expectExit } from './testbed/action-run.js'
import { findExecutable } from './testbed/find-executable.js'
import {
  findBasicAuthHelper,
  findSquid,
  Squid,
  type AccessLogEntry,
  type ProxyCredentials
} from './testbed/squid.js'

const SKIP_MESSAGE =
  'squid, its basic_ncsa_auth or openssl not installed: proxy refusal tests skipped'
const squidPath = findSquid()
const ready =
  findBasicAuthHelper() !== undefined && findExecutable('openssl', 'OPENSSL') !== undefined

const TUNNEL_HOST = 'tunnel.test'
/** The purge API, reached through the proxy by a name only squid resolves. */
const API_HOST = 'purge-api.test'
/** GitHub Enterprise Server, likewise. */
const GITHUB_HOST = 'github.test'
const CREDENTIALS: ProxyCredentials = { user: 'deploy-bot', password: 'corp-proxy-pass' }

/** A TCP server on 127.0.0.1 that sends back what it gets: the far end of a tunnel. */
async function echoServer(): Promise<Server> {
  const server = createServer((socket) => socket.pipe(socket))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return server
}

const portOf = (server: Server): number => (server.address() as AddressInfo).port

interface Answer {
  status: number
  /** The tunnel on a 200; destroyed by the caller. */
  socket: Socket
}

/** A raw CONNECT through the proxy to `target` (`host:port`), with these credentials if any. */
function connect(proxy: Squid, target: string, credentials?: ProxyCredentials): Promise<Answer> {
  const headers: Record<string, string> = { host: target }
  if (credentials !== undefined) {
    const token = Buffer.from(`${credentials.user}:${credentials.password}`).toString('base64')
    headers['proxy-authorization'] = `Basic ${token}`
  }
  return new Promise((resolve, reject) => {
    const connecting = request({
      host: '127.0.0.1',
      port: proxy.port,
      method: 'CONNECT',
      path: target,
      headers,
      agent: false
    })
    // Node answers any status of a CONNECT with 'connect', handing over the socket.
    connecting.once('connect', (response, socket) =>
      resolve({ status: response.statusCode ?? 0, socket })
    )
    connecting.once('error', reject)
    connecting.end()
  })
}

/** What the far end sends back for `text`: proof the tunnel reaches it. */
function echoed(socket: Socket, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    socket.once('data', (chunk: Buffer) => resolve(chunk.toString()))
    socket.once('error', reject)
    socket.write(text)
  })
}

/** One CONNECT as a test sees it: the status, what the far end echoed, the access log's line. */
interface Connected {
  status: number
  reply: string | undefined
  line: string
}

const shown = (entry: AccessLogEntry): string =>
  `${entry.status} ${entry.method} ${entry.url} ${entry.user}`

if (squidPath === undefined || !ready) {
  console.warn(`${SKIP_MESSAGE}. Install the Debian packages squid and openssl (.ci/run does).`)
  describe('the test bed’s proxy with authentication and allowed ports (squid)', () => {
    it.skip(SKIP_MESSAGE, () => undefined)
  })
} else {
  const squidExecutable = squidPath
  describe('the test bed’s proxy with authentication and allowed ports (squid)', () => {
    let squid: Squid
    let allowed: Server
    let forbidden: Server
    /** The purge API on the port CONNECT may reach, and one on a port it may not. */
    let api: FakePurgeServer
    let apiElsewhere: FakePurgeServer
    /** GitHub Enterprise Server behind the proxy, at its /api/v3 base. */
    let github: FakeGitHubApi
    /** The purge API's certificate, trusted through NODE_EXTRA_CA_CERTS as a company CA is. */
    let certificate: Certificate
    /** What beforeAll started, stopped after the suite however far it got. */
    const running: (() => Promise<void>)[] = []

    beforeAll(async () => {
      allowed = await echoServer()
      running.push(() => new Promise((resolve) => allowed.close(() => resolve())))
      forbidden = await echoServer()
      running.push(() => new Promise((resolve) => forbidden.close(() => resolve())))
      const certDir = await mkdtemp(join(tmpdir(), 'edge-purge-cert-'))
      running.push(() => rm(certDir, { recursive: true, force: true }))
      certificate = await makeCertificate(certDir, [API_HOST, GITHUB_HOST])
      api = await FakePurgeServer.start({ tls: certificate })
      running.push(() => api.close())
      apiElsewhere = await FakePurgeServer.start({ tls: certificate })
      running.push(() => apiElsewhere.close())
      github = await FakeGitHubApi.start({ basePath: '/api/v3', tls: certificate })
      running.push(() => github.close())
      squid = await Squid.start(squidExecutable, [TUNNEL_HOST, API_HOST, GITHUB_HOST], {
        auth: CREDENTIALS,
        connectPorts: [
          portOf(allowed),
          Number(new URL(api.url).port),
          Number(new URL(github.url).port)
        ]
      })
      running.push(() => squid.stop())
    }, 60_000)
    afterAll(async () => {
      for (const stop of running.splice(0).reverse()) await stop()
    }, 30_000)

    const to = (server: Server): string => `${TUNNEL_HOST}:${portOf(server)}`

    /** One CONNECT, its socket closed, and the access log's line for it. */
    async function connectOnce(target: string, credentials?: ProxyCredentials): Promise<Connected> {
      const mark = (await squid.accessLog()).length
      const answer = await connect(squid, target, credentials)
      const reply = answer.status === 200 ? await echoed(answer.socket, 'ping') : undefined
      answer.socket.destroy()
      const [line] = await squid.connectsFrom(mark, 1)
      return { status: answer.status, reply, line: line === undefined ? '' : shown(line) }
    }

    it('answers a CONNECT with a wrong password, or none, with 407', async () => {
      const wrong = { ...CREDENTIALS, password: 'not-the-password' }
      expect(await connectOnce(to(allowed), wrong)).toEqual({
        status: 407,
        reply: undefined,
        line: `407 CONNECT ${to(allowed)} ${CREDENTIALS.user}`
      })
      expect((await connectOnce(to(allowed))).status).toBe(407)
    })

    it('relays a CONNECT with the right password to the allowed port', async () => {
      expect(await connectOnce(to(allowed), CREDENTIALS)).toEqual({
        status: 200,
        reply: 'ping',
        line: `200 CONNECT ${to(allowed)} ${CREDENTIALS.user}`
      })
    })

    it('answers a CONNECT to another port with 403, even with the right password', async () => {
      expect(await connectOnce(to(forbidden), CREDENTIALS)).toEqual({
        status: 403,
        reply: undefined,
        line: `403 CONNECT ${to(forbidden)} -`
      })
    })

    it('counts every CONNECT in its access log, each with its status', async () => {
      const mark = (await squid.accessLog()).length
      const answers = await Promise.all([
        connect(squid, to(allowed), CREDENTIALS),
        connect(squid, to(allowed), { ...CREDENTIALS, password: 'wrong' }),
        connect(squid, to(forbidden), CREDENTIALS)
      ])
      for (const answer of answers) answer.socket.destroy()
      const connects = await squid.connectsFrom(mark, 3)
      expect(connects.map((entry) => entry.status).sort()).toEqual([200, 403, 407])
    })

    /** The proxy URL with these credentials, as a company's HTTPS_PROXY holds them. */
    const proxyWith = ({ user, password }: ProxyCredentials): string =>
      squid.url.replace('//', `//${user}:${password}@`)

    /** Every result: 3,000 of them are too many for the `results` output, so from its file. */
    const allResults = async (run: ActionRun): Promise<ResultEntry[]> =>
      JSON.parse(await readFile(run.outputs['results-file'] ?? '', 'utf8')) as ResultEntry[]

    /** 3,000 keys in 12 calls, 4 at once, to the purge API behind the proxy. */
    async function purgeThrough(server: FakePurgeServer, proxy: string) {
      const mark = (await squid.accessLog()).length
      const run = await runAction(
        {
          'api-token': 'test-token',
          'base-url': `https://${API_HOST}:${new URL(server.url).port}`,
          'service-id': 'svc123',
          keys: Array.from({ length: 3000 }, (_, index) => `k${index}`).join(' '),
          concurrency: '4'
        },
        { env: { HTTPS_PROXY: proxy, NODE_EXTRA_CA_CERTS: certificate.certFile } }
      )
      // Every CONNECT of the run, once the proxy has logged the first round's.
      const connects = await squid.connectsFrom(mark, 4)
      return { run, connects }
    }

    it('a wrong proxy password costs one CONNECT per call in flight, and names the proxy, never the password', async () => {
      const wrong = { ...CREDENTIALS, password: 'expired-pass' }
      const { run, connects } = await purgeThrough(api, proxyWith(wrong))
      expectExit(run, 1)
      expect(connects.map((entry) => entry.status)).toEqual([407, 407, 407, 407])
      expect(api.requests).toEqual([])
      const results = await allResults(run)
      expect(results).toHaveLength(3000)
      expect(results.every((result) => result.attempts <= 1)).toBe(true)
      expect(results[0]?.error).toBe(
        `the proxy 127.0.0.1:${squid.port} did not accept its credentials (407): check the user and password in HTTPS_PROXY`
      )
      const base64 = Buffer.from(`${wrong.user}:${wrong.password}`).toString('base64')
      for (const secret of ['expired-pass', base64]) {
        expect(run.log).not.toContain(secret)
        expect(run.summary).not.toContain(secret)
      }
    }, 60_000)

    it('a CONNECT the proxy forbids stops the calls to that host and port, naming them', async () => {
      const { run, connects } = await purgeThrough(apiElsewhere, proxyWith(CREDENTIALS))
      expectExit(run, 1)
      expect(connects.map((entry) => entry.status)).toEqual([403, 403, 403, 403])
      expect(apiElsewhere.requests).toEqual([])
      const target = `${API_HOST}:${new URL(apiElsewhere.url).port}`
      expect((await allResults(run))[0]?.error).toBe(
        `the proxy 127.0.0.1:${squid.port} refused the tunnel to ${target} (403): the proxy does not allow CONNECT to ${target}; ask its admins to allow it, or list the host in NO_PROXY`
      )
    }, 60_000)

    it('a wrong proxy password ends the wait for the origin at its first check', async () => {
      const mark = (await squid.accessLog()).length
      const origin = `https://${API_HOST}:${new URL(api.url).port}`
      const run = await runAction(
        {
          'api-token': 'test-token',
          'base-url': origin,
          'service-id': 'svc123',
          keys: 'blog',
          'wait-for-url': `${origin}/version`
        },
        {
          env: {
            HTTPS_PROXY: proxyWith({ ...CREDENTIALS, password: 'wrong' }),
            NODE_EXTRA_CA_CERTS: certificate.certFile
          }
        }
      )
      expectExit(run, 1)
      // Not the 600 s of wait-timeout: one check, one CONNECT, no purge.
      expect(run.elapsedMs).toBeLessThan(10_000)
      expect((await squid.connectsFrom(mark, 1)).map((entry) => entry.status)).toEqual([407])
      expect(api.requests).toEqual([])
    }, 60_000)

    it('a wrong proxy password in front of GitHub Enterprise ends the run before any purge, naming the proxy', async () => {
      const mark = (await squid.accessLog()).length
      const root = github.commit(null, [{ write: 'public/a.html' }])
      const after = github.commit(root, [{ write: 'public/a.html' }])
      const event = { ref: 'refs/heads/main', before: root, after, forced: false }
      const run = await runAction(
        {
          'api-token': 'test-token',
          'base-url': `https://${API_HOST}:${new URL(api.url).port}`,
          'service-id': 'svc123',
          'changed-files': 'true',
          'github-token': 'gh-test-token',
          'key-map': 'public/** => page'
        },
        {
          files: { 'event.json': JSON.stringify(event) },
          env: {
            HTTPS_PROXY: proxyWith({ ...CREDENTIALS, password: 'wrong' }),
            NODE_EXTRA_CA_CERTS: certificate.certFile,
            GITHUB_API_URL: `https://${GITHUB_HOST}:${new URL(github.url).port}/api/v3`,
            GITHUB_EVENT_NAME: 'push',
            GITHUB_EVENT_PATH: 'event.json',
            GITHUB_REPOSITORY: 'acme/site',
            GITHUB_SHA: after
          }
        }
      )
      expectExit(run, 1)
      expect((await squid.connectsFrom(mark, 1)).map((entry) => entry.status)).toEqual([407])
      expect(github.requests).toEqual([])
      expect(api.requests).toEqual([])
      // The error names the proxy; a re-run cannot pass, so it does not suggest one.
      const errors = run.stdout.split('\n').filter((line) => line.startsWith('::error::'))
      expect(errors).toHaveLength(1)
      expect(errors[0]).toContain(new URL(squid.url).host)
      expect(run.log).not.toContain('answers again')
    }, 60_000)
  })
}
