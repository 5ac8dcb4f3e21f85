/** The concurrency curve: urls1k at 1, 4, 8, 16 and 32 calls in flight. */
import type { Bench } from '../context.js'
import type { CurvePoint } from '../figures.js'
import { bound, format } from '../numbers.js'
import { RUNS } from '../options.js'
import { measure } from '../timing.js'

export async function concurrencyCurve(bench: Bench): Promise<CurvePoint[]> {
  const curve: CurvePoint[] = []
  for (const level of [1, 4, 8, 16, 32]) {
    const runs = level === 1 ? 1 : Math.min(RUNS, 3)
    const result = await measure(
      bench.server,
      { 'urls-file': 'urls.txt', concurrency: String(level) },
      bench.urlsFile,
      runs
    )
    const limit = bound(bench.emptyMs, result.calls, level)
    curve.push({
      concurrency: level,
      medianMs: result.medianMs,
      boundMs: limit,
      connections: result.connections
    })
    console.log(`concurrency ${level}: ${format(result.medianMs)} (bound ${format(limit)})`)
  }
  return curve
}
