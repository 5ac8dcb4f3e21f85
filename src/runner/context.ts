/** The run context, read from the `GITHUB_*` variables the runner sets (no Octokit needed for it). */
import type { RunContext } from '../record/index.js'

const GITHUB_COM = 'https://github.com'

/** `undefined` outside a workflow run (local runs, tests without `GITHUB_REPOSITORY`). */
export function readRunContext(env: NodeJS.ProcessEnv = process.env): RunContext | undefined {
  const repository = env.GITHUB_REPOSITORY
  if (!repository) return undefined
  const runId = env.GITHUB_RUN_ID ?? ''
  return {
    repository,
    sha: env.GITHUB_SHA ?? '',
    event: env.GITHUB_EVENT_NAME ?? '',
    workflow: env.GITHUB_WORKFLOW ?? '',
    runNumber: Number.parseInt(env.GITHUB_RUN_NUMBER ?? '', 10),
    // A link to `runs/NaN` or to another run would mislead more than no link at all.
    runUrl: /^\d+$/.test(runId) ? `${serverUrlOf(env)}/${repository}/actions/runs/${runId}` : ''
  }
}

/**
 * GitHub's address (GitHub.com or a GitHub Enterprise Server). The summary and the purge marks link
 * to it, so only a web address is taken: a `javascript:` one would run in the reader's browser.
 */
function serverUrlOf(env: NodeJS.ProcessEnv): string {
  const given = env.GITHUB_SERVER_URL ?? ''
  const url = URL.canParse(given) ? new URL(given) : undefined
  // Rebuilt from its parts, so no user, query or fragment rides along into every link.
  if (url?.protocol === 'https:' || url?.protocol === 'http:') {
    return `${url.origin}${url.pathname}`.replace(/\/+$/, '')
  }
  // Not a web address, or not a URL at all: GitHub.com, as when the variable is unset.
  return GITHUB_COM
}
