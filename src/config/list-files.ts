/** keys-file and urls-file: read whole, at most 64 MiB, from a regular file only. */
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs'
import { resolve } from 'node:path'
import type { Guard } from '../text/guard.js'

/** Reads a file's text, or throws an error whose message says why it cannot. */
export type FileReader = (path: string) => string

/** The most a keys-file or urls-file may hold: about two million 30-character keys. */
const MAX_LIST_FILE_BYTES = 64 * 1024 * 1024

/**
 * Reads a regular file of at most 64 MiB as UTF-8, a relative path taken from the working directory
 * as it is at the read (tests hand in their own). A refusal names the absolute path and that
 * directory: a step run before the checkout, or a path written from the repository's subfolder,
 * looks in a place the user cannot see from the log otherwise.
 */
export function readListFile(
  path: string,
  guard: Guard,
  workingDirectory: string = process.cwd()
): string {
  const absolute = resolve(workingDirectory, path)
  try {
    return readRegularFile(absolute)
  } catch (error) {
    const where = `${shownPath(absolute, guard)}, from the working directory ${shownPath(workingDirectory, guard)}`
    throw new Error(`${systemReason(error)}; the path resolves to ${where}`, { cause: error })
  }
}

/**
 * The checks are made on the opened descriptor, so the path cannot be swapped between check and
 * read; O_NONBLOCK keeps the open of a FIFO from waiting for a writer forever (on a regular file
 * it changes nothing).
 */
function readRegularFile(path: string): string {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK)
  try {
    const stats = fstatSync(fd)
    if (!stats.isFile()) throw new Error(`it is ${kindOf(stats)}; give a regular file`)
    if (stats.size > MAX_LIST_FILE_BYTES)
      throw new Error(tooLarge(`${stats.size.toLocaleString('en-US')} bytes`))
    // Read up to one byte past the limit, not fstat's size: it can be wrong (files in /proc show
    // 0) or the file can grow after the check. Untouched pages of the buffer cost no memory.
    const buffer = Buffer.allocUnsafe(MAX_LIST_FILE_BYTES + 1)
    let filled = 0
    while (filled < buffer.length) {
      const read = readSync(fd, buffer, filled, buffer.length - filled, null)
      if (read === 0) break
      filled += read
    }
    if (filled > MAX_LIST_FILE_BYTES) throw new Error(tooLarge('more than 64 MiB'))
    return buffer.toString('utf8', 0, filled)
  } finally {
    closeSync(fd)
  }
}

function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return 'a directory'
  if (stats.isFIFO()) return 'a FIFO (named pipe)'
  if (stats.isCharacterDevice()) return 'a character device'
  if (stats.isBlockDevice()) return 'a block device'
  if (stats.isSocket()) return 'a socket'
  return 'not a regular file'
}

function tooLarge(amount: string): string {
  return `it holds ${amount}; a list file may hold at most 64 MiB`
}

/** What the system says of a path, in words; its code kept, as that is what people search for. */
const SYSTEM_REASONS: Record<string, string> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EISDIR: 'it is a directory',
  ENOTDIR: 'a folder on the path is a file',
  ELOOP: 'too many symbolic links on the path',
  ENAMETOOLONG: 'the path is too long'
}

function systemReason(error: unknown): string {
  // Read by shape, not instanceof: fs errors come from another realm under jest's vm modules.
  const { code, message } = (error ?? {}) as Partial<NodeJS.ErrnoException>
  const words = SYSTEM_REASONS[code ?? '']
  if (words !== undefined) return `${words} (${code})`
  // Node's own message for the other codes already starts with the code.
  return typeof message === 'string' ? message : String(error)
}

/** Long enough for a runner's workspace and a nested file, quoted so spaces at its ends show. */
const PATH_CHARS = 200

function shownPath(path: string, guard: Guard): string {
  return guard.oneLine(JSON.stringify(path), PATH_CHARS)
}
