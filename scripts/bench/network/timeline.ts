/** A run's connections, milestone by milestone: where a regression in the round trips shows. */
import type { ConnectionTimeline } from '../../../tools/delay-proxy.js'
import type { NetworkRun } from './run.js'

const cell = (ms: number): string => (Number.isNaN(ms) ? '–' : ms.toFixed(0))

/** One line per connection, in the order they were opened; times in ms since the spawn. */
export function timelineRows(connections: ConnectionTimeline[]): string[] {
  return connections.map(
    (connection, index) =>
      `| ${index + 1} | ${cell(connection.openedAt)} | ${cell(connection.helloAt)} | ` +
      `${cell(connection.tlsDoneAt)} | ${cell(connection.firstRequestAt)} | ${cell(connection.lastAnswerAt)} |`
  )
}

export const TIMELINE_HEADER = [
  '| connection | opened | ClientHello sent | TLS done | first request | last answer |',
  '|---|---|---|---|---|---|'
]

/** What `--verbose` prints after each run. */
export function printTimeline(label: string, run: NetworkRun): void {
  console.log(
    `${label}: ${run.elapsedMs.toFixed(0)} ms, ${run.calls} calls, ` +
      `${run.connections.length} connections (ms since the spawn)`
  )
  console.log([...TIMELINE_HEADER, ...timelineRows(run.connections)].join('\n'))
}
