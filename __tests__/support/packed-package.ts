/**
 * The package as npm publishes it: packed from the repository with `npm pack` (which runs no
 * script: package.json has no prepack or prepare), then installed from the tarball into an empty
 * folder, offline and with an empty cache, as `npx edge-purge` installs it but with no registry to
 * fall back on. npm runs with a clean environment, PATH and a HOME and TMPDIR of its own, so no
 * user's or CI's npm configuration takes part; everything it writes stays in one folder.
 */
import { execFile } from 'node:child_process'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'

const execFileAsync = promisify(execFile)

/** What `npm pack --json` says of the tarball. */
export interface PackReport {
  filename: string
  /** The tarball's bytes. */
  size: number
  unpackedSize: number
  entryCount: number
  files: { path: string }[]
}

export interface InstalledPackage {
  pack: PackReport
  /** The folder the tarball was installed into, empty before. */
  app: string
  /** Its node_modules/edge-purge. */
  root: string
  /** Its node_modules/.bin/edge-purge, the link npm made from the package's bin. */
  bin: string
  /** Removes everything packing and installing wrote. */
  remove: () => Promise<void>
}

/** Nothing listens there: were npm to ask a registry despite --offline, it would reach nothing. */
const NO_REGISTRY = 'http://127.0.0.1:9/'

/** Packs the repository at `repository` and installs the tarball; throws with npm's words. */
export async function packAndInstall(repository: string): Promise<InstalledPackage> {
  const dir = await mkdtemp(join(tmpdir(), 'edge-purge-pack-'))
  const remove = (): Promise<void> => rm(dir, { recursive: true, force: true })
  const tarballs = join(dir, 'tarballs')
  const home = join(dir, 'home')
  const cache = join(dir, 'cache')
  const app = join(dir, 'app')
  const npm = async (args: string[], cwd: string): Promise<string> => {
    const env = { PATH: process.env.PATH ?? '', HOME: home, TMPDIR: dir }
    const { stdout } = await execFileAsync('npm', [...args, '--registry', NO_REGISTRY], {
      cwd,
      env
    })
    return stdout
  }
  try {
    for (const folder of [tarballs, home, cache, app]) await mkdir(folder)
    const packed = await npm(['pack', '--json', '--pack-destination', tarballs], repository)
    const [pack] = JSON.parse(packed) as PackReport[]
    if (pack === undefined) throw new Error(`npm pack reported no tarball: ${packed}`)
    await writeFile(join(app, 'package.json'), '{ "name": "app", "private": true }\n')
    // Its own cache, not the one npm pack had in HOME: nothing in it when the install starts.
    const install = ['install', '--offline', '--cache', cache, '--no-audit', '--no-fund']
    await npm([...install, '--no-update-notifier', join(tarballs, pack.filename)], app)
    const root = join(app, 'node_modules', 'edge-purge')
    return { pack, app, root, bin: join(app, 'node_modules', '.bin', 'edge-purge'), remove }
  } catch (error) {
    await remove()
    throw error
  }
}
