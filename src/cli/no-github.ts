/** The GitHub API, which the command does not reach yet: only `changed-since: last-purge` needs it. */
import type { OpenGitHub } from '../github.js'
import { InputError } from '../config/input-error.js'

/** Refuses, before anything is sent, the purge marks the command cannot read or write. */
export const noGitHub: OpenGitHub = () =>
  Promise.reject(
    new InputError(
      "changed-since: last-purge keeps its record as GitHub deployments, through GitHub's API, which the command does not reach yet (it would need GITHUB_API_URL, GITHUB_REPOSITORY and a GitHub token): run it in GitHub Actions with the action, or pass --changed-since with the commit the site was last deployed from"
    )
  )
