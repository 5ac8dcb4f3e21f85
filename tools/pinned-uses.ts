/**
 * Whether a workflow pins every action it uses to a full commit SHA, the version named in a
 * comment beside it (`uses: actions/checkout@<40 hex> # v7.0.1`). A tag or a branch can be moved
 * to other code after review; a commit cannot. `npm run validate` applies it to
 * `.github/workflows/`; the examples in `docs/examples/` keep readable tags on purpose.
 */
import { isScalar, parseDocument, visit, type Pair, type Scalar } from 'yaml'

const PINNED = /^[\w.-]+\/[\w.-]+(?:\/[^@\s]+)?@[0-9a-f]{40}$/
const VERSION_COMMENT = /^\s*v\d+(?:\.\d+){0,2}\s*$/

/** One `uses:` that breaks the rule: where it is, and why. */
export interface UnpinnedUse {
  line: number
  uses: string
  reason: string
}

/**
 * Every `uses:` of the workflow's text that is not pinned (local actions, `./…`, aside), read with
 * a YAML parser so that quoting or flow style cannot hide one.
 */
export function unpinnedUses(text: string): UnpinnedUse[] {
  const document = parseDocument(text)
  const lineOf = (offset: number): number => text.slice(0, offset).split('\n').length
  const found: UnpinnedUse[] = []
  visit(document, {
    Pair(_key, pair: Pair<unknown, unknown>) {
      if (!isScalar(pair.key) || pair.key.value !== 'uses' || !isScalar(pair.value)) return
      const value = pair.value as Scalar
      const uses = String(value.value)
      if (uses.startsWith('./')) return
      const line = lineOf(value.range?.[0] ?? 0)
      const reason = problemOf(uses, value.comment)
      if (reason !== undefined) found.push({ line, uses, reason })
    }
  })
  return found
}

function problemOf(uses: string, comment: string | undefined | null): string | undefined {
  if (uses.startsWith('docker://')) {
    return /@sha256:[0-9a-f]{64}$/.test(uses) ? undefined : 'a Docker image not pinned by digest'
  }
  if (!PINNED.test(uses)) return 'not pinned to a full 40-character commit SHA'
  if (comment === undefined || comment === null || !VERSION_COMMENT.test(comment)) {
    return 'no version comment after the SHA (`# v1.2.3`): a reader cannot tell which release it is'
  }
  return undefined
}
