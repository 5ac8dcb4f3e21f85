/**
 * The repository of the working directory, read by running git: the command's changed files. The
 * git found on PATH is the one the user's own checkout and hooks use.
 */
import { execFile, type ExecFileException } from 'node:child_process'
import { InputError } from '../config/input-error.js'
import type { CiPipeline, GitLimits, OpenLocalGit } from '../git.js'
import { plainLine } from '../text/shown.js'

/** A diff of a whole monorepo fits: 100,000 paths of 300 characters are 30 MB. */
const MOST_OUTPUT_BYTES = 64 * 1024 * 1024

/** What one git command printed, and how it exited. */
interface GitAnswer {
  code: number
  stdout: string
  stderr: string
}

/** Opens the repository `cwd` is in, in the pipeline `env` describes. */
export const openLocalGit =
  (cwd: string, env: NodeJS.ProcessEnv): OpenLocalGit =>
  async (limits) => {
    const git = gitIn(cwd, limits)
    const opened = await git(['rev-parse', '--is-shallow-repository'])
    if (opened.code !== 0) {
      throw new InputError(
        `changed-files reads the git repository of the working directory, and ${cwd} is in none (git: ${firstLine(opened, limits)}): run the command in the site's checkout, or give keys or urls`
      )
    }
    const answered = async (args: string[], what: string): Promise<string> => {
      const answer = await git(args)
      if (answer.code !== 0) {
        throw new Error(`git could not ${what} in ${cwd}: ${firstLine(answer, limits)}`)
      }
      return answer.stdout
    }
    return {
      pipeline: ciPipelineOf(env),
      shallow: opened.stdout.trim() === 'true',
      async commitOf(ref) {
        const answer = await git([
          'rev-parse',
          '--verify',
          '--quiet',
          '--end-of-options',
          `${ref}^{commit}`
        ])
        return answer.code === 0 ? answer.stdout.trim() : undefined
      },
      async isAncestor(base, head) {
        const answer = await git(['merge-base', '--is-ancestor', base, head])
        if (answer.code > 1) {
          throw new Error(
            `git could not compare ${base} with ${head} in ${cwd}: ${firstLine(answer, limits)}`
          )
        }
        return answer.code === 0
      },
      async commitsBetween(base, head) {
        return Number(await answered(['rev-list', '--count', `${base}..${head}`], 'count commits'))
      },
      async changedPaths(base, head) {
        // -z: each path whole, not quoted, whatever characters it holds.
        const args = [
          'diff',
          '--name-status',
          '-M',
          '-z',
          '--no-color',
          '--no-ext-diff',
          base,
          head,
          '--'
        ]
        return pathsOf(await answered(args, 'list the files changed'))
      }
    }
  }

/** Runs git in `cwd` within the limits; a non-zero exit is an answer, anything else fails. */
function gitIn(cwd: string, { timeoutMs, signal }: GitLimits) {
  // No prompt for credentials, and English words, which the messages quote.
  const env = { ...process.env, GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' }
  return (args: string[]): Promise<GitAnswer> =>
    new Promise((resolve, reject) => {
      const options = { cwd, env, signal, timeout: timeoutMs, maxBuffer: MOST_OUTPUT_BYTES }
      execFile('git', args, options, (error, stdout, stderr) => {
        if (error === null) return resolve({ code: 0, stdout, stderr })
        if (typeof error.code === 'number' && !error.killed) {
          return resolve({ code: error.code, stdout, stderr })
        }
        reject(failureOf(error, args, timeoutMs))
      })
    })
}

/** Why git gave no answer: not installed, cancelled, too slow, or an answer too long. */
function failureOf(error: ExecFileException, args: string[], timeoutMs: number): Error {
  if (error.code === 'ENOENT') {
    return new InputError(
      'changed-files reads the git repository of the working directory, and git is not installed here (or not on PATH): install git, or give keys or urls'
    )
  }
  if (error.name === 'AbortError') return error
  const what = `git ${args[0] ?? ''}`
  if (error.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER') {
    return new Error(`${what} printed more than ${MOST_OUTPUT_BYTES / 1024 / 1024} MB`)
  }
  if (error.killed)
    return new Error(`${what} gave no answer within timeout (${timeoutMs / 1000} s)`)
  return new Error(`${what} ended without an answer (${error.signal ?? error.message})`)
}

function firstLine({ stderr, stdout }: GitAnswer, { guard }: GitLimits): string {
  const line = (stderr.trim() || stdout.trim()).split('\n')[0] ?? ''
  return plainLine(guard, line || 'no message')
}

/**
 * The paths of `--name-status -z` records: `M\0path\0`, `R100\0old\0new\0`. A rename counts under
 * both names, as the old URL is stale too (so does a copy, where git's configuration detects them).
 */
function pathsOf(output: string): string[] {
  const fields = output.split('\0')
  const paths = new Set<string>()
  for (let i = 0; i < fields.length - 1;) {
    const names = fields.slice(i + 1, i + (/^[RC]/.test(fields[i] ?? '') ? 3 : 2))
    for (const path of names) paths.add(path)
    i += 1 + names.length
  }
  return [...paths].sort()
}

/** The pipeline `env` describes: a GitLab pipeline, with its push's commits when it ran for one. */
function ciPipelineOf(env: NodeJS.ProcessEnv): CiPipeline | undefined {
  if (env.GITLAB_CI !== 'true') return undefined
  return {
    system: 'GitLab',
    source: env.CI_PIPELINE_SOURCE ?? '',
    before: env.CI_COMMIT_BEFORE_SHA ?? '',
    after: env.CI_COMMIT_SHA ?? ''
  }
}
