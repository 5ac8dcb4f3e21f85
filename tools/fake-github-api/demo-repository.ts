/**
 * The small site `npm run fake-github` serves, made to show changed-files and last-purge: a few
 * commits, a force-push that dropped one, a purge mark for it, and the push a run is started on.
 */
import type { FakeGitHubApi } from './server.js'

/** The service whose purge mark the history holds: the fake purge API's default. */
export const DEMO_SERVICE = 'svc123'

export interface DemoCommit {
  sha: string
  message: string
}

/** The repository's story, oldest first, and the push event a run is started on. */
export interface DemoRepository {
  /** On main: the site, then the two commits of the push. */
  root: DemoCommit
  about: DemoCommit
  post: DemoCommit
  /** Pushed on top of the root, purged completely, then dropped from main by a force-push. */
  draft: DemoCommit
  /** The push from `about` to `post`, as GITHUB_EVENT_PATH holds it. */
  event: { ref: string; before: string; after: string; forced: boolean }
}

/** Builds the demo's history in `api`; every SHA is the same from one start to the next. */
export function demoRepository(api: FakeGitHubApi): DemoRepository {
  const commit = (parent: string | null, paths: string[], message: string): DemoCommit => ({
    sha: api.commit(
      parent,
      paths.map((path) => ({ write: `public/${path}` })),
      message
    ),
    message
  })
  const root = commit(
    null,
    ['index.html', 'about.html', 'blog/index.html', 'blog/first.html', 'css/site.css'],
    'Add the site'
  )
  const draft = commit(root.sha, ['blog/draft.html', 'blog/index.html'], 'Post a draft')
  api.deploy(`edge-purge/${DEMO_SERVICE}`, draft.sha, ['in_progress', 'success'])
  const about = commit(root.sha, ['about.html'], 'Rewrite the about page')
  const post = commit(about.sha, ['blog/second.html', 'blog/index.html'], 'Post the second article')
  api.branch('main', post.sha)
  const event = { ref: 'refs/heads/main', before: about.sha, after: post.sha, forced: false }
  return { root, about, post, draft, event }
}
