/** The workflow run behind a purge, so the summary traces it to the deploy that caused it. */

export interface RunContext {
  repository: string
  sha: string
  event: string
  workflow: string
  runNumber: number
  runUrl: string
}

/**
 * `@actions/github` is imported here, on demand, because it pulls in Octokit: most of the bundle's
 * size, and none of it needed unless a summary is written. `undefined` outside a workflow run.
 */
export async function readRunContext(): Promise<RunContext | undefined> {
  if (!process.env.GITHUB_REPOSITORY) return undefined
  const { context } = await import('@actions/github')
  const { owner, repo } = context.repo
  return {
    repository: `${owner}/${repo}`,
    sha: orEmpty(context.sha),
    event: orEmpty(context.eventName),
    workflow: orEmpty(context.workflow),
    runNumber: context.runNumber,
    runUrl: `${context.serverUrl}/${owner}/${repo}/actions/runs/${context.runId}`
  }
}

/** Typed as strings, but unset when the action runs outside a real workflow (local runs, tests). */
function orEmpty(value: string | undefined): string {
  return value ?? ''
}
