/**
 * The command's repository reader, on real repositories made with the machine's git: which paths a
 * range changed, which commits a ref names, and the pipeline the variables describe.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openLocalGit } from '../../src/cli/local-git.js'
import { InputError } from '../../src/config/input-error.js'
import type { LocalGit } from '../../src/git.js'
import { gitlabPipeline, gitRepo, type GitRepo } from '../support/git-repo.js'
import { NO_SECRETS } from '../support/guard.js'

let repo: GitRepo
let cancel: AbortController
beforeEach(async () => {
  repo = await gitRepo()
  cancel = new AbortController()
})
afterEach(() => repo.remove())

const limits = () => ({ timeoutMs: 10_000, signal: cancel.signal, guard: NO_SECRETS })
const open = (dir = repo.dir, env: NodeJS.ProcessEnv = {}): Promise<LocalGit> =>
  openLocalGit(dir, env)(limits())

describe('the paths a range changed', () => {
  it('lists added, modified, removed and renamed files (both names), not uncommitted ones', async () => {
    const base = await repo.commit({
      'public/index.html': 'home',
      'public/old-name.css': 'body { color: red }\n'.repeat(20),
      'public/gone.js': 'gone',
      'public/same.txt': 'same'
    })
    repo.git('mv', 'public/old-name.css', 'public/new-name.css')
    const head = await repo.commit({
      'public/index.html': 'home, changed',
      'public/gone.js': null,
      'public/added.png': 'png'
    })
    await repo.write('public/same.txt', 'changed but not committed')
    await repo.write('public/untracked.html', 'never added')
    const git = await open()
    expect(await git.changedPaths(base, head)).toEqual([
      'public/added.png',
      'public/gone.js',
      'public/index.html',
      'public/new-name.css',
      'public/old-name.css'
    ])
  })

  it('keeps paths whole whatever they hold: spaces, quotes, non-ASCII', async () => {
    const base = await repo.commit({ 'readme.md': 'x' })
    const head = await repo.commit({ 'site/a b/"ü".html': 'x', 'site/tab\there.txt': 'x' })
    expect(await (await open()).changedPaths(base, head)).toEqual([
      'site/a b/"ü".html',
      'site/tab\there.txt'
    ])
  })

  it('lists paths from the top of the repository, whatever folder the command runs in', async () => {
    const base = await repo.commit({ 'public/docs/a.html': 'a' })
    const head = await repo.commit({ 'public/docs/a.html': 'b' })
    const git = await open(join(repo.dir, 'public', 'docs'))
    expect(await git.changedPaths(base, head)).toEqual(['public/docs/a.html'])
  })
})

describe('the commits refs name', () => {
  it('resolves branches, tags and short SHAs to full SHAs, and knows nothing else', async () => {
    const first = await repo.commit({ a: '1' })
    repo.git('tag', 'v1')
    const second = await repo.commit({ a: '2' })
    const git = await open()
    expect(await git.commitOf('v1')).toBe(first)
    expect(await git.commitOf('main')).toBe(second)
    expect(await git.commitOf(first.slice(0, 7))).toBe(first)
    expect(await git.commitOf('no-such-branch')).toBeUndefined()
    // A ref is never read as one of git's options.
    expect(await git.commitOf('--output=/dev/null')).toBeUndefined()
  })

  it('counts commits and tells an ancestor from a commit on another branch', async () => {
    const base = await repo.commit({ a: '1' })
    await repo.commit({ a: '2' })
    const head = await repo.commit({ a: '3' })
    repo.git('checkout', '--quiet', '-b', 'side', base)
    const side = await repo.commit({ b: '1' })
    const git = await open()
    expect(await git.commitsBetween(base, head)).toBe(2)
    expect(await git.isAncestor(base, head)).toBe(true)
    expect(await git.isAncestor(head, head)).toBe(true)
    expect(await git.isAncestor(side, head)).toBe(false)
  })

  it('says whether the clone is shallow', async () => {
    await repo.commit({ a: '1' })
    await repo.commit({ a: '2' })
    expect((await open(await repo.shallowClone())).shallow).toBe(true)
    expect((await open()).shallow).toBe(false)
  })
})

describe('where the command runs', () => {
  it('reads a GitLab pipeline from its variables, and none elsewhere', async () => {
    await repo.commit({ a: '1' })
    const gitlab = gitlabPipeline('push', 'b'.repeat(40), 'a'.repeat(40))
    expect((await open(repo.dir, gitlab)).pipeline).toEqual({
      system: 'GitLab',
      source: 'push',
      before: 'b'.repeat(40),
      after: 'a'.repeat(40)
    })
    expect((await open(repo.dir, { JENKINS_URL: 'https://ci.example' })).pipeline).toBeUndefined()
  })

  it('refuses a folder in no repository, naming it, as an input error', async () => {
    const outside = await mkdtemp(join(tmpdir(), 'edge-purge-no-repo-'))
    try {
      const opening = open(outside)
      await expect(opening).rejects.toThrow(InputError)
      await expect(opening).rejects.toThrow(`${outside} is in none`)
    } finally {
      await rm(outside, { recursive: true, force: true })
    }
  })

  it('ends a git call at the cancel', async () => {
    await repo.commit({ a: '1' })
    const git = await open()
    cancel.abort()
    await expect(git.commitOf('main')).rejects.toThrow(
      expect.objectContaining({ name: 'AbortError' })
    )
  })
})
