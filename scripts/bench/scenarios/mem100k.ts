/** mem100k: the peak memory of a run that purges 100,000 keys, and of one that purges one. */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { RUN_CONTEXT_ENV, runAction } from '../../../tools/run-like-runner.js'
import type { Bench } from '../context.js'
import type { Scenario } from '../figures.js'
import { judged, keyList } from '../numbers.js'
import { TARGETS } from '../options.js'
import { scratchDir } from '../scratch.js'

/** Writes the process's peak RSS (KiB) to BENCH_RSS_FILE at exit. */
const PEAK_RSS_PRELOAD =
  'data:text/javascript,import{writeFileSync}from"node:fs";process.on("exit",()=>writeFileSync(process.env.BENCH_RSS_FILE,String(process.resourceUsage().maxRSS)))'

async function peakRssMb(bench: Bench, keys: number): Promise<number> {
  const rssFile = join(await scratchDir('edge-purge-rss-'), 'rss')
  const run = await runAction(
    { ...bench.api, 'keys-file': 'keys.txt' },
    {
      files: { 'keys.txt': keyList(keys, 'product-variant').join('\n') },
      env: { ...RUN_CONTEXT_ENV, BENCH_RSS_FILE: rssFile },
      nodeArgs: ['--import', PEAK_RSS_PRELOAD]
    }
  )
  if (run.code !== 0) throw new Error(`memory run failed:\n${run.stdout}`)
  return Number(await readFile(rssFile, 'utf8')) / 1024
}

export async function mem100k(
  bench: Bench
): Promise<Scenario<{ rssOneKeyMb: number; rss100kMb: number }>> {
  const rssOneKeyMb = await peakRssMb(bench, 1)
  const rss100kMb = await peakRssMb(bench, 100_000)
  return {
    row: {
      scenario: 'mem100k',
      calls: Math.ceil(100_000 / 256),
      medianMs: NaN,
      boundMs: undefined,
      target: judged(`peak RSS ≤ ${TARGETS.mem100kMb} MB`, rss100kMb <= TARGETS.mem100kMb),
      note: `peak RSS ${rss100kMb.toFixed(0)} MB`
    },
    figures: { rssOneKeyMb, rss100kMb }
  }
}
