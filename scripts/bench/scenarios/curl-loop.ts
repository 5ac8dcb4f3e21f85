/** curl-loop: 100 URLs purged by a shell loop of curl, against the action purging the same 100. */
import { execFile } from 'node:child_process'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import type { Bench } from '../context.js'
import type { Row } from '../figures.js'
import { median } from '../numbers.js'
import { RUNS } from '../options.js'
import { scratchDir } from '../scratch.js'
import { measure } from '../timing.js'

async function curlLoopMs(urls: string[]): Promise<number> {
  const dir = await scratchDir('edge-purge-curl-')
  const list = join(dir, 'urls.txt')
  await writeFile(list, `${urls.join('\n')}\n`)
  const times: number[] = []
  for (let index = 0; index < Math.min(RUNS, 3); index += 1) {
    const started = performance.now()
    // Asynchronous: the fake server answering curl lives in this process.
    await promisify(execFile)('bash', [
      '-c',
      `while read -r u; do curl -s -o /dev/null -X PURGE "$u"; done < "${list}"`
    ])
    times.push(performance.now() - started)
  }
  return median(times)
}

export async function curlLoop(bench: Bench): Promise<Row> {
  const hundred = bench.urls.slice(0, 100)
  const curl = await curlLoopMs(hundred)
  const action100 = await measure(bench.server, { urls: hundred.join('\n') })
  return {
    scenario: 'curl-loop',
    calls: 100,
    medianMs: curl,
    boundMs: undefined,
    target: '',
    note: `curl ${(curl / 100).toFixed(1)} ms per URL; edge-purge ${(action100.medianMs / 100).toFixed(1)} ms per URL (${(curl / action100.medianMs).toFixed(1)}× faster)`
  }
}
