/**
 * The GitHub API through Octokit, and the run's event from the runner's files and variables.
 * `@actions/github` is imported on demand: it is most of the bundle, and only `changed-files` runs
 * need it.
 */
import { existsSync, readFileSync } from 'node:fs'
import type { GitHubRepository, OpenGitHub, RunEvent } from '../github.js'

/** Commits per comparison page, and files per commit page: the most GitHub returns. */
const COMMITS_PER_PAGE = 100
const FILES_PER_PAGE = 300

/** Where the repository lives and which event started the run, as the runner says. */
export interface RunnerRepository {
  token: string
  owner: string
  repo: string
  event: RunEvent
  /** GITHUB_API_URL: GitHub Enterprise, or a fake in tests. */
  baseUrl: string
}

/** The run's repository, from GITHUB_REPOSITORY, GITHUB_EVENT_PATH and the other `GITHUB_*` variables. */
export const openGitHub: OpenGitHub = (token) => {
  const env = process.env
  const payload = readEventPayload(env.GITHUB_EVENT_PATH)
  const [owner = '', repo = ''] = repositoryOf(env.GITHUB_REPOSITORY, payload)
  return connectGitHub({
    token,
    owner,
    repo,
    event: { eventName: env.GITHUB_EVENT_NAME ?? '', sha: env.GITHUB_SHA ?? '', payload },
    baseUrl: env.GITHUB_API_URL || 'https://api.github.com'
  })
}

/** The event's JSON; empty when the runner gave none (a run outside a workflow). */
function readEventPayload(path: string | undefined): Record<string, unknown> {
  if (!path || !existsSync(path)) return {}
  return JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>
}

function repositoryOf(
  variable: string | undefined,
  payload: Record<string, unknown>
): [string, string] {
  if (variable) {
    const [owner = '', repo = ''] = variable.split('/')
    return [owner, repo]
  }
  const repository = payload.repository as { owner?: { login?: string }; name?: string } | undefined
  if (repository?.owner?.login !== undefined && repository.name !== undefined) {
    return [repository.owner.login, repository.name]
  }
  throw new Error("changed-files needs a GITHUB_REPOSITORY environment variable like 'owner/repo'")
}

/** Requests `Link` names a next page. */
function hasNextPage(link: string | undefined): boolean {
  return /<[^<>]+>;\s*rel="next"/.test(link ?? '')
}

export async function connectGitHub(where: RunnerRepository): Promise<GitHubRepository> {
  const { getOctokit } = await import('@actions/github')
  const octokit = getOctokit(where.token, { baseUrl: where.baseUrl })
  const { owner, repo } = where
  return {
    owner,
    repo,
    event: where.event,
    compare: async (base, head, page) => {
      const { data, headers } = await octokit.request(
        'GET /repos/{owner}/{repo}/compare/{basehead}',
        { owner, repo, basehead: `${base}...${head}`, per_page: COMMITS_PER_PAGE, page }
      )
      return {
        status: data.status,
        totalCommits: data.total_commits,
        commits: data.commits.map((commit) => commit.sha),
        files: data.files,
        hasNextPage: hasNextPage(headers.link)
      }
    },
    commitFiles: async (sha, page) => {
      const { data, headers } = await octokit.request('GET /repos/{owner}/{repo}/commits/{ref}', {
        owner,
        repo,
        ref: sha,
        per_page: FILES_PER_PAGE,
        page
      })
      return { files: data.files ?? [], hasNextPage: hasNextPage(headers.link) }
    },
    releases: () =>
      octokit.paginate('GET /repos/{owner}/{repo}/releases', { owner, repo, per_page: 100 })
  }
}
