// Fails when dist/ differs from a fresh bundle of src/: the runner executes dist/, not src/.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const fresh = mkdtempSync(join(tmpdir(), 'edge-purge-dist-'))
try {
  execFileSync(
    'npx',
    ['ncc', 'build', 'src/index.ts', '-o', fresh, '--license', 'licenses.txt', '--quiet'],
    {
      stdio: ['ignore', 'ignore', 'inherit']
    }
  )
  const committed = readdirSync('dist').sort()
  const built = readdirSync(fresh).sort()
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
