/** BENCHMARKS.md's network section: the table of this run, and one keys10k run's connections. */
import { cpus, loadavg } from 'node:os'
import { actionNodeVersion } from '../../../tools/run-like-runner.js'
import { format, median } from '../numbers.js'
import { CONCURRENCY, RUNS } from '../options.js'
import { writeSection } from '../sections.js'
import type { NetworkRow } from './rows.js'
import type { NetworkRun } from './run.js'
import { TIMELINE_HEADER, timelineRows } from './timeline.js'

/** Round trips a run took beyond the empty start, as the bound counts them. */
const rttsTaken = (row: NetworkRow, medianMs: number): string =>
  row.rttMs === 0 ? '' : ((medianMs - row.emptyMs) / row.rttMs).toFixed(1)

function targetCell(row: NetworkRow): string {
  if (row.target === undefined) return ''
  return `≤ ${row.target.toFixed(2)} (${row.current.ratio <= row.target ? 'met' : 'missed'})`
}

export function tableOf(rows: NetworkRow[], withBaseline: boolean): string[] {
  const extra = withBaseline ? ' baseline median | baseline ratio | dist / baseline |' : ''
  return [
    `| scenario | RTT | calls | connections | median | bound | ratio | round trips (bound) | target |${extra}`,
    `|---|---|---|---|---|---|---|---|---|${withBaseline ? '---|---|---|' : ''}`,
    ...rows.map((row) => {
      const base =
        row.baseline === undefined
          ? ''
          : ` ${format(row.baseline.medianMs)} | ${row.baseline.ratio.toFixed(2)} | ${row.baseline.paired.toFixed(3)} |`
      return (
        `| ${row.scenario} | ${row.rttMs} ms | ${row.calls} | ${row.current.connections} | ` +
        `${format(row.current.medianMs)} | ${format(row.boundMs)} | ${row.current.ratio.toFixed(2)} | ` +
        `${rttsTaken(row, row.current.medianMs)} (${row.boundRtts.toFixed(0)}) | ${targetCell(row)} |${base}`
      )
    })
  ]
}

function intro(loadAtStart: number, baseline: string | undefined): string {
  const cpu = cpus()[0]?.model ?? 'unknown CPU'
  return (
    `Measured by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)}: ${cpus().length} ` +
    `cores (${cpu}), load average ${loadAtStart.toFixed(1)} at the start and ` +
    `${(loadavg()[0] ?? NaN).toFixed(1)} at the end, node ${actionNodeVersion()}, median of ${RUNS} ` +
    'interleaved runs per scenario (each run of each scenario in turn, each after an empty ' +
    `action's start${baseline === undefined ? '' : `, beside the build in \`${baseline}\``}). ` +
    'Each run is the bundled `dist/index.js` launched as the runner launches it, against the fake ' +
    'purge API over HTTPS (a certificate made with `openssl` at the start, trusted through ' +
    '`NODE_EXTRA_CA_CERTS`) behind a proxy on 127.0.0.1 that forwards every chunk half a round ' +
    "trip late each way and holds the client's first bytes a round trip for the TCP handshake " +
    '([tools/delay-proxy.ts](tools/delay-proxy.ts)); URL purges go as `PURGE` to a content host ' +
    'behind a proxy of its own.'
  )
}

const BOUND =
  "Bound = the start of an action whose `main` is an empty file, launched the same way just before each run (the run's floor, measured in this run; without `NODE_EXTRA_CA_CERTS`, which makes node build its trusted roots at start rather than at the first TLS connection: the action pays that once either way, an empty action on a runner never), " +
  `+ 2 RTT (the TCP and TLS 1.3 handshakes) + ceil(calls / ${CONCURRENCY}) × RTT. The ratio is the median of each run over the bound from the ` +
  "empty start just before it. Round trips = (median − the median empty start) / RTT: what the run spent beyond the start, in round trips, against the bound's."

/** The floor of each RTT's runs: how busy the machine was. */
function startsLine(rows: NetworkRow[]): string {
  const rtts = [...new Set(rows.map((row) => row.rttMs))]
  const starts = rtts.map((rtt) => {
    const empties = rows.filter((row) => row.rttMs === rtt).map((row) => row.emptyMs)
    return `${format(median(empties))} in the RTT ${rtt} ms runs`
  })
  return (
    `The empty action started in ${starts.join(', ')} (medians). The busier the machine, the ` +
    "longer that start, and the higher every ratio: the action's CPU time grows with the load, " +
    'the round trips do not.'
  )
}

export async function writeNetworkReport(
  rows: NetworkRow[],
  shown: { rttMs: number; run: NetworkRun } | undefined,
  context: { loadAtStart: number; baseline: string | undefined }
): Promise<void> {
  const table = tableOf(rows, context.baseline !== undefined)
  console.log(`\n${table.join('\n')}`)
  const timeline =
    shown === undefined
      ? []
      : [
          '',
          `### One keys10k run at RTT ${shown.rttMs} ms`,
          '',
          `The run of median time (${format(shown.run.elapsedMs)}, ${shown.run.calls} calls): each ` +
            'connection it opened, in ms since the spawn. `opened` is the connect, `TLS done` the ' +
            "client's Finished, `first request` the first request leaving the client, `last answer` " +
            'the last answer reaching it; the run ends with the exit, after the outputs and the summary. ' +
            '`npm run bench -- --verbose` prints this for every run of every scenario.',
          '',
          ...TIMELINE_HEADER,
          ...timelineRows(shown.run.connections)
        ]
  const text = [
    '## Real network (`npm run bench`)',
    '',
    intro(context.loadAtStart, context.baseline),
    '',
    BOUND,
    '',
    ...table,
    '',
    startsLine(rows),
    ...timeline
  ].join('\n')
  await writeSection('network', text)
}
