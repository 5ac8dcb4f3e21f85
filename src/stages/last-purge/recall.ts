/**
 * Reads each service's last complete purge: the newest deployment of `edge-purge/<service-id>`
 * whose latest status is `success`. Deployments whose latest status is anything else (a failed or
 * cancelled purge, one still running, one made inactive by a newer success) are skipped.
 */
import type { LastPurgeSettings } from '../../config/settings.js'
import { InputError } from '../../config/targets.js'
import { statusOf, type GitHubRepository, type RunEvent } from '../../github.js'
import type { StepLog } from '../../log.js'
import type { LastPurge, RecalledPurges } from '../../record.js'
import { redact } from '../../text/guard.js'
import { messageOf } from '../../text/message.js'

/** The deployments looked at before giving up: a long run of failures means something else is wrong. */
export const MOST_DEPLOYMENTS = 200

/** The environment that holds a service's records. */
export const environmentOf = (service: string): string => `edge-purge/${service}`

/** What a failed read or write of the records tells the user to grant. */
export const DEPLOYMENTS_PERMISSION =
  'the job needs permissions: deployments: write (besides contents: read)'

/**
 * The commit a run purges for, which its record names: a pull request's head, not the merge
 * commit GitHub makes for the run (that commit is rebuilt on every push and soon forgotten).
 */
export function purgedCommit(event: RunEvent): string {
  const pullRequest = event.payload.pull_request as { head?: { sha?: unknown } } | undefined
  const head = pullRequest?.head?.sha
  if (typeof head === 'string' && head !== '') return head
  const after = event.payload.after
  if (event.eventName === 'push' && typeof after === 'string' && after !== '') return after
  return event.sha
}

/**
 * What the run starts from. With changed-files off (`mode: all`), nothing is read: the purge
 * covers everything, and its record starts or resets the history.
 */
export async function recallLastPurges(
  github: GitHubRepository,
  settings: LastPurgeSettings,
  readRecords: boolean,
  log: StepLog
): Promise<RecalledPurges> {
  const head = purgedCommit(github.event)
  const last = new Map<string, LastPurge>()
  if (!readRecords) return { head, last }
  for (const service of settings.serviceIds) {
    const found = await lastCompletePurge(github, service)
    if (found === undefined) {
      log.info(`No complete purge of ${service} is recorded in ${environmentOf(service)}`)
      continue
    }
    const run = found.runId === '' ? '' : ` by run ${found.runId}`
    log.info(
      `Last complete purge of ${service}: ${found.sha}${run} (deployment ${found.deploymentId} of ${environmentOf(service)})`
    )
    last.set(service, found)
  }
  return { head, last }
}

async function lastCompletePurge(
  github: GitHubRepository,
  service: string
): Promise<LastPurge | undefined> {
  const environment = environmentOf(service)
  let seen = 0
  try {
    for (let page = 1; ; page += 1) {
      const { deployments, hasNextPage } = await github.deployments(environment, page)
      for (const deployment of deployments) {
        seen += 1
        if (seen > MOST_DEPLOYMENTS) throw tooManyFailures(service)
        if ((await github.latestDeploymentState(deployment.id)) === 'success') {
          return {
            sha: deployment.sha,
            runId: runIdOf(deployment.payload),
            deploymentId: deployment.id
          }
        }
      }
      if (!hasNextPage) return undefined
    }
  } catch (error) {
    if (error instanceof InputError) throw error
    throw readRefused(error, github, environment)
  }
}

function tooManyFailures(service: string): InputError {
  return new InputError(
    `changed-since: last-purge: none of the newest ${MOST_DEPLOYMENTS} deployments of ${environmentOf(service)} records a complete purge, so the base cannot be known. Reset the record with a run of mode: all and changed-since: last-purge, or delete the environment's old deployments`
  )
}

/** The run id a record's payload names; only digits are trusted, anything else is left out. */
function runIdOf(payload: unknown): string {
  if (typeof payload !== 'object' || payload === null) return ''
  const id = (payload as Record<string, unknown>).run_id
  const text = typeof id === 'number' ? String(id) : id
  return typeof text === 'string' && /^\d{1,20}$/.test(text) ? text : ''
}

function readRefused(error: unknown, github: GitHubRepository, environment: string): Error {
  const status = statusOf(error)
  const reason = redact(messageOf(error))
  const where = `the deployments of ${environment} in ${github.owner}/${github.repo}`
  if (status === 401) {
    return new InputError(`github-token: GitHub rejected the token (401: ${reason})`)
  }
  if (status === 403 || status === 404) {
    return new InputError(
      `changed-since: last-purge: GitHub refused to read ${where} (${status}: ${reason}); ${DEPLOYMENTS_PERMISSION}. Nothing was purged`
    )
  }
  return new Error(`GitHub API: could not read ${where}: ${reason}`)
}
