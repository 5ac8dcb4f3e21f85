/** How a run reaches the network, and what the pipeline is handed besides: the runner door fills it. */
import type { Settings } from '../config/settings.js'
import type { Prober } from '../http/probe.js'
import type { Guard } from '../text/guard.js'
import { createTransport, type Transport } from '../core/transport.js'
import type { StageDeps } from '../capabilities/capability.js'
import type { OpenGitHub } from '../github.js'
import type { OpenLocalGit } from '../git.js'

const USER_AGENT = 'edge-purge/1'

/** How the stages reach the network: real sockets in a run, scripted answers in tests. */
export interface Connections {
  transport(settings: Settings): Transport
  /**
   * Asked for only by a run that waits for the origin or checks the edge; a page's words pass
   * `guard`, the run's.
   */
  prober(settings: Settings, guard: Guard): Promise<Prober>
}

/** The real connections; the purge transport carries the API token the runner door hands in. */
export const liveConnections = (apiToken: string): Connections => ({
  transport: (settings) =>
    createTransport({
      apiToken,
      concurrency: settings.concurrency,
      timeoutMs: settings.timeoutMs,
      userAgent: USER_AGENT
    }),
  prober: async (settings, guard) => {
    const { createProber } = await import('../http/probe.js')
    return createProber({ userAgent: USER_AGENT, concurrency: settings.concurrency, guard })
  }
})

/** What the pipeline is handed: time, the cancel, the log and the guard, the network and GitHub. */
export type PipelineDeps = Pick<StageDeps, 'clock' | 'signal' | 'log' | 'guard'> & {
  connect: Connections
  /** Opens the run's repository, for changed-files and last-purge: the GitHub client loads only then. */
  openGitHub: OpenGitHub
  /** The command's door only: the repository on this machine, where its changed files are read. */
  localGit?: OpenLocalGit
}
