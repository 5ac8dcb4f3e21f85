import type { Derivation, DerivedTarget } from '../../src/capabilities/changed-files/record.js'
/** A changed-files derivation as the GitHub comparison would give it, for tests of how it is shown. */

/** The targets' files changed in one push; `unmatched` files changed too but gave no target. */
export function derivationOf(
  targets: DerivedTarget[],
  { description = 'push abc1234...def5678', unmatched = [] as string[] } = {}
): Derivation {
  return {
    report: {
      files: [...new Set(targets.map(({ file }) => file)), ...unmatched],
      ranges: [
        {
          files: [],
          commits: 1,
          method: 'compare',
          base: 'abc1234',
          baseSha: 'abc1234',
          head: 'def5678',
          source: 'push',
          description,
          notes: []
        }
      ],
      description,
      notes: []
    },
    targets,
    sources: new Map()
  }
}
