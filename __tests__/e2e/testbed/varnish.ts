/**
 * A throwaway varnishd: foreground (`-F`), no jail (`-j none`: tests may run as root), no CLI port
 * (`-T none`), its own working directory under the system temp dir, `-s malloc,64m`, listening on a
 * free port of 127.0.0.1. `stop()` ends it (and its worker child) and removes the directory.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { findExecutable } from './find-executable.js'
import { freePort, request, sleep } from './http.js'

/** Where varnishd is: `$VARNISHD` if set, else on PATH or in the sbin directories. */
export const findVarnishd = (): string | undefined => findExecutable('varnishd', 'VARNISHD')

export interface VarnishOptions {
  varnishd: string
  vcl: string
  /** How long compiling the VCL and starting the child may take (a loaded machine is slow). */
  startTimeoutMs?: number
}

const BIND_FAILURE = /Could not get socket|Address already in use/

export class Varnish {
  private output = ''
  private exited: Promise<void>
  private running = true
  private readonly killOnExit = (): void => this.killGroup('SIGKILL')

  private constructor(
    private readonly child: ChildProcess,
    readonly port: number,
    readonly workDir: string
  ) {
    child.stdout?.on('data', (chunk: Buffer) => (this.output += chunk.toString()))
    child.stderr?.on('data', (chunk: Buffer) => (this.output += chunk.toString()))
    this.exited = new Promise((resolve) =>
      child.once('exit', () => {
        this.running = false
        resolve()
      })
    )
    // If the test process ends without stop() (a crash, a killed worker), take varnishd with it.
    process.once('exit', this.killOnExit)
  }

  static async start(options: VarnishOptions): Promise<Varnish> {
    const workDir = await mkdtemp(join(tmpdir(), 'edge-purge-varnish-'))
    const vclPath = join(workDir, 'edge.vcl')
    await writeFile(vclPath, options.vcl)
    let lastError: Error | undefined
    // A free port can be taken between finding it and varnishd binding it: try a few.
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      const port = await freePort()
      const child = spawn(
        options.varnishd,
        [
          '-F',
          '-j',
          'none',
          '-n',
          join(workDir, 'instance'),
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
        ],
        // Its own process group, so stop() can reach the worker child varnishd forks.
        { detached: true, stdio: ['ignore', 'pipe', 'pipe'] }
      )
      const varnish = new Varnish(child, port, workDir)
      try {
        await varnish.waitUntilReady(options.startTimeoutMs ?? 60_000)
        return varnish
      } catch (error) {
        lastError = error as Error
        await varnish.stop({ keepWorkDir: true })
        if (!BIND_FAILURE.test(varnish.output)) break
      }
    }
    await rm(workDir, { recursive: true, force: true })
    throw lastError ?? new Error('varnishd did not start')
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`
  }

  /** Everything varnishd printed (startup, VCL compiler errors, child panics). */
  get log(): string {
    return this.output
  }

  private async waitUntilReady(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs
    while (Date.now() < deadline) {
      if (!this.running) {
        throw new Error(`varnishd exited before it was ready:\n${this.output.slice(-4000)}`)
      }
      try {
        const answer = await request(`${this.url}/__testbed/ready`, { timeoutMs: 2000 })
        // X-Varnish: it is varnishd answering, not something else that holds the port.
        if (answer.status === 200 && answer.headers['x-varnish'] !== undefined) return
      } catch {
        // not listening yet
      }
      await sleep(100)
    }
    throw new Error(
      `varnishd not ready within ${timeoutMs} ms on ${this.url}:\n${this.output.slice(-4000)}`
    )
  }

  private killGroup(signal: NodeJS.Signals): void {
    const pid = this.child.pid
    if (pid === undefined) return
    try {
      process.kill(-pid, signal)
    } catch {
      // the group is gone already
    }
  }

  /**
   * Ends varnishd: SIGTERM to the manager, which stops and reaps its worker child before it exits;
   * if it has not exited after 15 s, SIGKILL to the whole group (manager and worker).
   */
  async stop({ keepWorkDir = false } = {}): Promise<void> {
    process.removeListener('exit', this.killOnExit)
    if (this.running && this.child.pid !== undefined) {
      this.child.kill('SIGTERM')
      let timer: NodeJS.Timeout | undefined
      const stopped = await Promise.race([
        this.exited.then(() => true),
        new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), 15_000)))
      ])
      clearTimeout(timer)
      if (!stopped) {
        this.killGroup('SIGKILL')
        await this.exited
      }
    }
    this.child.stdout?.destroy()
    this.child.stderr?.destroy()
    if (!keepWorkDir) await rm(this.workDir, { recursive: true, force: true })
  }
}
