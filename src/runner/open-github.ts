/**
 * The run's repository as the runner describes it (its files and variables), through the Octokit
 * of `@actions/github`, imported on demand: it is most of the bundle, and only runs that read
 * GitHub need it.
 */
import { existsSync, readFileSync } from 'node:fs'
import type { OpenGitHub } from '../github.js'
import { InputError } from '../config/input-error.js'
import { connectGitHub, type MakeOctokit } from '../github-api/github-client.js'
import { readRunContext } from './context.js'

/** `@actions/github`'s Octokit: the runner's proxy settings, and its user agent. */
const actionsOctokit: MakeOctokit = async (token, baseUrl) => {
  const { getOctokit } = await import('@actions/github')
  return getOctokit(token, { baseUrl })
}

/**
 * How the run's repository is opened with `token`, which stays in the client: the repository from
 * GITHUB_REPOSITORY, GITHUB_EVENT_PATH and the other `GITHUB_*` variables.
 */
export const openGitHub =
  (token: string): OpenGitHub =>
  (limits) => {
    // changed-since: last-purge refuses an empty token with its inputs; only changed-files gets here.
    if (token === '') {
      return Promise.reject(
        new InputError(
          'github-token is required with changed-files: true (the default, github.token, is enough)'
        )
      )
    }
    const env = process.env
    const payload = readEventPayload(env.GITHUB_EVENT_PATH)
    const [owner = '', repo = ''] = repositoryOf(env.GITHUB_REPOSITORY, payload)
    const event = {
      eventName: env.GITHUB_EVENT_NAME ?? '',
      sha: env.GITHUB_SHA ?? '',
      payload,
      runId: env.GITHUB_RUN_ID ?? '',
      runUrl: readRunContext(env)?.runUrl ?? ''
    }
    const baseUrl = env.GITHUB_API_URL || 'https://api.github.com'
    return connectGitHub({ token, owner, repo, event, baseUrl }, limits, actionsOctokit)
  }

/** The event's JSON; empty when the runner gave none (a run outside a workflow). */
function readEventPayload(path: string | undefined): Record<string, unknown> {
  if (!path || !existsSync(path)) return {}
  return JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>
}

/** The repository's owner and name, as far as GITHUB_REPOSITORY gives them. */
function repositoryOf(variable: string | undefined, payload: Record<string, unknown>): string[] {
  if (variable) return variable.split('/')
  const repository = payload.repository as { owner?: { login?: string }; name?: string } | undefined
  if (repository?.owner?.login !== undefined && repository.name !== undefined) {
    return [repository.owner.login, repository.name]
  }
  throw new Error("changed-files needs a GITHUB_REPOSITORY environment variable like 'owner/repo'")
}
