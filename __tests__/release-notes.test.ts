/** Unit tests of tools/release-notes.ts: the notes release.yml publishes for a tag. */
import { describe, expect, it } from '@jest/globals'
import { releaseNotes } from '../tools/release-notes.js'

const CHANGELOG = `# Changelog

Intro.

## [Unreleased]

### Added
- Something not released yet.

## [1.1.0] - 2026-12-01

### Fixed
- A fix.

## [1.0.0] - 2026-11-30

The first release.

[Unreleased]: https://github.com/edge-purge/edge-purge/compare/v1.1.0...HEAD
[1.1.0]: https://github.com/edge-purge/edge-purge/compare/v1.0.0...v1.1.0
`

describe('releaseNotes', () => {
  it("gives the version's section, without its heading or the next one", () => {
    expect(releaseNotes(CHANGELOG, '1.1.0')).toBe('### Fixed\n- A fix.\n')
  })

  it('leaves out the link references that close the last section', () => {
    expect(releaseNotes(CHANGELOG, '1.0.0')).toBe('The first release.\n')
  })

  it('refuses a version the changelog has no section for, saying what to do', () => {
    expect(() => releaseNotes(CHANGELOG, '1.2.0')).toThrow(
      'CHANGELOG.md has no section "## [1.2.0] - YYYY-MM-DD": move the Unreleased entries under one before tagging v1.2.0'
    )
  })

  it('refuses an empty section', () => {
    const empty = CHANGELOG.replace('### Fixed\n- A fix.\n', '')
    expect(() => releaseNotes(empty, '1.1.0')).toThrow("CHANGELOG.md's section for 1.1.0 is empty")
  })
})
