/** cold: a one-key dry run timed in turn with the empty action, and the size of dist/. */
import { readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { ROOT } from '../../../tools/run-like-runner.js'
import type { Bench } from '../context.js'
import type { Scenario } from '../figures.js'
import { judged } from '../numbers.js'
import { TARGETS } from '../options.js'
import { pairedStarts } from '../timing.js'

async function distSize(): Promise<{ total: number; startup: number }> {
  const dist = join(ROOT, 'dist')
  let total = 0
  for (const name of await readdir(dist)) {
    if (name.endsWith('.js')) total += (await stat(join(dist, name))).size
  }
  return { total, startup: (await stat(join(dist, 'index.js'))).size }
}

export async function cold(bench: Bench): Promise<Scenario<{ medianMs: number; ratio: number }>> {
  const pair = await pairedStarts(
    { inputs: { ...bench.api, keys: 'k1', 'dry-run': 'true' } },
    { inputs: {}, entry: bench.emptyEntry }
  )
  const size = await distSize()
  return {
    row: {
      scenario: 'cold',
      calls: 0,
      medianMs: pair.aMs,
      boundMs: pair.bMs,
      pairedRatio: pair.ratio,
      target: judged(`≤ ${TARGETS.coldRatio.toFixed(2)}`, pair.ratio <= TARGETS.coldRatio),
      note: `timed in turn with the empty action, ratio of the pairs; dist/ ${(size.total / 1024).toFixed(0)} KiB of JS, ${(size.startup / 1024).toFixed(0)} KiB loaded at start`
    },
    figures: { medianMs: pair.aMs, ratio: pair.ratio }
  }
}
