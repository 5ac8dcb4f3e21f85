/** The edge check's outputs: its counts, and every URL's verdict in `verification` and its file. */
import { describe, expect, it } from '@jest/globals'
import type { AssetEntry, EdgeCheckEntry } from '../../../src/capabilities/edge-check/record.js'
import {
  writeAssetsOutputs,
  writeEdgeCheckOutputs
} from '../../../src/capabilities/edge-check/outputs.js'
import type { OutputWriter } from '../../../src/report-kit/json-outputs.js'
import { guardAgainst, type Guard } from '../../../src/text/guard.js'
import { NO_SECRETS } from '../../support/guard.js'
import { recordedLog } from '../../support/recorded-log.js'

const keptPath = (kind: string): string => `/runner/temp/edge-purge-${kind}-1.json`

/** Outputs and kept files held in memory; `full`: every file fails to be written, as on a full disk. */
function memoryOutputs(guard: Guard = NO_SECRETS, { full = false } = {}) {
  const outputs: Record<string, string> = {}
  const files = new Map<string, string>()
  const log = recordedLog()
  const io: OutputWriter = {
    keepFile: async (kind, chunks) => {
      const path = keptPath(kind)
      if (full) return { path, failure: 'ENOSPC: no space left on device', bytes: 0 }
      const text = [...chunks].join('')
      files.set(path, text)
      return { path, failure: undefined, bytes: Buffer.byteLength(text) }
    },
    readKept: (path) => files.get(path) ?? '',
    setOutput: (name, value) => {
      outputs[name] = value
    },
    log,
    guard
  }
  return { io, outputs, files, log }
}

const entry = (url: string, fields: Partial<EdgeCheckEntry> = {}): EdgeCheckEntry => ({
  url,
  fresh: false,
  http_status: 200,
  age: 3600,
  checks: 2,
  evidence: 'Age 3600 s',
  ...fields
})

const ENTRIES = [
  entry('https://www.example.com/fresh', { fresh: true, age: 0 }),
  entry('https://www.example.com/stale'),
  entry('https://www.exmaple.com/', { http_status: null, age: null, evidence: 'no answer' }),
  entry('https://www.example.com/late', { http_status: null, age: null, checks: 0 })
]

const outcome = (entries: EdgeCheckEntry[]) => ({ entries, cancelled: false, malformedAge: [] })

describe('the edge check’s outputs', () => {
  it('counts unreachable pages apart, and still counts them in stale-count, which workflows gate on', async () => {
    const { io, outputs } = memoryOutputs()
    await writeEdgeCheckOutputs(outcome(ENTRIES), io)
    expect(outputs).toMatchObject({
      'fresh-count': '1',
      'stale-count': '3',
      'unreachable-count': '1'
    })
  })

  it('gives every URL’s verdict in verification and in the file verification-file names', async () => {
    const { io, outputs, files, log } = memoryOutputs()
    await writeEdgeCheckOutputs(outcome(ENTRIES), io)
    expect(JSON.parse(outputs.verification ?? '')).toEqual(ENTRIES)
    expect(files.get(outputs['verification-file'] ?? '')).toBe(outputs.verification)
    expect(log.lines).toEqual([])
  })

  it('hides the run’s secrets in the output and the file, and the JSON stays valid', async () => {
    const token = 'tok"9fQ2/xL7\\vR4m+Zq'
    const { io, outputs, files } = memoryOutputs(guardAgainst([token]))
    const entries = [entry(`https://www.example.com/?t=${token}`, { evidence: `said ${token}` })]
    await writeEdgeCheckOutputs(outcome(entries), io)
    const [shown] = JSON.parse(outputs.verification ?? '') as EdgeCheckEntry[]
    expect(shown).toMatchObject({ url: 'https://www.example.com/?t=***', evidence: 'said ***' })
    expect(files.get(outputs['verification-file'] ?? '')).toBe(outputs.verification)
  })

  it('without an edge check: every count 0, the rest empty, no file', async () => {
    const { io, outputs, files } = memoryOutputs()
    await writeEdgeCheckOutputs(undefined, io)
    expect(outputs).toEqual({
      'fresh-count': '0',
      'stale-count': '0',
      'unreachable-count': '0',
      verification: '',
      'verification-file': ''
    })
    expect(files.size).toBe(0)
  })

  it('still gives verification when its file cannot be written, with one warning naming the file', async () => {
    const { io, outputs, log } = memoryOutputs(NO_SECRETS, { full: true })
    await writeEdgeCheckOutputs(outcome(ENTRIES), io)
    expect(JSON.parse(outputs.verification ?? '')).toEqual(ENTRIES)
    expect(outputs['verification-file']).toBe('')
    expect(log.lines).toEqual([expect.stringMatching(/^warning: /)])
    expect(log.lines[0]).toContain(keptPath('verification'))
  })
})

describe('the outputs of the files the pages load', () => {
  const file = (url: string, verdict: AssetEntry['verdict']): AssetEntry => ({
    url,
    page: 'https://www.example.com/',
    pages: 1,
    http_status: verdict === 'broken' ? 404 : 200,
    age: 0,
    verdict,
    purged: verdict === 'healed',
    evidence: verdict
  })
  const FILES = [
    file('https://www.example.com/app.js', 'healed'),
    file('https://www.example.com/site.css', 'broken'),
    file('https://www.example.com/logo.png', 'whole'),
    file('https://www.example.com/favicon.ico', 'not_judged')
  ]

  it('counts the broken and healed files, and keeps every entry in assets-file', async () => {
    const { io, outputs, files } = memoryOutputs()
    await writeAssetsOutputs(FILES, io)
    expect(outputs).toEqual({
      'broken-count': '1',
      'healed-count': '1',
      'assets-file': keptPath('assets')
    })
    expect(JSON.parse(files.get(keptPath('assets')) ?? '')).toEqual(FILES)
  })

  it('still sets the counts when the file cannot be written, and leaves assets-file empty', async () => {
    const { io, outputs, log } = memoryOutputs(NO_SECRETS, { full: true })
    await writeAssetsOutputs(FILES, io)
    expect(outputs).toEqual({ 'broken-count': '1', 'healed-count': '1', 'assets-file': '' })
    expect(log.lines.filter((line) => line.startsWith('warning'))).toHaveLength(1)
  })
})
