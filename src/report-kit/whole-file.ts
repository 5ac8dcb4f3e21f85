/** A kept file written whole, for either door's `OutputWriter`. */
import { open, rename, rm } from 'node:fs/promises'
import { messageOf } from '../text/message.js'
import type { KeptFile } from './json-outputs.js'

/** Chunks are written in pieces of at most this size (a larger chunk alone): few writes, little held at once. */
const WRITE_BYTES = 256 * 1024

/**
 * Writes the chunks to `path`, under another name first and renamed into place, so that a reader,
 * or a run cancelled while writing, never finds half a file under the name the output gives.
 */
export async function writeWhole(path: string, chunks: Iterable<string>): Promise<KeptFile> {
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
