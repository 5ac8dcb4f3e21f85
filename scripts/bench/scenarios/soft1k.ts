/** soft1k: 1,000 keys soft-purged, which the API takes one call per key. */
import type { Bench } from '../context.js'
import type { Figures, Scenario } from '../figures.js'
import { bound, keyList } from '../numbers.js'
import { measure } from '../timing.js'

export async function soft1k(bench: Bench): Promise<Scenario<Figures['soft1k']>> {
  const soft = await measure(
    bench.server,
    { ...bench.api, 'keys-file': 'keys.txt', soft: 'true' },
    {
      files: { 'keys.txt': keyList(1000, 'article').join('\n') }
    }
  )
  const boundMs = bound(bench.emptyMs, soft.calls)
  return {
    row: {
      scenario: 'soft1k',
      calls: soft.calls,
      medianMs: soft.medianMs,
      boundMs,
      target: '',
      note: ''
    },
    figures: { medianMs: soft.medianMs, boundMs }
  }
}
