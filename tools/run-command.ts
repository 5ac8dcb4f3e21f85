/** Runs a command as a user's shell would and collects what it printed: the command line's tests. */
import { spawn, type ChildProcess } from 'node:child_process'

export interface CommandRun {
  code: number | null
  stdout: string
  stderr: string
}

export interface CommandOptions {
  /** The whole environment: nothing of the test's own is passed on. */
  env: Record<string, string>
  cwd: string
  /** Called once the command is started: e.g. to interrupt it. */
  onStart?: (child: ChildProcess) => void
}

export async function runCommand(
  file: string,
  args: string[],
  { env, cwd, onStart }: CommandOptions
): Promise<CommandRun> {
  const child = spawn(file, args, { cwd, env })
  onStart?.(child)
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject)
    child.on('close', resolve)
  })
  return { code, stdout, stderr }
}
