/** `npm run demo`, as a newcomer runs it: exit 0, and its output shows purges and the failure. */
import { describe, expect, it } from '@jest/globals'
import { execFile } from 'node:child_process'
import { readFile, rm } from 'node:fs/promises'
import { dirname } from 'node:path'
import { ROOT } from '../tools/run-like-runner.js'
import { childTmpdir } from './support/child-tmpdir.js'

const TMPDIR = childTmpdir()

interface Finished {
  code: number
  stdout: string
  stderr: string
}

function npmRunDemo(): Promise<Finished> {
  // jest's NODE_OPTIONS (--experimental-vm-modules) is not part of what a user's shell has.
  const env: NodeJS.ProcessEnv = { ...process.env, TMPDIR }
  delete env.NODE_OPTIONS
  return new Promise((resolve) => {
    execFile('npm', ['run', '--silent', 'demo'], { cwd: ROOT, env }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1
      resolve({ code, stdout, stderr })
    })
  })
}

describe('npm run demo', () => {
  it('purges keys in batches and URLs, shows the refused key failing, and exits 0', async () => {
    const { code, stdout, stderr } = await npmRunDemo()
    expect({ code, reason: /^demo: .*$/m.exec(stderr)?.[0] }).toEqual({
      code: 0,
      reason: undefined
    })

    // The action's own log: three JSON batches of the 600 keys, the URL purges, the failure.
    const batches = stdout.match(/^✓ POST http:\/\/127\.0\.0\.1:\d+\/service\/svc123\/purge /gm)
    expect(batches).toHaveLength(3)
    expect(stdout).toContain('(88 keys): HTTP 200')
    expect(stdout).toMatch(/^✓ PURGE http:\/\/127\.0\.0\.1:\d+\/products\/42: HTTP 200/m)
    expect(stdout).toMatch(/^::error::key "product-300" failed: no purge id returned/m)

    // The summary rendered as text: its heading, and the failure as the first row of the table.
    expect(stdout).toMatch(/602 purged, 1 failed/i)
    expect(stdout).toMatch(/^product-300 +key +instant +❌ failed/m)
    expect(stdout).toMatch(/^homepage +key +instant +✅ purged +\d+-\d+-\d+-\d+$/m)

    const path = /^Markdown written by the action: (.+)$/m.exec(stdout)?.[1] ?? ''
    const markdown = await readFile(path, 'utf8')
    // The demo keeps its run's directory for the newcomer to look at; the test does not.
    await rm(dirname(path), { recursive: true, force: true })
    expect(markdown).toContain('<td><code>product-300</code></td>')
  })
})
