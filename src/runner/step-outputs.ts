/** Outputs and kept files through the runner: `GITHUB_OUTPUT`, and files under `RUNNER_TEMP`. */
import * as core from '@actions/core'
import { randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { open, rename, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { StepLog } from '../log.js'
import type { Guard } from '../text/guard.js'
import { messageOf } from '../text/message.js'

/** Chunks are written in pieces of at most this size (a larger chunk alone): few writes, little held at once. */
const WRITE_BYTES = 256 * 1024

/**
 * Writes the chunks to a new file under RUNNER_TEMP, where a later step (even one after a cancel)
 * can read it. Written under another name and renamed into place, so that a reader, or a run
 * cancelled while writing, never finds half a file under the name the output gives.
 */
async function keepFile(
  kind: string,
  chunks: Iterable<string>
): Promise<{ path: string; failure: string | undefined; bytes: number }> {
  const path = join(process.env.RUNNER_TEMP || tmpdir(), `edge-purge-${kind}-${randomUUID()}.json`)
  const partial = `${path}.partial`
  let written = 0
  try {
    const file = await open(partial, 'w')
    try {
      const pending = Buffer.allocUnsafeSlow(WRITE_BYTES)
      let used = 0
      for (const chunk of chunks) {
        const bytes = Buffer.byteLength(chunk)
        written += bytes
        if (used + bytes > WRITE_BYTES && used > 0) {
          await file.write(pending, 0, used)
          used = 0
        }
        if (bytes > WRITE_BYTES) await file.write(chunk)
        else used += pending.write(chunk, used)
      }
      await file.write(pending, 0, used)
    } finally {
      await file.close()
    }
    await rename(partial, path)
    return { path, failure: undefined, bytes: written }
  } catch (error) {
    await rm(partial, { force: true }).catch(() => undefined)
    return { path, failure: messageOf(error), bytes: written }
  }
}

/** What the report is handed to write the outputs (its `OutputWriter`), with the run's log and guard. */
export const runnerOutputs = (log: StepLog, guard: Guard) => ({
  keepFile,
  readKept: (path: string): string => readFileSync(path, 'utf8'),
  setOutput: (name: string, value: string): void => core.setOutput(name, value),
  log,
  guard
})
