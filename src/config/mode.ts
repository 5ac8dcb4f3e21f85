/** The `mode` input: which targets a run purges, and what it refuses beside them. Pure. */
import { InputError } from './input-error.js'

export const MODES = ['', 'keys', 'urls', 'all'] as const
export type Mode = (typeof MODES)[number]

/** What the other inputs give to purge. */
export interface GivenTargets {
  /** Keys listed, or a key-map that may derive some. */
  hasKeys: boolean
  /** URLs listed, or a url-map that may derive some. */
  hasUrls: boolean
  /** `changed-files: true`: targets derived from the files the run's commits changed. */
  changedFiles: boolean
}

/**
 * Refuses a mode the given targets or `soft` contradict, and a run with nothing to purge; that
 * refusal ends with `note`, which points at the inputs the action ignored, where a typo (`key`)
 * may have meant the targets.
 */
export function checkMode(mode: Mode, given: GivenTargets, soft: boolean, note: string): void {
  const { hasKeys, hasUrls } = given
  if (mode === 'all') {
    // Checked first: changed-files always brings a map, which the refusal of keys or URLs
    // below would blame instead of the input the user set.
    if (given.changedFiles) {
      throw new InputError(
        'changed-files: true derives keys and URLs, and mode: all refuses them; use one or the other'
      )
    }
    if (hasKeys || hasUrls) {
      throw new InputError(
        'mode: all purges the whole service and refuses keys or URLs beside it; remove keys/keys-file/urls/urls-file, or leave mode empty to purge only those'
      )
    }
    if (soft) {
      throw new InputError(
        'soft: true cannot be used with mode: all: the purge API has no soft purge-all; purge surrogate keys softly instead, or set soft: false'
      )
    }
    return
  }
  if (mode === 'keys' && hasUrls) {
    throw new InputError(
      'mode: keys refuses URLs; remove urls/urls-file (and url-map), or leave mode empty to purge both'
    )
  }
  if (mode === 'urls' && hasKeys) {
    throw new InputError(
      'mode: urls refuses keys; remove keys/keys-file (and key-map), or leave mode empty to purge both'
    )
  }
  const wanted = mode === 'keys' ? hasKeys : mode === 'urls' ? hasUrls : hasKeys || hasUrls
  if (!wanted) {
    const what =
      mode === 'keys'
        ? 'keys or keys-file'
        : mode === 'urls'
          ? 'urls or urls-file'
          : 'keys, keys-file, urls or urls-file'
    const all = mode === '' ? ', or set mode: all' : ''
    throw new InputError(`Nothing to purge: give ${what}${all}${note}`)
  }
}
