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
  remove(): Promise<void>
}

export async function gitRepo(): Promise<GitRepo> {
  const dir = await mkdtemp(join(tmpdir(), 'edge-purge-git-'))
  const git = (...args: string[]): string =>
    execFileSync('git', args, { cwd: dir, env: GIT_ENV, encoding: 'utf8' }).trim()
  git('init', '--quiet', '--initial-branch', 'main')
  const write = async (path: string, content: string): Promise<void> => {
    await mkdir(dirname(join(dir, path)), { recursive: true })
    await writeFile(join(dir, path), content)
  }
  return {
    dir,
    git,
    write,
    async commit(files, message = 'change') {
      for (const [path, content] of Object.entries(files)) {
        if (content === null) git('rm', '--quiet', path)
        else await write(path, content)
      }
      git('add', '--all')
      git('commit', '--quiet', '--allow-empty', '--message', message)
      return git('rev-parse', 'HEAD')
    },
    remove: () => rm(dir, { recursive: true, force: true })
  }
}
