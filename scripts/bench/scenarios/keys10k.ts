/**
 * keys10k and keys10k-header: 10,000 keys from a keys-file, in JSON batches and in Surrogate-Key
 * header batches, each run timed in turn with the empty action and judged against the bound from
 * the empty start just before it. keys10k's runs also say where their time goes.
 */
import { join } from 'node:path'
import type { Bench } from '../context.js'
import type { Row } from '../figures.js'
import { bound, judged, keyList, median } from '../numbers.js'
import { RUNS, TARGETS } from '../options.js'
import { MARKS_PRELOAD, phasesOf } from '../phases.js'
import { scratchDir } from '../scratch.js'
import { measure, type Measured } from '../timing.js'

type KeysScenario = 'keys10k' | 'keys10k-header'

interface KeysMeasured {
  row: Row
  result: Measured
  /** Where each run wrote its marks. */
  marksFiles: string[]
}

async function measureKeys(
  bench: Bench,
  scenario: KeysScenario,
  batchFormat: 'json' | 'header',
  files: Record<string, string>
): Promise<KeysMeasured> {
  const marksDir = await scratchDir('edge-purge-marks-')
  const marksFiles = Array.from({ length: RUNS }, (_, index) => join(marksDir, `${index}.json`))
  const result = await measure(
    bench.server,
    { ...bench.api, 'keys-file': 'keys.txt', 'batch-format': batchFormat },
    { files, nodeArgs: ['--import', MARKS_PRELOAD] },
    RUNS,
    (index) => ({ BENCH_MARKS_FILE: marksFiles[index] ?? '' }),
    bench.emptyEntry
  )
  // Each run against the bound from the empty action launched just before it.
  const ratio = median(
    result.runs.map(
      (run, index) => run.elapsedMs / bound(result.pairedMs[index] ?? NaN, result.calls)
    )
  )
  const row: Row = {
    scenario,
    calls: result.calls,
    medianMs: result.medianMs,
    boundMs: bound(median(result.pairedMs), result.calls),
    pairedRatio: ratio,
    target:
      scenario === 'keys10k'
        ? judged(`≤ ${TARGETS.keys10kRatio.toFixed(2)}`, ratio <= TARGETS.keys10kRatio)
        : '',
    note: 'timed in turn with the empty action, ratio of the pairs'
  }
  return { row, result, marksFiles }
}

export async function keys10k(
  bench: Bench
): Promise<{ rows: Row[]; figures: { calls: number; phases: Record<string, number> } }> {
  const files = { 'keys.txt': keyList(10_000, 'product').join('\n') }
  const json = await measureKeys(bench, 'keys10k', 'json', files)
  const phases = await phasesOf(json.result.runs, json.marksFiles)
  const header = await measureKeys(bench, 'keys10k-header', 'header', files)
  return { rows: [json.row, header.row], figures: { calls: json.result.calls, phases } }
}
