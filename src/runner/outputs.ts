/** Outputs and kept files through the runner: `GITHUB_OUTPUT`, and files under `RUNNER_TEMP`. */
import * as core from '@actions/core'
import { randomUUID } from 'node:crypto'
import { open, rename, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runnerLog } from './log.js'
import { messageOf } from '../text/message.js'

/** Chunks are written in pieces of about this size: few writes, little held at once. */
const WRITE_BYTES = 256 * 1024

/**
 * Writes the chunks to a new file under RUNNER_TEMP, where a later step (even one after a cancel)
 * can read it. Written under another name and renamed into place, so that a reader, or a run
 * cancelled while writing, never finds half a file under the name the output gives.
 */
async function keepFile(
  kind: string,
  chunks: Iterable<string>
): Promise<{ path: string; failure: string | undefined }> {
  const path = join(process.env.RUNNER_TEMP || tmpdir(), `edge-purge-${kind}-${randomUUID()}.json`)
  const partial = `${path}.partial`
  try {
    const file = await open(partial, 'w')
    try {
      let pending = ''
      for (const chunk of chunks) {
        pending += chunk
        if (pending.length < WRITE_BYTES) continue
        await file.write(pending)
        pending = ''
      }
      await file.write(pending)
    } finally {
      await file.close()
    }
    await rename(partial, path)
    return { path, failure: undefined }
  } catch (error) {
    await rm(partial, { force: true }).catch(() => undefined)
    return { path, failure: messageOf(error) }
  }
}

/** What the report is handed to write the outputs (its `OutputWriter`). */
export const runnerOutputs = {
  keepFile,
  setOutput: (name: string, value: string): void => core.setOutput(name, value),
  log: runnerLog
}
