/**
 * The GitHub API from outside GitHub Actions, which only `changed-since: last-purge` reads: the
 * command reaches it when the variables say where (as the runner's would) and a token is given.
 */
import { InputError } from '../config/input-error.js'
import type { OpenGitHub } from '../github.js'
import type { GitLimits, OpenLocalGit } from '../git.js'
import { connectGitHub } from '../github-api/github-client.js'

const NEEDS_GITHUB =
  "changed-since: last-purge keeps its record as GitHub deployments, through GitHub's API: outside GitHub Actions, give GITHUB_API_URL (https://api.github.com for GitHub.com), GITHUB_REPOSITORY (owner/repo) and a GitHub token (EDGE_PURGE_GITHUB_TOKEN or --github-token-file) that may write deployments, or pass --changed-since with the commit the site was last deployed from"

/**
 * Opens the repository GITHUB_REPOSITORY names at GITHUB_API_URL with `token`. The commit deployed
 * is GITHUB_SHA, else GitLab's CI_COMMIT_SHA, else the working directory's HEAD; a purge mark links
 * to the CI job that wrote it, when the CI names one.
 */
export const openGitHubOutside =
  (token: string, env: NodeJS.ProcessEnv, localGit: OpenLocalGit): OpenGitHub =>
  async (limits) => {
    const baseUrl = env.GITHUB_API_URL ?? ''
    const [owner = '', repo = '', ...more] = (env.GITHUB_REPOSITORY ?? '').split('/')
    if (!URL.canParse(baseUrl) || owner === '' || repo === '' || more.length > 0 || token === '') {
      throw new InputError(NEEDS_GITHUB)
    }
    const sha = env.GITHUB_SHA || env.CI_COMMIT_SHA || (await headOf(localGit, limits))
    if (!sha) {
      throw new InputError(
        "changed-since: last-purge names the commit deployed in its record: set GITHUB_SHA to it, or run the command in the site's git checkout"
      )
    }
    const event = { eventName: '', sha, payload: {}, runId: '', runUrl: jobUrlOf(env) }
    return connectGitHub({ token, owner, repo, event, baseUrl }, limits)
  }

/** The working directory's HEAD; `undefined` outside a repository, or where git is not installed. */
async function headOf(localGit: OpenLocalGit, limits: GitLimits): Promise<string | undefined> {
  try {
    return await (await localGit(limits)).commitOf('HEAD')
  } catch (error) {
    if (error instanceof InputError) return undefined
    throw error
  }
}

/** The CI job's page (GitLab's CI_JOB_URL, Jenkins' BUILD_URL): only a web address is linked to. */
function jobUrlOf(env: NodeJS.ProcessEnv): string {
  const given = env.CI_JOB_URL || env.BUILD_URL || ''
  const url = URL.canParse(given) ? new URL(given) : undefined
  return url?.protocol === 'https:' || url?.protocol === 'http:' ? url.href : ''
}
