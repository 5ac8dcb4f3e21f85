/** `npm run demo`, as a newcomer runs it: exit 0, and its output shows purges and the failure. */
import { beforeAll, describe, expect, it } from '@jest/globals'
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

/**
 * The text between a line starting with `from` and the next line starting with `to`, in any case
 * (a heading's case is checked on its own).
 */
function between(text: string, from: string, to: string): string {
  const startsWith = (line: string, start: string): boolean =>
    line.toLowerCase().startsWith(start.toLowerCase())
  const start = text.split('\n').findIndex((line) => startsWith(line, from))
  const lines = text.split('\n').slice(start + 1)
  const end = lines.findIndex((line) => startsWith(line, to))
  return start < 0 || end < 0 ? '' : lines.slice(0, end).join('\n')
}

// One run of the demo for every check below: each reads the same output.
let demo: Finished
/** The demo's output in its three sections. */
let log: string
let summary: string
/** The Markdown file the action wrote, which the demo names. */
let markdown: string

beforeAll(async () => {
  demo = await npmRunDemo()
  log = between(demo.stdout, '━━ The action’s log', '━━ ')
  summary = between(demo.stdout, '━━ The job summary', '━━ ')
  const path = /^Markdown written by the action: (.+)$/m.exec(demo.stdout)?.[1] ?? ''
  markdown = path === '' ? '' : await readFile(path, 'utf8')
  // The demo keeps its run's directory for the newcomer to look at; the test does not.
  if (path !== '') await rm(dirname(path), { recursive: true, force: true })
}, 60_000)

describe('npm run demo', () => {
  it('purges keys in batches and URLs, shows the refused key failing, and exits 0', () => {
    const { code, stdout, stderr } = demo
    expect({ code, reason: /^demo: .*$/m.exec(stderr)?.[0] }).toEqual({
      code: 0,
      reason: undefined
    })

    // The action's own log: three JSON batches of the 600 keys, the URL purges, the failure.
    const batches = log.match(/^ *[✓⚠] POST http:\/\/127\.0\.0\.1:\d+\/service\/svc123\/purge /gm)
    expect(batches).toHaveLength(3)
    expect(log).toContain('(88 keys): HTTP 200')
    expect(log).toMatch(/^ *✓ PURGE http:\/\/127\.0\.0\.1:\d+\/products\/42: HTTP 200/m)

    // The summary rendered as text: its heading, and the failure's cause as the first row.
    expect(summary).toMatch(/602 purged, 1 failed: no purge id returned/i)
    expect(summary).toMatch(/^❌ no purge id returned: .* +1 +key\sproduct-300$/m)
    expect(summary).toMatch(/^homepage +key +instant +✅ purged +\d+-\d+-\d+-\d+$/m)
    expect(stdout).toMatch(/^Every result as JSON: /m)

    expect(markdown).toContain('key&nbsp;<code>product-300</code></td>')
  })

  it('shows the log as the runner does: no workflow command as text, an error as Error:', () => {
    const commands = demo.stdout
      .split('\n')
      .filter((line) => /^\s*::(add-mask|group|endgroup|error|warning|notice|debug)\b/.test(line))
    expect(commands).toEqual([])
    // add-mask shows nothing, and the masked value is not shown anywhere after it.
    expect(demo.stdout).not.toContain('demo-token')
    // The group's title is a heading, its lines under it.
    expect(log).toMatch(/^▾ Purge calls \(6, up to 8 at once\)\n {2}✓ POST /m)
    expect(log).toMatch(/^Error: key "product-300" not purged: no purge id returned/m)
    expect(log).toMatch(/^Error: 1 of 603 targets failed to purge: no purge id returned;/m)
  })

  it('shows the action’s own ⚠ on a call that left a key without a purge id, unchanged', () => {
    const calls = log.split('\n').filter((line) => /^ *\S (POST|PURGE) /.test(line))
    expect(calls).toHaveLength(6)
    const withoutId = calls.filter((line) => /without (a )?purge ids?/.test(line))
    expect(withoutId).toHaveLength(1)
    expect(withoutId[0]).toMatch(/^ *⚠ POST .*\(256 keys\): HTTP 200 .*; 1 key without a purge id$/)
  })

  it('shows the service id as given, not upper-cased', () => {
    expect(summary).toMatch(/^Edge purge of svc123: 602 purged, 1 failed: no purge id returned$/m)
    expect(demo.stdout).not.toContain('SVC123')
  })

  it('notes hidden rows only under a table that hides some, and counts what it hid', () => {
    // The Markdown file's tables: the failure's, then the purged targets' (folded, cut by the
    // summary itself to a number it states in a "Showing N of M" line).
    const tables = [...markdown.matchAll(/<table>[\s\S]*?<\/table>/g)].map(
      ([table]) => table.match(/<tr><td>/g)?.length ?? 0
    )
    expect(tables).toEqual([1, expect.any(Number)])
    const purgedRows = tables[1] ?? 0
    expect(markdown).toContain(`Showing ${purgedRows} of 602 purged targets`)

    const failedSection = between(summary, 'Failed, by cause', '602 targets purged')
    expect(failedSection).toMatch(/ key\sproduct-300$/m)
    expect(failedSection).not.toMatch(/rows|Markdown file/)

    const purgedSection = between(summary, '602 targets purged', 'Every target')
    const shown = purgedSection.match(/^\S+ +key +instant +✅ purged /gm)?.length ?? 0
    expect(shown).toBeGreaterThan(0)
    const notes = summary.match(/^\(.*rows shown here.*\)$/gm) ?? []
    expect(notes).toEqual([
      `(${shown} of this table’s ${purgedRows} rows shown here; ` +
        `the other ${purgedRows - shown} are in the Markdown file named below.)`
    ])
    expect(purgedSection).toContain(notes[0])
  })
})
