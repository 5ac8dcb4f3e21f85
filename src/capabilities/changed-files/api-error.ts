/** How any changed-files call to GitHub fails: one message naming what was attempted. */
import { answerOf, isRateLimited, statusOf, type GitHubRepository } from '../../github.js'
import { InputError } from '../../config/input-error.js'
import { messageOf } from '../../text/message.js'

/**
 * An API failure as a message naming what was attempted; a refused token is the user's to fix.
 * The GitHub client has already hidden the run's secrets in GitHub's words.
 */
export function apiError(error: unknown, github: GitHubRepository, what: string): Error {
  const status = statusOf(error)
  const reason = messageOf(error)
  const repository = `${github.owner}/${github.repo}`
  if (status === 401) {
    return new InputError(`github-token: GitHub rejected the token (401: ${reason})`)
  }
  if (status === 403 && !isRateLimited(error)) {
    return new InputError(
      `github-token: GitHub refused to ${what} in ${repository} (403: ${reason}); the token needs contents: read`
    )
  }
  return new Error(`GitHub API: could not ${what} in ${repository}: ${answerOf(error, reason)}`)
}
