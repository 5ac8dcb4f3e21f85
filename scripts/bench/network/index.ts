/**
 * The network mode: five scenarios at each `--rtt`, against HTTPS fakes behind delaying proxies,
 * each run judged against its physical bound; with `--baseline`, beside another build.
 */
import { loadavg } from 'node:os'
import { join, resolve } from 'node:path'
import { moduleEntry } from '../scratch.js'
import { BASELINE, RTTS } from '../options.js'
import { closeHosts, openHosts, setRtt } from './hosts.js'
import { measureAt, type Samples } from './measure.js'
import { writeNetworkReport } from './report.js'
import { medianRun, rowOf } from './rows.js'
import { keys10k } from './scenarios/keys10k.js'
import { keys300 } from './scenarios/keys300.js'
import { oneKey } from './scenarios/one-key.js'
import { purgeAll } from './scenarios/purge-all.js'
import { urls100 } from './scenarios/urls100.js'

const SCENARIOS = [keys10k, keys300, urls100, purgeAll, oneKey]

export async function networkBench(): Promise<void> {
  const loadAtStart = loadavg()[0] ?? NaN
  const hosts = await openHosts()
  const entries = {
    empty: await moduleEntry(''),
    baseline: BASELINE === undefined ? undefined : join(resolve(BASELINE), 'index.js')
  }
  try {
    const samples: Samples[] = []
    for (const rttMs of RTTS) {
      setRtt(hosts, rttMs)
      samples.push(...(await measureAt(hosts, rttMs, entries, SCENARIOS)))
    }
    // The keys10k run shown whole: the median one at the largest RTT.
    const keys = samples
      .filter((each) => each.scenario === keys10k)
      .sort((a, b) => b.rttMs - a.rttMs)[0]
    const run = keys === undefined ? undefined : medianRun(keys.current)
    await writeNetworkReport(
      samples.map(rowOf),
      keys === undefined || run === undefined ? undefined : { rttMs: keys.rttMs, run },
      { loadAtStart, baseline: BASELINE }
    )
  } finally {
    await closeHosts(hosts)
  }
}
