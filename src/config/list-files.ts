/** keys-file and urls-file: read whole, at most 64 MiB, from a regular file only. */
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs'

/** Reads a file's text, or throws an error whose message says why it cannot. */
export type FileReader = (path: string) => string

/** The most a keys-file or urls-file may hold: about two million 30-character keys. */
const MAX_LIST_FILE_BYTES = 64 * 1024 * 1024

/**
 * Reads a regular file of at most 64 MiB as UTF-8. The checks are made on the opened descriptor,
 * so the path cannot be swapped between check and read; O_NONBLOCK keeps the open of a FIFO from
 * waiting for a writer forever (on a regular file it changes nothing).
 */
export const readListFile: FileReader = (path) => {
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
