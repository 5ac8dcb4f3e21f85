/** `npm run fake-server`'s command line: usage on request, one-line errors for mistakes. */
import { afterEach, describe, expect, it } from '@jest/globals'
import { execFile } from 'node:child_process'
import { createServer, type AddressInfo, type Server } from 'node:net'
import { join } from 'node:path'
import { ROOT } from '../tools/run-like-runner.js'
import { childTmpdir } from './support/child-tmpdir.js'

const TMPDIR = childTmpdir()

interface Finished {
  code: number | null
  stdout: string
  stderr: string
}

/** Killed after 10 s: a server that started instead of refusing would otherwise run forever. */
function fakeServer(args: string[]): Promise<Finished> {
  const tsx = join(ROOT, 'node_modules', '.bin', 'tsx')
  return new Promise((resolve) => {
    execFile(
      tsx,
      ['scripts/fake-server.mts', ...args],
      { cwd: ROOT, timeout: 10_000, env: { ...process.env, TMPDIR } },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null
        resolve({ code, stdout, stderr })
      }
    )
  })
}

let occupied: Server | undefined
afterEach(async () => {
  await new Promise<void>((resolve) =>
    occupied === undefined ? resolve() : occupied.close(() => resolve())
  )
  occupied = undefined
})

describe('npm run fake-server', () => {
  it('prints its usage for --help and exits 0', async () => {
    const run = await fakeServer(['--help'])
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(/^Usage: npm run fake-server \[-- OPTIONS\]/)
    expect(run.stdout.match(/--[a-z-]+/g)).toEqual(
      expect.arrayContaining(['--port', '--state-file', '--pid-file', '--quiet', '--help'])
    )
  })

  it('names an unknown option in one line, then shows the usage, and exits 2', async () => {
    const [run, help] = await Promise.all([fakeServer(['--bogus']), fakeServer(['--help'])])
    expect(run.code).toBe(2)
    const [first, ...usage] = run.stderr.split('\n')
    expect(first).toBe("fake-server: Unknown option '--bogus'")
    expect(usage.join('\n').trim()).toBe(help.stdout.trim())
    expect(run.stderr).not.toMatch(/^\s+at /m)
  })

  it('says in one line that a busy port is in use, and exits 1', async () => {
    const server = createServer()
    occupied = server
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as AddressInfo
    const run = await fakeServer(['--port', String(port), '--quiet'])
    expect(run.code).toBe(1)
    expect(run.stdout).toBe('')
    expect(run.stderr.trim()).toBe(
      `fake-server: port ${port} is in use (choose another with --port, or leave it out for a free one)`
    )
  })
})
