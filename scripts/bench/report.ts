/** BENCHMARKS.md's loopback section: the tables of this run, and what they mean with its figures. */
import { cpus, loadavg } from 'node:os'
import { actionNodeVersion } from '../../tools/run-like-runner.js'
import type { Figures, Row } from './figures.js'
import { format } from './numbers.js'
import { LATENCY_MS, RUNS, START_PAIRS } from './options.js'
import { reading } from './reading.js'
import { writeSection } from './sections.js'

function tableOf(rows: Row[]): string[] {
  return [
    '| scenario | calls | median | lower bound | ratio | target | notes |',
    '|---|---|---|---|---|---|---|',
    ...rows.map((row) => {
      const ratio =
        row.pairedRatio !== undefined
          ? row.pairedRatio.toFixed(2)
          : row.boundMs === undefined || Number.isNaN(row.medianMs)
            ? ''
            : (row.medianMs / row.boundMs).toFixed(2)
      const median_ = Number.isNaN(row.medianMs) ? '' : format(row.medianMs)
      const boundCell = row.boundMs === undefined ? '' : format(row.boundMs)
      return `| ${row.scenario} | ${row.calls} | ${median_} | ${boundCell} | ${ratio} | ${row.target} | ${row.note} |`
    })
  ]
}

/** The concurrency curve's section, or nothing when the run skipped it (`--quick`). */
function curveSection(figures: Figures): string[] {
  const curve = figures.curve.map(
    (point) =>
      `| ${point.concurrency} | ${format(point.medianMs)} | ${format(point.boundMs)} | ${(point.medianMs / point.boundMs).toFixed(2)} | ${point.connections} |`
  )
  return curve.length === 0
    ? []
    : [
        '',
        '### Concurrency (urls1k, 1,000 calls)',
        '',
        '| concurrency | median | lower bound | ratio | TCP connections |',
        '|---|---|---|---|---|',
        ...curve
      ]
}

export async function writeReport(rows: Row[], figures: Figures): Promise<void> {
  const table = tableOf(rows)
  console.log(`\n${table.join('\n')}`)
  const cpu = cpus()[0]?.model ?? 'unknown CPU'
  const text = [
    '## Loopback: the regression guard (`npm run bench -- --loopback`)',
    '',
    `Measured by \`npm run bench -- --loopback\` on ${new Date().toISOString().slice(0, 10)}: ${cpus().length} cores (${cpu}), ` +
      `load average ${figures.loadAtStart.toFixed(1)} at the start and ${(loadavg()[0] ?? NaN).toFixed(1)} at the end, node ${actionNodeVersion()}, ` +
      `${LATENCY_MS} ms added latency per request, median of ${RUNS} runs per scenario. ` +
      `Each run is the bundled \`dist/index.js\` launched as the runner launches it (INPUT_* variables, output and summary files).`,
    '',
    `Lower bound = the start of an action whose \`main\` is an empty file, launched the same way (median ${format(figures.emptyMs)}), ` +
      'plus ceil(calls / concurrency) × latency. `cold` compares a one-key dry run with that start alone, ' +
      `the two timed in turn, run by run (${START_PAIRS} pairs): its ratio is the median of the pairs; \`keys10k\` is timed in turn ` +
      'with the empty action the same way, each run against the bound from the start just before it. ' +
      "`verify1k`'s bound starts from `cold` instead: the action's start, plus one purge round trip, plus " +
      'ceil(1000 / concurrency) × latency for the checks.',
    '',
    ...table,
    ...curveSection(figures),
    '',
    reading(figures)
  ].join('\n')
  await writeSection('loopback', text)
}
