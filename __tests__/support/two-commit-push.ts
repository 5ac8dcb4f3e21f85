/** A site with a few pages, then a push of two commits on top of it: what the runs on a push share. */
import type { FakeGitHubApi } from '../../tools/fake-github-api/server.js'

/**
 * On `github`: pages and a post, then a push that changes a page, adds a post, renames a page and
 * adds a README no map turns into a target.
 */
export function twoCommitPush(github: FakeGitHubApi): { before: string; after: string } {
  const before = github.commit(null, [
    { write: 'public/docs/index.html' },
    { write: 'public/old.html' },
    { write: 'public/untouched.html' },
    { write: 'content/blog/first.md' }
  ])
  const first = github.commit(before, [{ write: 'public/docs/index.html' }])
  const after = github.commit(first, [
    { write: 'content/blog/second.md' },
    { rename: 'public/old.html', to: 'public/new.html' },
    { write: 'README.md' }
  ])
  return { before, after }
}
