/** Unit tests of tools/pinned-uses.ts: what `npm run validate` refuses in `.github/workflows/`. */
import { describe, expect, it } from '@jest/globals'
import { unpinnedUses } from '../tools/pinned-uses.js'

const SHA = '3d3c42e5aac5ba805825da76410c181273ba90b1'

const workflow = (...steps: string[]): string =>
  ['jobs:', '  test:', '    runs-on: ubuntu-latest', '    steps:', ...steps].join('\n') + '\n'

describe('unpinnedUses', () => {
  it('accepts an action pinned to a full commit SHA with its version in a comment, and local actions', () => {
    const text = workflow(
      `      - uses: actions/checkout@${SHA} # v7.0.1`,
      `      - uses: github/codeql-action/init@${SHA} # v4.36.2`,
      '      - uses: ./'
    )
    expect(unpinnedUses(text)).toEqual([])
  })

  it('refuses a tag, a branch or a short SHA, naming the line', () => {
    const text = workflow(
      '      - uses: actions/checkout@v5',
      '      - uses: actions/setup-node@main',
      `      - uses: actions/upload-artifact@${SHA.slice(0, 7)} # v7.0.0`
    )
    expect(unpinnedUses(text).map(({ line, uses }) => [line, uses])).toEqual([
      [5, 'actions/checkout@v5'],
      [6, 'actions/setup-node@main'],
      [7, `actions/upload-artifact@${SHA.slice(0, 7)}`]
    ])
  })

  it('refuses a SHA without the version comment a reviewer reads', () => {
    const [found] = unpinnedUses(workflow(`      - uses: actions/checkout@${SHA}`))
    expect(found?.reason).toMatch(/version comment/)
  })

  it('finds uses written quoted, in flow style, or as a reusable workflow of a job', () => {
    const text = [
      'jobs:',
      '  a:',
      '    runs-on: ubuntu-latest',
      '    steps:',
      '      - uses: "actions/checkout@v5"',
      '      - { uses: actions/setup-node@v7, with: { node-version: 24 } }',
      '  b:',
      '    uses: octo/workflows/.github/workflows/release.yml@main'
    ].join('\n')
    expect(unpinnedUses(text).map(({ uses }) => uses)).toEqual([
      'actions/checkout@v5',
      'actions/setup-node@v7',
      'octo/workflows/.github/workflows/release.yml@main'
    ])
  })

  it('asks a Docker image for its digest', () => {
    const digest = `docker://alpine@sha256:${'a'.repeat(64)}`
    const text = workflow('      - uses: docker://alpine:3', `      - uses: ${digest}`)
    expect(unpinnedUses(text).map(({ uses }) => uses)).toEqual(['docker://alpine:3'])
  })
})
