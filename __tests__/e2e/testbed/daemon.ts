/**
 * What the test bed's real servers (varnishd, squid) share: a child process whose output is kept,
 * started on a free port of 127.0.0.1 (again on another when the port was taken between finding
 * it and binding it), in a folder of its own under a temp dir, and ended with its folder
 * removed by `stop()`, or killed with the test process if that ends first.
 */
import type { ChildProcess } from 'node:child_process'
import { realpathSync, statSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { freePort } from './http.js'

/** How long SIGTERM is given before SIGKILL. */
const STOP_GRACE_MS = 15_000
const PORT_ATTEMPTS = 5

export class Daemon {
  output = ''
  running = true
  private readonly exited: Promise<void>
  private readonly killOnExit = (): void => this.kill('SIGKILL')

  private constructor(
    private readonly child: ChildProcess,
    /** Its own process group (spawned `detached`): SIGKILL then reaches the children it forks. */
    private readonly group: boolean
  ) {
    child.stdout?.on('data', (chunk: Buffer) => (this.output += chunk.toString()))
    child.stderr?.on('data', (chunk: Buffer) => (this.output += chunk.toString()))
    this.exited = new Promise((resolve) =>
      child.once('exit', () => {
        this.running = false
        resolve()
      })
    )
    // If the test process ends without stop() (a crash, a killed worker), take the daemon with it.
    process.once('exit', this.killOnExit)
  }

  /** The daemon once `ready` resolves; stopped, and `ready`'s error thrown, when it rejects. */
  static async launch(
    child: ChildProcess,
    group: boolean,
    ready: (daemon: Daemon) => Promise<void>
  ): Promise<Daemon> {
    const daemon = new Daemon(child, group)
    try {
      await ready(daemon)
      return daemon
    } catch (error) {
      await daemon.stop()
      throw error
    }
  }

  private kill(signal: NodeJS.Signals): void {
    const pid = this.child.pid
    if (!this.group || pid === undefined) {
      this.child.kill(signal)
      return
    }
    try {
      process.kill(-pid, signal)
    } catch {
      // the group is gone already
    }
  }

  /** SIGTERM to the daemon, which ends what it started; SIGKILL if it has not exited in 15 s. */
  async stop(): Promise<void> {
    process.removeListener('exit', this.killOnExit)
    if (this.running && this.child.pid !== undefined) {
      this.child.kill('SIGTERM')
      let timer: NodeJS.Timeout | undefined
      const stopped = await Promise.race([
        this.exited.then(() => true),
        new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), STOP_GRACE_MS)))
      ])
      clearTimeout(timer)
      if (!stopped) {
        this.kill('SIGKILL')
        await this.exited
      }
    }
    this.child.stdout?.destroy()
    this.child.stderr?.destroy()
  }
}

/** A daemon once it is ready, its port, and the folder it works in. */
export interface Started<T> {
  server: T
  port: number
  dir: string
}

/** Whether every folder from the root down to `dir` lets any user pass (o+x). */
function othersCanReach(dir: string): boolean {
  try {
    for (let at = realpathSync(dir); ; at = dirname(at)) {
      if ((statSync(at).mode & 0o001) === 0) return false
      if (dirname(at) === at) return true
    }
  } catch {
    return false
  }
}

/**
 * A temp dir a daemon that drops to another user (squid, run as root, becomes `proxy`) can reach:
 * the system's temp dir when it can, else the shared /tmp or /var/tmp. A private TMPDIR (a
 * `mktemp -d`, mode 0700) stops that user at its door, whatever the folder made inside it allows.
 */
export function tempDirOthersReach(): string {
  const found = [tmpdir(), '/tmp', '/var/tmp'].find(othersCanReach)
  if (found === undefined)
    throw new Error(`no temp dir another user can reach: not ${tmpdir()}, /tmp or /var/tmp`)
  return found
}

/**
 * Starts a daemon in a new folder (`prefix` names it; under `base`, the system temp dir unless
 * given) on a free port: `launch` spawns it and waits until it is ready, and throws if it is not.
 * When the port was taken (`portTaken` says so from the error), another is tried; any other
 * failure, or the last, removes the folder and is thrown.
 */
export async function startOnFreePort<T>(
  prefix: string,
  launch: (port: number, dir: string) => Promise<T>,
  portTaken: (error: Error) => boolean,
  base: string = tmpdir()
): Promise<Started<T>> {
  const dir = await mkdtemp(join(base, prefix))
  let lastError: Error | undefined
  for (let attempt = 1; attempt <= PORT_ATTEMPTS; attempt += 1) {
    const port = await freePort()
    try {
      return { server: await launch(port, dir), port, dir }
    } catch (error) {
      lastError = error as Error
      if (!portTaken(lastError)) break
    }
  }
  await rm(dir, { recursive: true, force: true })
  throw lastError ?? new Error(`${prefix} did not start`)
}
