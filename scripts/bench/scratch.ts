/** The bench's own temporary directories (entries, lists, reports), removed when it ends. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const scratchDirs: string[] = []

export async function scratchDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix))
  scratchDirs.push(dir)
  return dir
}

export async function removeScratchDirs(): Promise<void> {
  await Promise.all(scratchDirs.map((dir) => rm(dir, { recursive: true, force: true })))
}

/** An ES module in a directory of its own, so `entry` names a file node runs as ESM. */
export async function moduleEntry(code: string): Promise<string> {
  const dir = await scratchDir('edge-purge-entry-')
  await writeFile(join(dir, 'package.json'), '{"type":"module"}')
  await writeFile(join(dir, 'index.js'), code)
  return join(dir, 'index.js')
}
