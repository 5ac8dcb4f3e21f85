/**
 * Reads each service's last complete purge from its purge marks: the newest deployment of
 * `edge-purge/<service-id>` whose latest status is `success`. Deployments whose latest status is
 * anything else (a failed or cancelled purge, one still running, one made inactive by a newer
 * success) are skipped.
 */
import type { LastPurgeSettings } from '../../../config/settings.js'
import { InputError } from '../../../config/input-error.js'
import {
  deployedCommit,
  isInTheWay,
  isRateLimited,
  statusOf,
  walkPages,
  type GitHubRepository
} from '../../../github.js'
import type { StepLog } from '../../../log.js'
import type { LastPurge, RecalledPurges } from '../record.js'
import { messageOf } from '../../../text/message.js'
import { apiError } from '../api-error.js'

/** The deployments looked at before giving up: a long run of failures means something else is wrong. */
const MOST_DEPLOYMENTS = 200
/** Pages of 100 deployments: enough to reach the one past MOST_DEPLOYMENTS. */
const DEPLOYMENT_PAGES = 3

/** The environment that holds a service's purge marks. */
export const environmentOf = (service: string): string => `edge-purge/${service}`

/** What a failed read or write of the purge marks tells the user to grant. */
export const DEPLOYMENTS_PERMISSION =
  'the job needs permissions: deployments: write (besides contents: read)'

/**
 * What the run starts from. With changed-files off (`mode: all`), nothing is read: the purge
 * covers everything, and its purge mark starts or resets the history.
 */
export async function recallLastPurges(
  github: GitHubRepository,
  settings: LastPurgeSettings,
  readMarks: boolean,
  log: StepLog
): Promise<RecalledPurges> {
  const head = deployedCommit(github.event)
  const last = new Map<string, LastPurge>()
  if (!readMarks) return { head, last }
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
  let found: LastPurge | undefined
  try {
    await walkPages(
      (page) => github.deployments(environment, page),
      DEPLOYMENT_PAGES,
      `the deployments of ${environment}`,
      async ({ items }) => {
        for (const deployment of items) {
          seen += 1
          if (seen > MOST_DEPLOYMENTS) throw tooManyFailures(service)
          if ((await github.latestDeploymentState(deployment.id)) === 'success') {
            const runId = runIdOf(deployment.payload)
            found = { sha: deployment.sha, runId, deploymentId: deployment.id }
            return true
          }
        }
        return false
      }
    )
  } catch (error) {
    if (error instanceof InputError) throw error
    throw readRefused(error, github, environment)
  }
  return found
}

function tooManyFailures(service: string): InputError {
  return new InputError(
    `changed-since: last-purge: none of the newest ${MOST_DEPLOYMENTS} deployments of ${environmentOf(service)} records a complete purge, so the base cannot be known. Reset the record with a run of mode: all and changed-since: last-purge, or delete the environment's old deployments`
  )
}

/** The run id a purge mark's payload names; only digits are trusted, anything else is left out. */
function runIdOf(payload: unknown): string {
  if (typeof payload !== 'object' || payload === null) return ''
  const id = (payload as Record<string, unknown>).run_id
  const text = typeof id === 'number' ? String(id) : id
  return typeof text === 'string' && /^\d{1,20}$/.test(text) ? text : ''
}

/**
 * A failed read of the purge marks: a refusal a permission fixes names it; a rejected token, and
 * GitHub's answer to any other failure, are told as for every changed-files call, then why no
 * purge was sent.
 */
function readRefused(error: unknown, github: GitHubRepository, environment: string): Error {
  const status = statusOf(error)
  const what = `read the deployments of ${environment}`
  if ((status === 403 || status === 404) && !isRateLimited(error)) {
    return new InputError(
      `changed-since: last-purge: GitHub refused to ${what} in ${github.owner}/${github.repo} (${status}: ${messageOf(error)}); ${DEPLOYMENTS_PERMISSION}. Nothing was purged`
    )
  }
  const failure = apiError(error, github, what)
  if (status === 401) return failure
  // A proxy, a certificate or a sign-in page is fixed first: GitHub answering again would not help.
  const rerun = isInTheWay(error) ? '' : '; re-run the job once GitHub answers again'
  return new Error(
    `${failure.message}. Nothing was purged: the run needs the record to know what changed${rerun}`
  )
}
