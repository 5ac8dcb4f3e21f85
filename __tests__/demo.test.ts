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
/** The results file the action wrote, which the demo names too. */
let results: { target: string; status: string }[]

beforeAll(async () => {
  demo = await npmRunDemo()
  log = between(demo.stdout, '━━ The action’s log', '━━ ')
  summary = between(demo.stdout, '━━ The job summary', '━━ ')
  const path = /^Markdown written by the action: (.+)$/m.exec(demo.stdout)?.[1] ?? ''
  markdown = path === '' ? '' : await readFile(path, 'utf8')
  const resultsFile = /^Every result as JSON: (.+)$/m.exec(demo.stdout)?.[1] ?? ''
  results =
    resultsFile === '' ? [] : (JSON.parse(await readFile(resultsFile, 'utf8')) as typeof results)
  // The demo keeps its run's directory for the newcomer to look at; the test does not.
  if (path !== '') await rm(dirname(path), { recursive: true, force: true })
}, 60_000)

describe('npm run demo', () => {
  it('purges keys in batches and URLs, shows the refused key failing, and exits 0', () => {
    const { code, stderr } = demo
    expect({ code, reason: /^demo: .*$/m.exec(stderr)?.[0] }).toEqual({
      code: 0,
      reason: undefined
    })

    // The action's own log: three JSON batches of the 600 keys, and the three URL purges.
    const calls = log.split('\n').filter((line) => /^ *[✓⚠] (POST|PURGE) /.test(line))
    const batches = calls.filter((line) => line.includes('/service/svc123/purge '))
    expect(batches.map((line) => /\((\d+) keys\)/.exec(line)?.[1])).toEqual(['256', '256', '88'])
    expect(calls.filter((line) => line.trim().startsWith('✓ PURGE '))).toHaveLength(3)

    // The summary rendered as text: the failure's cause first, naming the key; rows as columns.
    const rows = summary.split('\n')
    expect(rows.find((line) => line.startsWith('❌ '))).toContain('product-300')
    expect(rows.find((line) => line.startsWith('homepage '))?.split(/ {2,}/)).toEqual([
      'homepage',
      'key',
      'instant',
      '✅ purged',
      expect.stringMatching(/^\d+-\d+-\d+-\d+$/)
    ])

    // The files the demo names: the Markdown summary, and every result, the refused key failed.
    expect(markdown).toContain('product-300')
    expect(results).toHaveLength(603)
    expect(results.filter((result) => result.status === 'failed')).toEqual([
      expect.objectContaining({ target: 'product-300' })
    ])
  })

  it('shows the log as the runner does: no workflow command as text, an error as Error:', () => {
    const commands = demo.stdout
      .split('\n')
      .filter((line) => /^\s*::(add-mask|group|endgroup|error|warning|notice|debug)\b/.test(line))
    expect(commands).toEqual([])
    // add-mask shows nothing, and the masked value is not shown anywhere after it.
    expect(demo.stdout).not.toContain('demo-token')
    // The group's title is a heading, its six calls indented under it.
    const lines = log.split('\n')
    const heading = lines.findIndex((line) => line.startsWith('▾ '))
    expect(heading).toBeGreaterThan(-1)
    const grouped = lines.slice(heading + 1, heading + 7)
    expect(grouped.filter((line) => /^ {2}[✓⚠] /.test(line))).toHaveLength(6)
    // Each error an Error: line, the first the refused key's.
    const errors = lines.filter((line) => line.startsWith('Error: '))
    expect(errors).toHaveLength(2)
    expect(errors[0]).toContain('product-300')
  })

  it('shows the action’s own ⚠ on a call that left a key without a purge id, unchanged', () => {
    const calls = log.split('\n').filter((line) => /^ *\S (POST|PURGE) /.test(line))
    expect(calls).toHaveLength(6)
    const withoutId = calls.filter((line) => /without (a )?purge ids?/.test(line))
    expect(withoutId).toHaveLength(1)
    expect(withoutId[0]?.trim().startsWith('⚠ POST ')).toBe(true)
  })

  it('shows the service id as given, not upper-cased', () => {
    expect(summary.trim().split('\n')[0]).toContain('svc123')
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
    expect(purgedRows).toBeGreaterThan(0)
    expect(purgedRows).toBeLessThan(602)

    const failedSection = between(summary, 'Failed, by cause', '602 targets purged')
    expect(failedSection).toContain('product-300')

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
