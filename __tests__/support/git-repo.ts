/**
 * A real git repository in a temporary folder, for the command's changed files: commits made with
 * the machine's git, whatever the user's own git configuration says.
 */
import { execFileSync } from 'node:child_process'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'

/** No global or system configuration (no signing, no hooks path), and a fixed author. */
const GIT_ENV = {
  ...process.env,
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.com'
}

export interface GitRepo {
  dir: string
  git(...args: string[]): string
  /** Writes files (path → content; `null` removes it), commits every change, returns the SHA. */
  commit(files: Record<string, string | null>, message?: string): Promise<string>
  write(path: string, content: string): Promise<void>
  /** A clone of the newest commit only, as CI systems clone by default; removed with the repo. */
  shallowClone(): Promise<string>
  /** Removes the repository and its clones. */
  remove(): Promise<void>
}

/** The variables of a GitLab pipeline started by `source`, its push from `before` to `after`. */
export const gitlabPipeline = (
  source: string,
  before: string,
  after: string
): Record<string, string> => ({
  GITLAB_CI: 'true',
  CI_PIPELINE_SOURCE: source,
  CI_COMMIT_BEFORE_SHA: before,
  CI_COMMIT_SHA: after
})

export async function gitRepo(): Promise<GitRepo> {
  const dir = await mkdtemp(join(tmpdir(), 'edge-purge-git-'))
  const git = (...args: string[]): string =>
    execFileSync('git', args, { cwd: dir, env: GIT_ENV, encoding: 'utf8' }).trim()
  git('init', '--quiet', '--initial-branch', 'main')
  const write = async (path: string, content: string): Promise<void> => {
    await mkdir(dirname(join(dir, path)), { recursive: true })
    await writeFile(join(dir, path), content)
  }
  const clones: string[] = []
  return {
    dir,
    git,
    write,
    async shallowClone() {
      const clone = await mkdtemp(join(tmpdir(), 'edge-purge-clone-'))
      clones.push(clone)
      git('clone', '--quiet', '--depth', '1', `file://${dir}`, clone)
      return clone
    },
    async commit(files, message = 'change') {
      for (const [path, content] of Object.entries(files)) {
        if (content === null) git('rm', '--quiet', path)
        else await write(path, content)
      }
      git('add', '--all')
      git('commit', '--quiet', '--allow-empty', '--message', message)
      return git('rev-parse', 'HEAD')
    },
    remove: async () => {
      for (const folder of [dir, ...clones]) await rm(folder, { recursive: true, force: true })
    }
  }
}
