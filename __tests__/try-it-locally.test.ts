/**
 * docs/try-it-locally.md, run as a newcomer follows it: every `sh` block in the page's order, the
 * fakes its first blocks start on free ports in place of 8787 and 8788, and `.env` and `github.env`
 * in a directory of the test's own; the `text` block under a command is found in what it printed.
 */
import { afterAll, describe, expect, it } from '@jest/globals'
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer, type AddressInfo } from 'node:net'
import { join } from 'node:path'
import { ROOT } from '../tools/run-like-runner.js'
import { childTmpdir } from './support/child-tmpdir.js'

const TMPDIR = childTmpdir()
const PAGE = readFileSync(join(ROOT, 'docs', 'try-it-locally.md'), 'utf8')

interface Step {
  command: string
  /** The output the page shows under it, if any. */
  shown: string | undefined
}

/** Each `sh` block, with the `text` block right after it. */
const steps: Step[] = []
for (const [, language, body = ''] of PAGE.matchAll(/^```(\w+)\n([\s\S]*?)^```$/gm)) {
  if (language === 'sh') steps.push({ command: body.trim(), shown: undefined })
  else if (language === 'text' && steps.at(-1)?.shown === undefined) {
    const last = steps.at(-1)
    if (last !== undefined) last.shown = body
  }
}

async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

const ports = { purge: 0, github: 0 }

/** The page's command as this test runs it: its ports, and its files in TMPDIR. */
function asRun(command: string): string {
  return command
    .replace(/\b8787\b/g, String(ports.purge))
    .replace(/\b8788\b/g, String(ports.github))
    .replace(/(?<=\s)(\.env|github\.env)(?=\s|$)/g, (name) => join(TMPDIR, name))
}

/**
 * `.env`, copied from .env.example, names the fake purge API at 127.0.0.1:8787: the test's runs
 * name it at its port, as scripts/check-local-action.sh does.
 */
function pointEnvFileAtTestPorts(): void {
  const path = join(TMPDIR, '.env')
  if (!existsSync(path)) return
  const text = readFileSync(path, 'utf8')
  writeFileSync(path, text.replaceAll('127.0.0.1:8787', `127.0.0.1:${ports.purge}`))
}

/**
 * Output as the page shows it: its ports, paths and timings as on the page (they differ from run
 * to run), and every run of white space one space (columns and line breaks follow a URL's length).
 */
function normalised(text: string): string {
  return text
    .replaceAll(`127.0.0.1:${ports.purge}`, '127.0.0.1:8787')
    .replaceAll(`127.0.0.1:${ports.github}`, '127.0.0.1:8788')
    .replace(/\S*\/edge-purge-fake-github-\w+\//g, '/tmp/edge-purge-fake-github-XXXXXX/')
    .replace(/\d+ ms\)/g, 'N ms)')
    .replace(/\s+/g, ' ')
    .trim()
}

/** The parts of `shown` (between `…` lines) that `printed` lacks, in order. */
function missing(shown: string, printed: string): string[] {
  const text = normalised(printed)
  let from = 0
  const lacking: string[] = []
  for (const part of shown.split(/^…$/m).map(normalised)) {
    const at = text.indexOf(part, from)
    if (at < 0) lacking.push(part)
    else from = at + part.length
  }
  return lacking
}

function shellEnv(): NodeJS.ProcessEnv {
  // jest's NODE_OPTIONS (--experimental-vm-modules) is not part of what a user's shell has.
  const env: NodeJS.ProcessEnv = { ...process.env, TMPDIR }
  delete env.NODE_OPTIONS
  return env
}

interface Started {
  child: ChildProcess
  pidFile: string
  output: () => string
  /** The server's own process, from its pid file: stopping bash or npm does not reach it. */
  pid?: number
}
const servers: Started[] = []

function start(command: string, index: number): Started {
  const pidFile = join(TMPDIR, `server-${index}.pid`)
  const child = spawn('bash', ['-c', `${asRun(command)} --pid-file ${pidFile}`], {
    cwd: ROOT,
    env: shellEnv()
  })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  return { child, pidFile, output: () => output }
}

/** Waits until the server prints what the page shows, up to 20 s; what it still lacks. */
async function untilShown(server: Started, shown: string): Promise<string[]> {
  const deadline = Date.now() + 20_000
  while (Date.now() < deadline) {
    if (missing(shown, server.output()).length === 0 && existsSync(server.pidFile)) {
      server.pid = Number(readFileSync(server.pidFile, 'utf8'))
      return []
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return missing(shown, server.output())
}

function run(command: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', asRun(command)], { cwd: ROOT, env: shellEnv() })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.on('close', (code) => resolve({ code, output }))
  })
}

afterAll(async () => {
  await Promise.all(
    servers.map(
      ({ child, pid }) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null) return resolve()
          child.on('close', () => resolve())
          if (pid !== undefined) process.kill(pid, 'SIGTERM')
          else child.kill()
        })
    )
  )
})

describe('docs/try-it-locally.md', () => {
  it('starts both fakes, then runs keys, URLs, changed files and last-purge twice', async () => {
    ports.purge = await freePort()
    ports.github = await freePort()
    expect(steps.map(({ command }) => command.split(/\s+/).slice(0, 3).join(' '))).toEqual([
      'npm run fake-server',
      'npm run fake-github',
      'cp .env.example .env',
      ...Array.from({ length: 5 }, () => 'npm run action')
    ])
  })

  steps.forEach(({ command, shown }, index) => {
    it(`${command.split('\n')[0]}`, async () => {
      if (command.startsWith('npm run fake-')) {
        const server = start(command, index)
        servers.push(server)
        expect(await untilShown(server, shown ?? '')).toEqual([])
        return
      }
      const { code, output } = await run(command)
      pointEnvFileAtTestPorts()
      expect(missing(shown ?? '', output)).toEqual([])
      const exited = /The action exited (\d+)/.exec(shown ?? '')?.[1]
      expect(code).toBe(exited === undefined ? 0 : Number(exited))
      // Each run's folder goes with it: a newcomer's hour of runs leaves none behind.
      expect(readdirSync(TMPDIR).filter((name) => name.startsWith('edge-purge-run-'))).toEqual([])
    }, 60_000)
  })
})
