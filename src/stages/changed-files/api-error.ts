/** How any changed-files call to GitHub fails: one message naming what was attempted. */
import { answerOf, isRateLimited, statusOf, type GitHubRepository } from '../../github.js'
import { InputError } from '../../config/input-error.js'
import { redact } from '../../text/guard.js'
import { messageOf } from '../../text/message.js'

/**
 * An API failure as a message naming what was attempted; a refused token is the user's to fix. A
 * server (or a proxy before it) can echo the token back: the guard hides it in every spelling.
 */
export function apiError(error: unknown, github: GitHubRepository, what: string): Error {
  const status = statusOf(error)
  const reason = redact(messageOf(error))
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
