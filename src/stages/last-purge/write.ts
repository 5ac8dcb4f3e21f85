/**
 * Writes the record of this run's purge of each service: a deployment made when the purge starts
 * (status `in_progress`), then `success` when the purge was complete, `failure` otherwise. A record
 * GitHub refuses to take costs a warning, never the purge's result: the next run then compares
 * from the older record, which purges more, never less.
 */
import type { LastPurgeSettings } from '../../config/settings.js'
import { statusOf, type GitHubRepository } from '../../github.js'
import type { StepLog } from '../../log.js'
import type { PlannedStage, WrittenRecord } from '../../record.js'
import { redact } from '../../text/guard.js'
import { plainLine } from '../../text/shown.js'
import { incompleteBecause, type RunOutcome } from './complete.js'
import { DEPLOYMENTS_PERMISSION, environmentOf } from './recall.js'
import { messageOf } from '../../text/message.js'

export const RECORD_TASK = 'edge-purge'

/** GitHub refuses deployment and status descriptions over 140 characters. */
const DESCRIPTION_CHARS = 140

/** A service's record while the purge runs: the deployment, or why GitHub would not make it. */
export interface OpenRecord {
  service: string
  sha: string
  deploymentId: number | undefined
  refusal: string | undefined
}

/** Makes each service's deployment for `head` and marks it `in_progress`. */
export async function openRecords(
  github: GitHubRepository,
  settings: LastPurgeSettings,
  head: string,
  log: StepLog
): Promise<OpenRecord[]> {
  const records: OpenRecord[] = []
  const { runId, runUrl } = github.event
  for (const service of settings.serviceIds) {
    try {
      const deploymentId = await github.createDeployment({
        sha: head,
        environment: environmentOf(service),
        task: RECORD_TASK,
        description: described(`edge-purge of ${service}`),
        payload: { run_id: runId }
      })
      await github.setDeploymentState(deploymentId, 'in_progress', {
        description: 'purging',
        logUrl: runUrl
      })
      records.push({ service, sha: head, deploymentId, refusal: undefined })
    } catch (error) {
      const refusal = refusalOf(error)
      log.warning(
        `Could not record this purge of ${service} in ${environmentOf(service)} (${refusal}): the purge goes on, and the next run with changed-since: last-purge compares from the older record, which is safe; ${DEPLOYMENTS_PERMISSION}`
      )
      records.push({ service, sha: head, deploymentId: undefined, refusal })
    }
  }
  return records
}

/** Ends each record: `success` when the run purged the service completely, `failure` otherwise. */
export async function closeRecords(
  github: GitHubRepository,
  records: OpenRecord[],
  run: RunOutcome,
  log: StepLog
): Promise<WrittenRecord[]> {
  const written: WrittenRecord[] = []
  for (const { service, sha, deploymentId, refusal } of records) {
    if (deploymentId === undefined) {
      written.push({ service, sha, state: 'not written', why: refusal ?? '' })
      continue
    }
    const why = incompleteBecause(run, service)
    const state = why === undefined ? 'success' : 'failure'
    try {
      await github.setDeploymentState(deploymentId, state, {
        description: described(why ?? 'complete'),
        logUrl: github.event.runUrl
      })
      log.info(
        why === undefined
          ? `Recorded the complete purge of ${service} at ${sha}: the next run with changed-since: last-purge compares from it`
          : `Recorded this purge of ${service} as incomplete (${why}): the next run compares from the last complete purge again`
      )
      written.push({ service, sha, state, why: why ?? '' })
    } catch (error) {
      const reason = refusalOf(error)
      log.warning(
        `Could not mark the record of ${service} as ${state} (${reason}): the next run with changed-since: last-purge compares from the older record, which is safe; ${DEPLOYMENTS_PERMISSION}`
      )
      written.push({ service, sha, state: 'not written', why: reason })
    }
  }
  return written
}

/** What a dry run would have recorded. */
export function describeRecordPlanned(settings: LastPurgeSettings): PlannedStage {
  const environments = settings.serviceIds.map(environmentOf).join(', ')
  return {
    sentence: `Would then record the purge as a deployment of ${environments}, marked success only if every target is purged and every checked page fresh: later runs with changed-since: last-purge compare from the last such record`,
    urls: []
  }
}

function described(text: string): string {
  return plainLine(text, DESCRIPTION_CHARS)
}

/** A refused call in a few words: the status and GitHub's message, any secret in it hidden. */
function refusalOf(error: unknown): string {
  const message = redact(messageOf(error))
  const status = statusOf(error)
  return status === undefined ? message : `${status}: ${message}`
}
