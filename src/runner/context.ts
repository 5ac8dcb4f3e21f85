/** The run context, read from the `GITHUB_*` variables the runner sets (no Octokit needed for it). */
import type { RunContext } from '../record.js'

/** `undefined` outside a workflow run (local runs, tests without `GITHUB_REPOSITORY`). */
export function readRunContext(env: NodeJS.ProcessEnv = process.env): RunContext | undefined {
  const repository = env.GITHUB_REPOSITORY
  if (!repository) return undefined
  const serverUrl = env.GITHUB_SERVER_URL ?? 'https://github.com'
  const runId = Number.parseInt(env.GITHUB_RUN_ID ?? '', 10)
  return {
    repository,
    sha: env.GITHUB_SHA ?? '',
    event: env.GITHUB_EVENT_NAME ?? '',
    workflow: env.GITHUB_WORKFLOW ?? '',
    runNumber: Number.parseInt(env.GITHUB_RUN_NUMBER ?? '', 10),
    runUrl: `${serverUrl}/${repository}/actions/runs/${runId}`
  }
}
