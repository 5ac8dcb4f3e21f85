/**
 * A throwaway varnishd: foreground (`-F`), no jail (`-j none`: tests may run as root), no CLI port
 * (`-T none`), its own working directory under the system temp dir, `-s malloc,64m`, listening on a
 * free port of 127.0.0.1. `stop()` ends it (and its worker child) and removes the directory.
 * `clientRequests()` reads what it served from its shared-memory log (varnishncsa, same package).
 */
import { execFile, spawn } from 'node:child_process'
import { rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { Daemon, startOnFreePort } from './daemon.js'
import { findExecutable } from './find-executable.js'
import { request, sleep } from './http.js'

/** Where varnishd is: `$VARNISHD` if set, else on PATH or in the sbin directories. */
export const findVarnishd = (): string | undefined => findExecutable('varnishd', 'VARNISHD')

/** Where varnishncsa is: `$VARNISHNCSA` if set, else on PATH or in the sbin directories. */
const findVarnishncsa = (): string | undefined => findExecutable('varnishncsa', 'VARNISHNCSA')

/** One request a client sent varnishd, as its log tells it. */
export interface VarnishRequest {
  method: string
  /** Path and query. */
  url: string
  /** The status varnishd answered. */
  status: number
  /** The spec's API token header (`Edge-Key`), if the request carried it. */
  edgeKey: string | undefined
}

export interface VarnishOptions {
  varnishd: string
  vcl: string
  /** How long compiling the VCL and starting the child may take (a loaded machine is slow). */
  startTimeoutMs?: number
}

const BIND_FAILURE = /Could not get socket|Address already in use/

function varnishdArguments(port: number, dir: string, vclPath: string): string[] {
  return [
    '-F',
    '-j',
    'none',
    '-n',
    instanceDir(dir),
    '-a',
    `127.0.0.1:${port}`,
    '-T',
    'none',
    '-f',
    vclPath,
    '-s',
    'malloc,64m',
    '-p',
    'thread_pools=1',
    '-p',
    'thread_pool_min=10',
    '-p',
    'thread_pool_max=200',
    '-p',
    'vsl_space=8M'
  ]
}

export class Varnish {
  private constructor(
    private readonly daemon: Daemon,
    readonly port: number,
    readonly workDir: string
  ) {}

  static async start(options: VarnishOptions): Promise<Varnish> {
    const launch = async (port: number, dir: string): Promise<Daemon> => {
      const vclPath = join(dir, 'edge.vcl')
      await writeFile(vclPath, options.vcl)
      const child = spawn(options.varnishd, varnishdArguments(port, dir, vclPath), {
        // Its own process group, so a SIGKILL reaches the worker child varnishd forks.
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe']
      })
      const timeoutMs = options.startTimeoutMs ?? 60_000
      return Daemon.launch(child, true, (daemon) => waitUntilReady(daemon, urlOf(port), timeoutMs))
    }
    const { server, port, dir } = await startOnFreePort('edge-purge-varnish-', launch, (error) =>
      BIND_FAILURE.test(error.message)
    )
    return new Varnish(server, port, dir)
  }

  get url(): string {
    return urlOf(this.port)
  }

  /** Everything varnishd printed (startup, VCL compiler errors, child panics). */
  get log(): string {
    return this.daemon.output
  }

  /**
   * Every client request varnishd has finished, in the order they ended (the test bed's readiness
   * probes included): what reached the edge, PURGEs as well as GETs, whatever the origin saw.
   */
  async clientRequests(): Promise<VarnishRequest[]> {
    const varnishncsa = findVarnishncsa()
    if (varnishncsa === undefined)
      throw new Error('varnishncsa not found (it comes with varnishd): set VARNISHNCSA to its path')
    const { stdout } = await promisify(execFile)(
      varnishncsa,
      ['-d', '-n', instanceDir(this.workDir), '-F', '%m %s %{Edge-Key}i %U%q'],
      { timeout: 10_000 }
    )
    return stdout
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => {
        const [method = '', status = '', edgeKey = '-', url = ''] = line.split(' ')
        return {
          method,
          url,
          status: Number(status),
          edgeKey: edgeKey === '-' ? undefined : edgeKey
        }
      })
  }

  /**
   * Ends varnishd (the manager stops and reaps its worker child before it exits; the whole group
   * is killed if it has not after 15 s) and removes its working directory.
   */
  async stop(): Promise<void> {
    await this.daemon.stop()
    await rm(this.workDir, { recursive: true, force: true })
  }
}

const urlOf = (port: number): string => `http://127.0.0.1:${port}`
const instanceDir = (dir: string): string => join(dir, 'instance')

async function waitUntilReady(daemon: Daemon, url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (!daemon.running) {
      throw new Error(`varnishd exited before it was ready:\n${daemon.output.slice(-4000)}`)
    }
    try {
      const answer = await request(`${url}/__testbed/ready`, { timeoutMs: 2000 })
      // X-Varnish: it is varnishd answering, not something else that holds the port.
      if (answer.status === 200 && answer.headers['x-varnish'] !== undefined) return
    } catch {
      // not listening yet
    }
    await sleep(100)
  }
  throw new Error(
    `varnishd not ready within ${timeoutMs} ms on ${url}:\n${daemon.output.slice(-4000)}`
  )
}
