/**
 * One run in order: the targets (changed files add theirs) → plan → the stages before the purge
 * (purge marks opened, the wait) → purge → the stages after it (the edge check); returns the
 * RunRecord, and how the run ends once the report is written. No I/O of its own.
 */
import { mark, unlessCancelled } from '../clock.js'
import { CAPABILITIES, verdictsOf, type Parts, type RunRecord } from '../capabilities/index.js'
import type { MadeTargets, StageDeps, StageEnd } from '../capabilities/capability.js'
import type { Settings } from '../config/settings.js'
import type { GitHubRepository } from '../github.js'
import type { Prober } from '../http/probe.js'
import { describePlan, planPurges } from '../core/plan.js'
import { runPurge } from '../core/engine.js'
import { purgeUrl as urlTarget } from '../config/keys-and-urls.js'
import { wouldExposeToken } from '../config/purge-api.js'
import { ResultLedger } from '../core/ledger.js'
import type { PipelineDeps } from './connections.js'
import { runStages, walk, type Targeted } from './stages.js'

/** What a run did, and how it ends once the report is written. */
export interface PipelineRun {
  record: RunRecord
  /** Ends what the capabilities keep open (the purge marks): `reported`, the report was written. */
  finish(reported: boolean): Promise<void>
}

/**
 * Runs the stages in order. Input errors, the GitHub API and planning fail the run (they throw)
 * before anything is sent; from planning on, every target is reported exactly once, whatever
 * happens.
 */
export async function runPipeline(settings: Settings, deps: PipelineDeps): Promise<PipelineRun> {
  const { log, guard } = deps
  const opened = openOnce(settings, deps)
  const targeted = await unlessCancelled(
    targetsOf(settings, opened.stage),
    deps.signal,
    cancelledBeforeTargets
  )
  const { targets } = targeted
  const calls = planPurges({ ...settings, ...targets })
  mark('plan')
  log.info(describePlan(calls, settings, guard))
  const notices = CAPABILITIES.flatMap((one) => one.notices?.(settings, targets, guard) ?? [])
  for (const notice of notices) log.notice(notice)

  const stages = await runStages(calls, settings, targeted, opened, deps, new ResultLedger(calls))
  const record: RunRecord = { settings, calls, ...stages, notComplete: undefined }
  // Whether the run is complete is asked of every capability: the purge marks need to know.
  record.notComplete = verdictsOf(record, guard).find((verdict) => verdict.incomplete)?.incomplete
  return {
    record,
    finish: async (reported) => {
      for (const capability of CAPABILITIES)
        await capability.finish?.(record, reported, opened.stage)
    }
  }
}

/** What to purge: the targets given, or those a capability made, with every capability's part. */
async function targetsOf(settings: Settings, stage: StageDeps): Promise<Targeted> {
  const progress = { parts: {} }
  const ends: (StageEnd<Parts> & { made?: MadeTargets })[] = []
  await walk(settings, progress, ends, (capability) => capability.targets?.(settings, stage))
  const made = [...ends].reverse().find((end) => end.made !== undefined)?.made
  return { targets: made?.targets ?? settings, made, parts: progress.parts }
}

/**
 * The connections the stages share, each opened on first use: the run's one GitHub client and the
 * prober of the wait and the edge check, which `close` closes once the stages are over.
 */
function openOnce(
  settings: Settings,
  { clock, signal, log, guard, connect, openGitHub, localGit }: PipelineDeps
): { stage: StageDeps; close(): void } {
  let github: Promise<GitHubRepository> | undefined
  let prober: Prober | undefined
  // GitHub calls keep the bounds purge calls keep: `max-attempts`, `timeout`, the run's cancel.
  const { maxAttempts, timeoutMs, concurrency, urlPurgeAuth } = settings
  const stage: StageDeps = {
    clock,
    signal,
    log,
    guard,
    github: () => (github ??= openGitHub({ maxAttempts, timeoutMs, clock, signal, log, guard })),
    localGit,
    pages: async () => {
      prober ??= await connect.prober(settings, guard)
      return { prober, clock, signal, log, guard }
    },
    limits: { requestTimeoutMs: timeoutMs, concurrency },
    purgeUrl: async (url) => {
      const target = urlTarget(url, 'verify-assets', guard)
      // The token crosses the network only encrypted, as requireSafeUrlPurges holds for `urls`.
      if (urlPurgeAuth && wouldExposeToken(target.url)) {
        return 'not purged: url-purge-auth sends the API token only over https or to a loopback host'
      }
      const urls = [target]
      const calls = planPurges({ ...settings, purgeAll: false, keys: [], urls, soft: false })
      const transport = connect.transport(settings)
      const once = { ...settings, repeatAfterMs: 0 }
      // Its lines join the group of the check that asked for it: the runner nests no group.
      const inline = { ...log, group: <T>(_title: string, fn: () => Promise<T>) => fn() }
      try {
        const purged = await runPurge(calls, once, { transport, clock, signal, log: inline, guard })
        const [result] = purged.results
        return result?.status === 'purged' ? undefined : (result?.error ?? 'not purged')
      } finally {
        transport.close()
      }
    }
  }
  return { stage, close: () => prober?.close() }
}

/** A slow GitHub API cannot hold a cancelled job: the run ends before any purge call. */
function cancelledBeforeTargets(): never {
  throw new Error('Cancelled before the targets were known: nothing was sent')
}
