/**
 * npm run release-notes -- v1.2.3
 *
 * Prints the notes of release v1.2.3 (its CHANGELOG.md section) after checking that the tag is
 * package.json's version: what release.yml publishes, and what to read before pushing a tag.
 */
import { readFileSync } from 'node:fs'
import { releaseNotes } from '../tools/release-notes.js'

const tag = process.argv[2] ?? ''
const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }
try {
  if (!/^v\d+\.\d+\.\d+$/.test(tag))
    throw new Error(`give the release's tag, v1.2.3 (got "${tag}")`)
  if (tag !== `v${version}`) {
    throw new Error(`the tag ${tag} is not package.json's version ${version}: bump it first`)
  }
  process.stdout.write(releaseNotes(readFileSync('CHANGELOG.md', 'utf8'), version))
} catch (error) {
  console.error(`release-notes: ${error instanceof Error ? error.message : String(error)}`)
  process.exitCode = 1
}
