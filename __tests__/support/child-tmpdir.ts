/**
 * The TMPDIR for the processes a test file starts through tsx, which keeps its cache in
 * TMPDIR/tsx-<uid>: a directory of the file's own, removed after its tests, so that a test run
 * leaves the system's temporary directory as it found it.
 */
import { afterAll } from '@jest/globals'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export function childTmpdir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'edge-purge-child-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}
