/** The GitHub API, which the command does not reach: only `changed-since: last-purge` needs it. */
import type { OpenGitHub } from '../github.js'
import { InputError } from '../config/input-error.js'

/** Refuses, before anything is sent, the purge marks the command cannot read or write. */
export const noGitHub: OpenGitHub = () =>
  Promise.reject(
    new InputError(
      'changed-since: last-purge reads and writes purge marks through the GitHub API, which the command reaches only with GITHUB_API_URL, GITHUB_REPOSITORY and a GitHub token (EDGE_PURGE_GITHUB_TOKEN or --github-token-file): give them, or pass --changed-since with the commit the site was last deployed from'
    )
  )
