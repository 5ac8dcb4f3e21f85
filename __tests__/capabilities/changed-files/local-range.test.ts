/**
 * The command's range, chosen and read in real repositories: `--changed-since` first, else a GitLab
 * push's own range; every range the head does not contain refused, saying what to pass instead.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { localChangedFiles } from '../../../src/capabilities/changed-files/local-range.js'
import { openLocalGit } from '../../../src/cli/local-git.js'
import { InputError } from '../../../src/config/input-error.js'
import { gitlabPipeline, gitRepo, type GitRepo } from '../../support/git-repo.js'
import { NO_SECRETS } from '../../support/guard.js'
import { recordedLog, type RecordedLog } from '../../support/recorded-log.js'

const ZERO = '0'.repeat(40)
const ADVICE =
  'Pass --changed-since with the commit, branch or tag the site was last deployed from, or purge everything with mode: all'

let repo: GitRepo
let log: RecordedLog
let base: string
let head: string
beforeEach(async () => {
  repo = await gitRepo()
  log = recordedLog()
  base = await repo.commit({ 'public/a.html': 'a', 'public/b.html': 'b' })
  repo.git('tag', 'v1')
  await repo.commit({ 'public/a.html': 'a2' })
  head = await repo.commit({ 'public/c.html': 'c' })
})
afterEach(() => repo.remove())

function rangeIn(dir: string, changedSince: string | undefined, env: NodeJS.ProcessEnv = {}) {
  const limits = { timeoutMs: 10_000, signal: new AbortController().signal }
  return localChangedFiles(openLocalGit(dir, env), changedSince, {
    ...limits,
    log,
    guard: NO_SECRETS
  })
}
const range = (changedSince: string | undefined, env?: NodeJS.ProcessEnv) =>
  rangeIn(repo.dir, changedSince, env)

describe('the range the command compares', () => {
  it('compares --changed-since with HEAD, as an input base', async () => {
    expect(await range('v1')).toEqual({
      files: ['public/a.html', 'public/c.html'],
      commits: 2,
      method: 'git',
      base: 'v1',
      baseSha: base,
      head,
      source: 'input',
      description: `changed-since v1...${head.slice(0, 7)} (2 commits)`,
      notes: []
    })
  })

  it("takes a GitLab push's own range: CI_COMMIT_BEFORE_SHA...CI_COMMIT_SHA", async () => {
    const middle = repo.git('rev-parse', 'HEAD~1')
    const compared = await range(undefined, gitlabPipeline('push', base, middle))
    expect(compared).toMatchObject({ files: ['public/a.html'], baseSha: base, head: middle })
    expect(compared.source).toBe('push')
    expect(compared.commits).toBe(1)
  })

  it('lets --changed-since win over the push', async () => {
    const compared = await range(head, gitlabPipeline('push', base, head))
    expect(compared).toMatchObject({ source: 'input', files: [], commits: 0 })
  })

  it('warns when the base is the head itself: nothing can be found to purge', async () => {
    await range('main')
    expect(log.lines).toEqual([
      expect.stringMatching(/^warning: changed-files: changed-since "main" is the same commit/)
    ])
  })
})

describe('a range that cannot be compared', () => {
  const refusal = async (changedSince: string | undefined, env?: NodeJS.ProcessEnv) => {
    const error = await range(changedSince, env).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(InputError)
    return (error as InputError).message
  }

  it('refuses the all-zero before of a new branch, with what to pass instead', async () => {
    expect(await refusal(undefined, gitlabPipeline('push', ZERO, head))).toBe(
      `changed-files: this push created its branch (CI_COMMIT_BEFORE_SHA is 0000000), so the branch has no earlier commit to compare against. ${ADVICE}`
    )
  })

  it('needs --changed-since in any other pipeline, and outside one', async () => {
    expect(await refusal(undefined, gitlabPipeline('merge_request_event', '', head))).toBe(
      `changed-since is required in a GitLab pipeline started by "merge_request_event": the commits to compare are found by themselves only in a GitLab push pipeline (CI_COMMIT_BEFORE_SHA...CI_COMMIT_SHA). ${ADVICE}`
    )
    expect(await refusal(undefined)).toMatch(
      /^changed-since is required outside a GitLab push pipeline: /
    )
  })

  it('refuses a base git does not know, and a base the head does not contain', async () => {
    expect(await refusal('v9')).toBe(
      `changed-since: "v9" is not a commit, branch or tag git knows in this repository. ${ADVICE}`
    )
    repo.git('checkout', '--quiet', '-b', 'side', base)
    const side = await repo.commit({ 'public/side.html': 's' })
    repo.git('checkout', '--quiet', 'main')
    expect(await refusal(side)).toBe(
      `changed-since: "${side}" is not an ancestor of ${head.slice(0, 7)}, so files changed only on its side would be missed. ${ADVICE}`
    )
  })

  it('says a shallow clone may not reach back to the base, and how to fetch more', async () => {
    const clone = await repo.shallowClone()
    const error = await rangeIn(clone, undefined, gitlabPipeline('push', base, head)).catch(
      (caught: unknown) => caught
    )
    expect(error).toBeInstanceOf(InputError)
    expect((error as Error).message).toBe(
      `changed-files: this push's before "${base.slice(0, 7)}" (CI_COMMIT_BEFORE_SHA) is not a commit, branch or tag git knows in this repository: the clone is shallow and may not reach back to it. Fetch more history (GitLab: GIT_DEPTH: 0; git fetch --unshallow), or pass --changed-since with the commit, branch or tag the site was last deployed from, or purge everything with mode: all`
    )
  })
})
