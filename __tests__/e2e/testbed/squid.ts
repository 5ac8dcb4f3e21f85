/**
 * A throwaway squid forward proxy: foreground (`-N`), started with a config of its own in a folder
 * of its own under the system temp dir, listening on a free port of 127.0.0.1. The packaged config
 * will not do: it denies `to_localhost`, and the packaged squid runs as the `proxy` user, which must
 * be able to write the folder (run as root, squid becomes that user; otherwise it stays the caller).
 *
 * The host names it is given resolve to 127.0.0.1 through its `hosts_file` and nowhere else: the
 * action cannot reach them but through the proxy, and `@actions/http-client` proxies them (it never
 * proxies `localhost`, `127.*` or `[::1]`). It proxies for 127.0.0.1 alone, to those names alone,
 * and asks no DNS server but 127.0.0.1, so nothing leaves the machine. `stop()` ends it and
 * removes the folder.
 */
import { execFile, spawn } from 'node:child_process'
import { readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { Daemon, startOnFreePort } from './daemon.js'
import { findExecutable } from './find-executable.js'
import { pollUntil, sleep } from './http.js'

/** Where squid is: `$SQUID` if set, else on PATH or in the sbin directories. */
export const findSquid = (): string | undefined => findExecutable('squid', 'SQUID')

/** One line of squid's native access log format, as squid writes it when a transaction ends. */
export interface AccessLogEntry {
  /** How squid handled it and the status: `TCP_TUNNEL/200` for a CONNECT it relayed. */
  result: string
  method: string
  /** `host:port` for a CONNECT, else the absolute URL. */
  url: string
  /** How it reached the server: `HIER_DIRECT/127.0.0.1`. */
  hierarchy: string
  line: string
}

const BIND_FAILURE = /Address already in use|Cannot bind/
const START_TIMEOUT_MS = 30_000

function config(dir: string, port: number, hostNames: string[]): string {
  const asRoot = process.getuid?.() === 0
  return [
    `http_port 127.0.0.1:${port}`,
    `acl test_hosts dstdomain ${hostNames.join(' ')}`,
    'http_access deny !test_hosts',
    'http_access allow localhost',
    'http_access deny all',
    `hosts_file ${join(dir, 'hosts')}`,
    'dns_nameservers 127.0.0.1',
    ...(asRoot ? ['cache_effective_user proxy'] : []),
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

export class Squid {
  private constructor(
    private readonly daemon: Daemon,
    readonly port: number,
    readonly dir: string
  ) {}

  /** Starts squid with `hostNames` resolving to 127.0.0.1; again on another port if its was taken. */
  static async start(squid: string, hostNames: string[]): Promise<Squid> {
    const launch = async (port: number, dir: string): Promise<Daemon> => {
      await writeFile(join(dir, 'hosts'), `127.0.0.1 ${hostNames.join(' ')}\n`)
      if (process.getuid?.() === 0) await promisify(execFile)('chown', ['proxy:proxy', dir])
      const configFile = join(dir, 'squid.conf')
      await writeFile(configFile, config(dir, port, hostNames))
      // A failed attempt's log would read as this one's.
      await rm(join(dir, 'cache.log'), { force: true })
      const child = spawn(squid, ['-N', '-f', configFile], { stdio: ['ignore', 'pipe', 'pipe'] })
      return Daemon.launch(child, false, (daemon) => waitUntilReady(daemon, port, dir))
    }
    const { server, port, dir } = await startOnFreePort('edge-purge-squid-', launch, (error) =>
      BIND_FAILURE.test(error.message)
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
        // time elapsed client result bytes method URL user hierarchy type
        const [, , , result = '', , method = '', url = '', , hierarchy = ''] = line.split(/\s+/)
        return { result, method, url, hierarchy, line }
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

  /** Ends squid (SIGTERM, then SIGKILL after 15 s) and removes its folder. */
  async stop(): Promise<void> {
    await this.daemon.stop()
    await rm(this.dir, { recursive: true, force: true })
  }
}

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
