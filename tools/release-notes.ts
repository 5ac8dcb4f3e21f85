/**
 * A release's notes: its section of CHANGELOG.md (`## [1.2.3] - 2026-12-01` up to the next
 * `## [`), as the release workflow publishes them. Refuses a version the changelog has no section
 * for, or an empty one: a release whose notes say nothing should not go out.
 */
const HEADING = /^## \[([^\]]+)\]/

export function releaseNotes(changelog: string, version: string): string {
  const lines = changelog.split('\n')
  const start = lines.findIndex((line) => HEADING.exec(line)?.[1] === version)
  if (start === -1) {
    throw new Error(
      `CHANGELOG.md has no section "## [${version}] - YYYY-MM-DD": move the Unreleased entries under one before tagging v${version}`
    )
  }
  const next = lines.findIndex((line, index) => index > start && HEADING.test(line))
  const body = lines
    .slice(start + 1, next === -1 ? undefined : next)
    .filter((line) => !/^\[[^\]]+\]: /.test(line))
    .join('\n')
    .trim()
  if (body === '') throw new Error(`CHANGELOG.md's section for ${version} is empty`)
  return `${body}\n`
}
