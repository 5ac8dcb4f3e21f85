/** The GitHub API, which the command does not reach yet: changed files and the last purge need it. */
import type { OpenGitHub } from '../github.js'
import { InputError } from '../config/input-error.js'

/** Refuses, before anything is sent, the inputs that need GitHub's API. */
export const noGitHub: OpenGitHub = () =>
  Promise.reject(
    new InputError(
      'changed-files and changed-since: last-purge need a repository to read, which this command does not reach yet: give keys or urls'
    )
  )
