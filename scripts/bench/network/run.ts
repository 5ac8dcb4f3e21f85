/** One run of the network mode: an entry launched as the runner launches it, against the hosts. */
import type { ConnectionTimeline } from '../../../tools/delay-proxy.js'
import { RUN_CONTEXT_ENV, runAction } from '../../../tools/run-like-runner.js'
import { connectionsSince, marksOf, requestsSince, type NetworkHosts } from './hosts.js'
import type { NetworkScenario } from './scenario.js'

export interface NetworkRun {
  elapsedMs: number
  /** Requests the API and the content host received. */
  calls: number
  /** Each connection the run opened, its milestones in ms since the spawn. */
  connections: ConnectionTimeline[]
}

/**
 * The runner's variables, and the bench's certificate trusted as a self-hosted runner's CA is.
 * Only the action gets the certificate: with NODE_EXTRA_CA_CERTS set, node builds its store of
 * trusted roots while it starts instead of at the first TLS connection, some 20 ms either way. The
 * action pays it once as it would on a runner (earlier, that is all); the empty action, which
 * opens no connection, would pay it only here, and its start is the floor of every bound.
 */
const envOf = (hosts: NetworkHosts): Record<string, string> => ({
  ...RUN_CONTEXT_ENV,
  NODE_EXTRA_CA_CERTS: hosts.certFile
})

export async function runScenario(
  hosts: NetworkHosts,
  scenario: NetworkScenario,
  /** Another build's dist/index.js (`--baseline`); this build's dist/ when undefined. */
  entry: string | undefined
): Promise<NetworkRun> {
  const marks = marksOf(hosts)
  const run = await runAction(scenario.inputs(hosts), {
    entry,
    env: envOf(hosts),
    files: scenario.files
  })
  if (run.code !== 0) {
    throw new Error(
      `${scenario.name} run of ${entry ?? 'dist/'} failed:\n${run.stdout}\n${run.stderr}`
    )
  }
  const since = (at: number): number => at - run.startedAt
  return {
    elapsedMs: run.elapsedMs,
    calls: requestsSince(hosts, marks),
    connections: connectionsSince(hosts, marks).map((connection) => ({
      openedAt: since(connection.openedAt),
      helloAt: since(connection.helloAt),
      tlsDoneAt: since(connection.tlsDoneAt),
      firstRequestAt: since(connection.firstRequestAt),
      lastAnswerAt: since(connection.lastAnswerAt)
    }))
  }
}

/** The start of an action whose main is an empty file, launched the same way: the floor. */
export async function runEmpty(emptyEntry: string): Promise<number> {
  const run = await runAction({}, { entry: emptyEntry, env: RUN_CONTEXT_ENV })
  if (run.code !== 0) throw new Error(`the empty action failed:\n${run.stderr}`)
  return run.elapsedMs
}
