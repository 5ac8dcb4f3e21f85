/**
 * The GitHub API through Octokit: the calls the stages make, each within the run's bounds. Each
 * door makes its Octokit (the runner's through `@actions/github`, the command's from
 * `@octokit/core`); both load only when a run reads GitHub.
 */
import type { Octokit } from '@octokit/core'
import type { GitHubLimits, GitHubRepository, RunEvent } from '../github.js'
import { GitHubCalls } from './github-calls.js'
import { failureOf, jsonAnswer } from './github-failure.js'

/** Commits on the comparison's first page, which lists the files: its commits are not read. */
const COMMITS_PER_PAGE = 100
/** Deployments and releases per page: the most GitHub returns. */
const LIST_PER_PAGE = 100

/** Where the repository lives and which event started the run, as the door says. */
export interface RunnerRepository {
  token: string
  owner: string
  repo: string
  event: RunEvent
  /** GITHUB_API_URL: GitHub Enterprise, or a fake in tests. */
  baseUrl: string
}

/** How a door makes its Octokit for `token` at `baseUrl`. */
export type MakeOctokit = (token: string, baseUrl: string) => Promise<Octokit>

/**
 * Octokit's core alone, all the calls below need, through the proxy the environment names
 * (`https_proxy`, `no_proxy`) as every purge call goes: Node's own fetch would ignore it.
 */
export const plainOctokit: MakeOctokit = async (token, baseUrl) => {
  const [{ Octokit }, { HttpClient }, { fetch }] = await Promise.all([
    import('@octokit/core'),
    import('@actions/http-client'),
    import('undici')
  ])
  const dispatcher = new HttpClient().getAgentDispatcher(baseUrl)
  const proxied = (url: string, init: Parameters<typeof fetch>[1]) =>
    fetch(url, { ...init, dispatcher })
  const request = dispatcher === undefined ? {} : { fetch: proxied }
  return new Octokit({ auth: token, baseUrl, request })
}

/** The page number of the `rel="next"` link of a `Link` header; `undefined` on the last page. */
function nextPageOf(link: string | number | undefined): number | undefined {
  const next = /<([^<>]+)>;\s*rel="next"/.exec(String(link ?? ''))?.[1]
  if (next === undefined) return undefined
  const page = URL.canParse(next) ? new URL(next).searchParams.get('page') : null
  return page !== null && /^\d{1,9}$/.test(page) ? Number(page) : undefined
}

export async function connectGitHub(
  where: RunnerRepository,
  limits: GitHubLimits,
  makeOctokit: MakeOctokit = plainOctokit
): Promise<GitHubRepository> {
  const octokit = await makeOctokit(where.token, where.baseUrl)
  // A run opens one client: its count is the run's.
  const calls = new GitHubCalls(limits, Math.random)
  const api = URL.canParse(where.baseUrl) ? new URL(where.baseUrl) : undefined
  octokit.hook.wrap('request', (request, options) =>
    calls.send(
      `${options.method} ${options.url}`,
      // On the options the hooks share: a copy handed on would be dropped by the token hook's merge.
      async (signal) => {
        options.request = { ...options.request, signal }
        return jsonAnswer(await request(options), limits.guard)
      },
      (error) => failureOf(error, api, limits.guard)
    )
  )
  const { owner, repo } = where
  return {
    owner,
    repo,
    event: where.event,
    ...historyReads(octokit, { owner, repo }),
    ...deploymentCalls(octokit, { owner, repo })
  }
}

type Repo = Pick<RunnerRepository, 'owner' | 'repo'>

/** The repository's comparisons, trees and releases: what changed files are read from. */
function historyReads(
  octokit: Octokit,
  repo: Repo
): Pick<GitHubRepository, 'compare' | 'releases' | 'tree'> {
  return {
    compare: async (base, head) => {
      const { data } = await octokit.request('GET /repos/{owner}/{repo}/compare/{basehead}', {
        ...repo,
        basehead: `${base}...${head}`,
        per_page: COMMITS_PER_PAGE,
        page: 1
      })
      return {
        status: data.status,
        totalCommits: data.total_commits,
        baseSha: data.base_commit.sha,
        files: data.files
      }
    },
    releases: async (page) => {
      const { data, headers } = await octokit.request('GET /repos/{owner}/{repo}/releases', {
        ...repo,
        per_page: LIST_PER_PAGE,
        page
      })
      return { items: data, nextPage: nextPageOf(headers.link) }
    },
    tree: async (sha) => {
      const { data } = await octokit.request('GET /repos/{owner}/{repo}/git/trees/{tree_sha}', {
        ...repo,
        tree_sha: sha,
        recursive: '1'
      })
      const entries = data.tree
        .filter((entry) => entry.type !== 'tree' && entry.path !== undefined)
        .map((entry) => ({ path: entry.path ?? '', sha: entry.sha ?? '' }))
      return { entries, truncated: data.truncated }
    }
  }
}

/** The deployments that mark each service's purges: listed, read, created and given a state. */
function deploymentCalls(
  octokit: Octokit,
  repo: Repo
): Pick<
  GitHubRepository,
  'deployments' | 'latestDeploymentState' | 'createDeployment' | 'setDeploymentState'
> {
  return {
    deployments: async (environment, page) => {
      const { data, headers } = await octokit.request('GET /repos/{owner}/{repo}/deployments', {
        ...repo,
        environment,
        per_page: LIST_PER_PAGE,
        page
      })
      const items = data.map(({ id, sha, payload }) => ({ id: Number(id), sha, payload }))
      return { items, nextPage: nextPageOf(headers.link) }
    },
    latestDeploymentState: async (id) => {
      const { data } = await octokit.request(
        'GET /repos/{owner}/{repo}/deployments/{deployment_id}/statuses',
        { ...repo, deployment_id: id, per_page: 1 }
      )
      return data[0]?.state
    },
    createDeployment: async (deployment) => {
      const { data } = await octokit.request('POST /repos/{owner}/{repo}/deployments', {
        ...repo,
        ref: deployment.sha,
        task: deployment.task,
        environment: deployment.environment,
        description: deployment.description,
        payload: deployment.payload,
        auto_merge: false,
        required_contexts: [],
        transient_environment: false,
        production_environment: false
      })
      // 202 answers a merge GitHub would make first; auto_merge is off, so only 201 carries an id.
      if (!('id' in data)) throw new Error(`GitHub created no deployment: ${data.message ?? ''}`)
      return Number(data.id)
    },
    setDeploymentState: async (id, state, { description, logUrl }) => {
      await octokit.request('POST /repos/{owner}/{repo}/deployments/{deployment_id}/statuses', {
        ...repo,
        deployment_id: id,
        state,
        description,
        ...(logUrl === '' ? {} : { log_url: logUrl })
      })
    }
  }
}
