/** Unit tests of reading keys-file and urls-file: a regular file of at most 64 MiB, read for real. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { readListFile } from '../src/config/list-files.js'
import { API, refusalOf, settingsOf } from './support/parsed-inputs.js'
import { NO_SECRETS } from './support/guard.js'

const readWithoutSecrets = (path: string): string => readListFile(path, NO_SECRETS)

describe('readListFile: a regular file of at most 64 MiB, read through one descriptor', () => {
  let dir: string
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'edge-purge-inputs-'))
  })
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true })
  })

  /** The refusal parseSettings throws when keys-file is this path, read for real. */
  const keysFileRefusal = (path: string): string =>
    refusalOf({ ...API, 'keys-file': path }, readWithoutSecrets).message

  it('reads a regular file as UTF-8, and the keys in it are purged', () => {
    const path = join(dir, 'keys.txt')
    writeFileSync(path, '\uFEFFa b\nc\n')
    expect(readListFile(path, NO_SECRETS)).toBe('\uFEFFa b\nc\n')
    expect(settingsOf({ ...API, 'keys-file': path }, readWithoutSecrets).keys).toEqual([
      'a',
      'b',
      'c'
    ])
  })

  /** What every refusal ends with: where the path led, from where the run stood. */
  const whereFrom = (absolute: string): string =>
    `; the path resolves to ${JSON.stringify(absolute)}, from the working directory ${JSON.stringify(process.cwd())}`

  it('refuses a FIFO at once instead of waiting for a writer', () => {
    const path = join(dir, 'fifo')
    execFileSync('mkfifo', [path])
    expect(keysFileRefusal(path)).toBe(
      `keys-file: cannot read ${JSON.stringify(path)}: it is a FIFO (named pipe); give a regular file${whereFrom(path)}`
    )
  })

  it('refuses a device such as /dev/zero, which would never end', () => {
    expect(keysFileRefusal('/dev/zero')).toBe(
      `keys-file: cannot read "/dev/zero": it is a character device; give a regular file${whereFrom('/dev/zero')}`
    )
  })

  it('refuses a directory', () => {
    const path = join(dir, 'a-directory')
    mkdirSync(path)
    // The refusal's words are the FIFO's and the device's above; this is what it found.
    expect(keysFileRefusal(path)).toContain('a directory')
  })

  it('refuses a 2 GB sparse file by its size, without reading it', () => {
    const path = join(dir, 'sparse')
    writeFileSync(path, '')
    truncateSync(path, 2 * 1024 ** 3)
    expect(keysFileRefusal(path)).toMatch(
      /: it holds 2,147,483,648 bytes; a list file may hold at most 64 MiB; the path /
    )
  })

  it('reads a file of exactly 64 MiB, and refuses one byte more, naming urls-file', () => {
    const path = join(dir, 'limit')
    writeFileSync(path, '')
    truncateSync(path, 64 * 1024 * 1024)
    expect(readListFile(path, NO_SECRETS)).toHaveLength(64 * 1024 * 1024)
    truncateSync(path, 64 * 1024 * 1024 + 1)
    const error = refusalOf({ 'urls-file': path }, readWithoutSecrets)
    expect(error.message.startsWith('urls-file: ')).toBe(true)
    expect(error.message).toContain('67,108,865')
  })

  it('reads past the size fstat gives, which is 0 for files such as those in /proc', () => {
    expect(readListFile('/proc/self/status', NO_SECRETS)).toMatch(/^Name:/)
  })

  it('reads a relative path from the working directory it is handed', () => {
    writeFileSync(join(dir, 'urls.txt'), 'https://www.example.com/\n')
    expect(readListFile('urls.txt', NO_SECRETS, dir)).toBe('https://www.example.com/\n')
  })

  it('refuses a missing file naming the input, where the path led, from where, and why', () => {
    const inWorkspace = (path: string): string => readListFile(path, NO_SECRETS, dir)
    expect(refusalOf({ ...API, 'keys-file': 'purge/keys.txt' }, inWorkspace).message).toBe(
      'keys-file: cannot read "purge/keys.txt": no such file (ENOENT); the path resolves to ' +
        `${JSON.stringify(join(dir, 'purge/keys.txt'))}, from the working directory ${JSON.stringify(dir)}`
    )
  })

  it('takes the working directory at the read, not when the module was loaded', () => {
    const before = process.cwd()
    process.chdir(dir)
    try {
      expect(keysFileRefusal('elsewhere.txt')).toContain(JSON.stringify(join(dir, 'elsewhere.txt')))
    } finally {
      process.chdir(before)
    }
  })

  it('says in words what the system found, keeping its code', () => {
    const file = join(dir, 'a-file')
    writeFileSync(file, '')
    expect(keysFileRefusal(join(file, 'keys.txt'))).toContain(
      ': a folder on the path is a file (ENOTDIR); '
    )
  })
})
