/** urls1k: 1,000 URL purges from a urls-file, at the default concurrency. */
import type { Bench } from '../context.js'
import type { Figures, Scenario } from '../figures.js'
import { bound } from '../numbers.js'
import { CONCURRENCY } from '../options.js'
import { measure } from '../timing.js'

export async function urls1k(bench: Bench): Promise<Scenario<Figures['urls1k']>> {
  const run = await measure(bench.server, { 'urls-file': 'urls.txt' }, bench.urlsFile)
  const boundMs = bound(bench.emptyMs, run.calls)
  return {
    row: {
      scenario: 'urls1k',
      calls: run.calls,
      medianMs: run.medianMs,
      boundMs,
      target: '',
      note: `${run.connections} TCP connections (concurrency ${CONCURRENCY})`
    },
    figures: { medianMs: run.medianMs, boundMs, connections: run.connections }
  }
}
