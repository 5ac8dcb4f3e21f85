// Jest globalSetup: the runner-contract suites run dist/index.js, so dist/ is rebuilt from src/
// first; a change in src/ can never pass against a stale bundle. The build (about 10 s) is skipped
// when neither src/ and its build inputs nor dist/ changed since the last build made here.
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const STAMP = join(ROOT, 'node_modules', '.cache', 'edge-purge', 'dist-stamp.json')

function filesUnder(dir) {
  return readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort()
}

function digest(files) {
  const hash = createHash('sha256')
  for (const file of files) hash.update(file).update('\0').update(readFileSync(file))
  return hash.digest('hex')
}

const buildInputs = () =>
  digest([...filesUnder('src'), join(ROOT, 'package-lock.json'), join(ROOT, 'tsconfig.json')])
const bundle = () => digest(filesUnder('dist'))

function readStamp() {
  try {
    return JSON.parse(readFileSync(STAMP, 'utf8'))
  } catch {
    return {}
  }
}

export default function buildDist() {
  const stamp = readStamp()
  const inputs = buildInputs()
  if (stamp.inputs === inputs && stamp.bundle === bundle()) return
  process.stdout.write('\nBuilding dist/ from src/ for the runner-contract tests…\n')
  execFileSync('npm', ['run', '--silent', 'build', '--', '--quiet'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit']
  })
  mkdirSync(join(STAMP, '..'), { recursive: true })
  writeFileSync(STAMP, JSON.stringify({ inputs, bundle: bundle() }))
}
