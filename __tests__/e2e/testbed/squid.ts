/**
 * A throwaway squid forward proxy: foreground (`-N`), started with a config of its own in a folder
 * of its own under a temp dir, listening on a free port of 127.0.0.1. The packaged config will not
 * do: it denies `to_localhost`, and the packaged squid runs as the `proxy` user, which must be able
 * to write the folder (run as root, squid becomes that user; otherwise it stays the caller). So,
 * run as root, the folder is made where `proxy` can reach it: a private TMPDIR would lock it out.
 *
 * The host names it is given resolve to 127.0.0.1 through its `hosts_file` and nowhere else: the
 * action cannot reach them but through the proxy, and `@actions/http-client` proxies them (it never
 * proxies `localhost`, `127.*` or `[::1]`). It proxies for 127.0.0.1 alone, to those names alone,
 * and asks no DNS server but 127.0.0.1, so nothing leaves the machine. `stop()` ends it and
 * removes the folder.
 *
 * A test may also make it ask for proxy Basic authentication and let CONNECT reach only some ports
 * (`SquidOptions`), as a corporate proxy does; its access log says how each request was answered.
 */
import { execFile, execFileSync, spawn } from 'node:child_process'
import { accessSync, constants } from 'node:fs'
import { readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { Daemon, startOnFreePort, tempDirOthersReach } from './daemon.js'
import { findExecutable } from './find-executable.js'
import { pollUntil, sleep } from './http.js'

/** Where squid is: `$SQUID` if set, else on PATH or in the sbin directories. */
export const findSquid = (): string | undefined => findExecutable('squid', 'SQUID')

/** squid's helper for Basic authentication against an htpasswd file, where Debian's squid puts it. */
const BASIC_AUTH_HELPER = '/usr/lib/squid/basic_ncsa_auth'

/** The helper `SquidOptions.auth` needs, if installed. */
export function findBasicAuthHelper(): string | undefined {
  try {
    accessSync(BASIC_AUTH_HELPER, constants.X_OK)
    return BASIC_AUTH_HELPER
  } catch {
    return undefined
  }
}

export interface ProxyCredentials {
  user: string
  password: string
}

/** What a test may ask of its squid beyond proxying its host names for 127.0.0.1. */
export interface SquidOptions {
  /**
   * Proxy Basic authentication as this one user: any request without these credentials gets 407
   * (a CONNECT to a port `connectPorts` refuses gets its 403 first, as the packaged config orders
   * them). Needs basic_ncsa_auth (`findBasicAuthHelper`) and openssl, which hashes the password.
   */
  auth?: ProxyCredentials
  /** The only ports a CONNECT may reach; a CONNECT to any other gets 403. Default: every port. */
  connectPorts?: readonly number[]
}

/** One line of squid's native access log format, as squid writes it when a transaction ends. */
export interface AccessLogEntry {
  /** How squid handled it and the status: `TCP_TUNNEL/200` for a CONNECT it relayed. */
  result: string
  method: string
  /** `host:port` for a CONNECT, else the absolute URL. */
  url: string
  /** The user it authenticated, `-` for none. */
  user: string
  /** How it reached the server: `HIER_DIRECT/127.0.0.1`. */
  hierarchy: string
  /** The status squid answered with: 200, 403, 407… (0 when the line has none). */
  status: number
  line: string
}

/** The CONNECTs among `entries`: one per tunnel asked for, its `status` saying how it was answered. */
export const connectsIn = (entries: AccessLogEntry[]): AccessLogEntry[] =>
  entries.filter((entry) => entry.method === 'CONNECT')

const BIND_FAILURE = /Address already in use|Cannot bind/
const START_TIMEOUT_MS = 30_000

function config(dir: string, port: number, hostNames: string[], options: SquidOptions): string {
  return [
    `http_port 127.0.0.1:${port}`,
    `acl test_hosts dstdomain ${hostNames.join(' ')}`,
    'http_access deny !test_hosts',
    ...connectPortRules(options.connectPorts),
    ...authRules(dir, options.auth),
    'http_access allow localhost',
    'http_access deny all',
    `hosts_file ${join(dir, 'hosts')}`,
    'dns_nameservers 127.0.0.1',
    ...(asRoot() ? ['cache_effective_user proxy'] : []),
    `pid_filename ${join(dir, 'squid.pid')}`,
    `access_log stdio:${join(dir, 'access.log')}`,
    `cache_log ${join(dir, 'cache.log')}`,
    'cache_store_log none',
    'netdb_filename none',
    `coredump_dir ${dir}`,
    'cache deny all',
    'cache_mem 8 MB',
    'pinger_enable off',
    'shutdown_lifetime 0 seconds',
    'visible_hostname edge-purge-test',
    ''
  ].join('\n')
}

function connectPortRules(ports: readonly number[] | undefined): string[] {
  if (ports === undefined) return []
  const method = 'acl connect_method method CONNECT'
  // An acl needs a value: no port at all refuses every CONNECT.
  if (ports.length === 0) return [method, 'http_access deny connect_method']
  return [
    method,
    `acl connect_ports port ${ports.join(' ')}`,
    'http_access deny connect_method !connect_ports'
  ]
}

/** A `deny` whose last acl is `proxy_auth` answers 407, which asks the client for credentials. */
function authRules(dir: string, auth: ProxyCredentials | undefined): string[] {
  if (auth === undefined) return []
  return [
    `auth_param basic program ${BASIC_AUTH_HELPER} ${join(dir, 'passwords')}`,
    'auth_param basic children 2',
    'auth_param basic realm edge-purge-test',
    'acl authenticated proxy_auth REQUIRED',
    'http_access deny !authenticated'
  ]
}

/** The htpasswd line of `auth`, its password hashed by `openssl passwd -apr1` (read from stdin). */
function passwordLine({ user, password }: ProxyCredentials): string {
  if (!/^[^\s:]+$/.test(user))
    throw new Error(`proxy user ${JSON.stringify(user)}: no ':' or space`)
  if (/[\r\n]/.test(password)) throw new Error('proxy password: no line break')
  const openssl = findExecutable('openssl', 'OPENSSL')
  if (openssl === undefined) throw new Error('openssl not found: it hashes the proxy password')
  const hash = execFileSync(openssl, ['passwd', '-apr1', '-stdin'], {
    input: `${password}\n`,
    encoding: 'utf8'
  })
  return `${user}:${hash.trim()}\n`
}

export class Squid {
  private constructor(
    private readonly daemon: Daemon,
    readonly port: number,
    readonly dir: string
  ) {}

  /**
   * Starts squid with `hostNames` resolving to 127.0.0.1, asking for `options.auth` and letting
   * CONNECT reach only `options.connectPorts` when given; again on another port if its was taken.
   */
  static async start(
    squid: string,
    hostNames: string[],
    options: SquidOptions = {}
  ): Promise<Squid> {
    if (options.auth !== undefined && findBasicAuthHelper() === undefined)
      throw new Error(`proxy auth needs squid's ${BASIC_AUTH_HELPER}`)
    const launch = async (port: number, dir: string): Promise<Daemon> => {
      await writeFile(join(dir, 'hosts'), `127.0.0.1 ${hostNames.join(' ')}\n`)
      if (options.auth !== undefined)
        await writeFile(join(dir, 'passwords'), passwordLine(options.auth))
      if (asRoot()) await promisify(execFile)('chown', ['-R', 'proxy:proxy', dir])
      const configFile = join(dir, 'squid.conf')
      await writeFile(configFile, config(dir, port, hostNames, options))
      // A failed attempt's log would read as this one's.
      await rm(join(dir, 'cache.log'), { force: true })
      const child = spawn(squid, ['-N', '-f', configFile], { stdio: ['ignore', 'pipe', 'pipe'] })
      return Daemon.launch(child, false, (daemon) => waitUntilReady(daemon, port, dir))
    }
    const { server, port, dir } = await startOnFreePort(
      'edge-purge-squid-',
      launch,
      (error) => BIND_FAILURE.test(error.message),
      // Run as root, squid works as `proxy`, which must reach its folder; else it stays the caller.
      asRoot() ? tempDirOthersReach() : tmpdir()
    )
    return new Squid(server, port, dir)
  }

  /** The value of HTTPS_PROXY and HTTP_PROXY. */
  get url(): string {
    return `http://127.0.0.1:${this.port}`
  }

  /** Every line of the access log so far. */
  async accessLog(): Promise<AccessLogEntry[]> {
    const text = await readFile(join(this.dir, 'access.log'), 'utf8').catch(() => '')
    return text
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => {
        // time elapsed client result/status bytes method URL user hierarchy type
        const fields = line.split(/\s+/)
        const [, , , result = '', , method = '', url = '', user = '', hierarchy = ''] = fields
        const status = Number(/\/(\d+)$/.exec(result)?.[1] ?? 0)
        return { result, method, url, user, hierarchy, status, line }
      })
  }

  /**
   * The access log's lines from the `from`-th on, once `done` accepts them: squid writes a CONNECT's
   * line when its tunnel closes, a moment after the client has gone.
   */
  async accessLogFrom(
    from: number,
    done: (entries: AccessLogEntry[]) => boolean
  ): Promise<AccessLogEntry[]> {
    const seen = await pollUntil(async () => (await this.accessLog()).slice(from), done, {
      timeoutMs: 10_000,
      what: "squid's access log lines"
    })
    return seen.at(-1) ?? []
  }

  /**
   * The CONNECT lines from the `from`-th line of the access log on, once there are `count` of
   * them: `from` is `(await squid.accessLog()).length` before the requests, `count` how many
   * tunnels they asked for. squid writes a refused CONNECT's line at once, a relayed one's when
   * its tunnel closes.
   */
  async connectsFrom(from: number, count: number): Promise<AccessLogEntry[]> {
    const done = (entries: AccessLogEntry[]): boolean => connectsIn(entries).length >= count
    return connectsIn(await this.accessLogFrom(from, done))
  }

  /** Ends squid (SIGTERM, then SIGKILL after 15 s) and removes its folder. */
  async stop(): Promise<void> {
    await this.daemon.stop()
    await rm(this.dir, { recursive: true, force: true })
  }
}

const asRoot = (): boolean => process.getuid?.() === 0

const cacheLog = (dir: string): Promise<string> =>
  readFile(join(dir, 'cache.log'), 'utf8').catch(() => '')

/** Until squid says it accepts connections on its port (it logs nothing else when bound). */
async function waitUntilReady(daemon: Daemon, port: number, dir: string): Promise<void> {
  const accepting = `Accepting HTTP Socket connections at conn`
  const deadline = Date.now() + START_TIMEOUT_MS
  while (Date.now() < deadline) {
    const log = await cacheLog(dir)
    const said = `${daemon.output}\n${log}`
    if (log.includes(accepting) && log.includes(`local=127.0.0.1:${port} `)) return
    if (!daemon.running || BIND_FAILURE.test(said) || said.includes('FATAL')) {
      throw new Error(`squid did not start on port ${port}:\n${said.slice(-4000)}`)
    }
    await sleep(50)
  }
  throw new Error(`squid not ready within ${START_TIMEOUT_MS} ms:\n${await cacheLog(dir)}`)
}
