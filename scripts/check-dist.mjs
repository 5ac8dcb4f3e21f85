// Fails when dist/ differs from a fresh bundle of src/: the runner executes dist/, not src/, and
// the command line dist/cli/.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** The bundles `npm run build` makes: each entry and the folder under dist/ it is built into. */
const BUNDLES = [
  ['src/index.ts', ''],
  ['src/cli/index.ts', 'cli']
]

/** Every file under `dir`, as a path relative to it. */
const filesUnder = (dir) =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1))
    .sort()

const fresh = mkdtempSync(join(tmpdir(), 'edge-purge-dist-'))
try {
  for (const [entry, folder] of BUNDLES) {
    execFileSync(
      'npx',
      ['ncc', 'build', entry, '-o', join(fresh, folder), '--license', 'licenses.txt', '--quiet'],
      { stdio: ['ignore', 'ignore', 'inherit'] }
    )
  }
  const committed = filesUnder('dist')
  const built = filesUnder(fresh)
  const names = [...new Set([...committed, ...built])].sort()
  const stale = names.filter((name) => {
    if (!committed.includes(name) || !built.includes(name)) return true
    return !readFileSync(join('dist', name)).equals(readFileSync(join(fresh, name)))
  })
  if (stale.length > 0) {
    console.error(
      `dist/ does not match src/: ${stale.join(', ')} differ. Run npm run build and commit dist/.`
    )
    // Not process.exit: the fresh bundle's directory is removed below either way.
    process.exitCode = 1
  } else {
    console.log(`dist/ matches a fresh build of src/ (${built.length} files).`)
  }
} finally {
  rmSync(fresh, { recursive: true, force: true })
}
