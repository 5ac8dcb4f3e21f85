/**
 * Writes this run's purge mark of each service: a deployment made when the purge starts (status
 * `in_progress`), then, once the report is written, `success` when the purge was complete,
 * `failure` otherwise. A mark GitHub refuses, or a write that times out or is cancelled, costs a
 * warning, never the purge's result: the next run then compares from the older mark, which purges
 * more, never less.
 */
import type { LastPurgeSettings } from '../../../config/settings.js'
import { answerOf, isRateLimited, statusOf, type GitHubRepository } from '../../../github.js'
import type { StepLog } from '../../../log.js'
import type { PlannedStage } from '../../../record/index.js'
import { cut } from '../../../text/cut.js'
import type { OpenMark, PurgeMark } from '../record.js'
import { DEPLOYMENTS_PERMISSION, environmentOf } from './recall.js'
import { messageOf } from '../../../text/message.js'

export const MARK_TASK = 'edge-purge'

/** GitHub refuses deployment and status descriptions over 140 characters. */
const DESCRIPTION_CHARS = 140

/** Makes each service's deployment for `head` and marks it `in_progress`. */
export async function openMarks(
  github: GitHubRepository,
  settings: LastPurgeSettings,
  head: string,
  log: StepLog
): Promise<OpenMark[]> {
  const marks: OpenMark[] = []
  const { runId, runUrl } = github.event
  for (const service of settings.serviceIds) {
    try {
      const deploymentId = await github.createDeployment({
        sha: head,
        environment: environmentOf(service),
        task: MARK_TASK,
        description: cut(`edge-purge of ${service}`, DESCRIPTION_CHARS),
        payload: { run_id: runId }
      })
      await github.setDeploymentState(deploymentId, 'in_progress', {
        description: 'purging',
        logUrl: runUrl
      })
      marks.push({ service, sha: head, deploymentId, refusal: undefined })
    } catch (error) {
      // A refused call in a few words: the status and GitHub's message (the client hid any secret).
      const refusal = answerOf(error, messageOf(error))
      log.warning(
        `Could not record this purge of ${service} in ${environmentOf(service)} (${refusal}): the purge goes on, and the next run with changed-since: last-purge compares from the older record, which is safe${permissionHint(error)}`
      )
      marks.push({ service, sha: head, deploymentId: undefined, refusal })
    }
  }
  return marks
}

/** Why a mark decided `success` says `failure` after all: the report it points to is missing. */
const REPORT_NOT_WRITTEN = 'the outputs or the job summary could not be written'

/**
 * Ends each purge mark as decided, once the report is written; `failure` after all when the
 * report could not be written. A status GitHub does not take costs a warning.
 */
export async function closeMarks(
  github: GitHubRepository,
  marks: PurgeMark[],
  reported: boolean,
  log: StepLog
): Promise<void> {
  for (const mark of marks) {
    const { service, sha, deploymentId } = mark
    if (deploymentId === undefined) continue
    const { state, why } =
      mark.state === 'success' && !reported
        ? { state: 'failure' as const, why: REPORT_NOT_WRITTEN }
        : mark
    if (state === 'not written') continue
    try {
      await github.setDeploymentState(deploymentId, state, {
        description: cut(state === 'success' ? 'complete' : why, DESCRIPTION_CHARS),
        logUrl: github.event.runUrl
      })
      log.info(
        state === 'success'
          ? `Recorded the complete purge of ${service} at ${sha}: the next run with changed-since: last-purge compares from it`
          : `Recorded this purge of ${service} as incomplete (${why}): the next run compares from the last complete purge again`
      )
    } catch (error) {
      log.warning(
        `Could not mark the record of ${service} as ${state} (${answerOf(error, messageOf(error))}): it stays in_progress, so the next run with changed-since: last-purge compares from the older record, which is safe${permissionHint(error)}`
      )
    }
  }
}

/** The purge marks a dry run would have written. */
export function describeMarkPlanned(settings: LastPurgeSettings): PlannedStage {
  const environments = settings.serviceIds.map(environmentOf).join(', ')
  return {
    sentence: `Would then record the purge as a deployment of ${environments}, marked success only if every target is purged and every checked page fresh: later runs with changed-since: last-purge compare from the last such record`,
    urls: [],
    when: 'end'
  }
}

/** The permission to grant, when GitHub's answer was a refusal a permission fixes. */
function permissionHint(error: unknown): string {
  const status = statusOf(error)
  const refused = (status === 403 || status === 404) && !isRateLimited(error)
  return refused ? `; ${DEPLOYMENTS_PERMISSION}` : ''
}
