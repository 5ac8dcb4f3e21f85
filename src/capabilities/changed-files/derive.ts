/** The URLs and surrogate keys the changed files make stale, by url-map and key-map. Pure. */
import type { KeyMapping, UrlMapping } from '../../config/maps.js'
import type { DerivedTarget } from './record.js'

const INDEX_FILE = 'index.html'

/**
 * The URLs and keys the changed files make stale, in the order of `files`, each target once (with
 * the first file that caused it). Every url-map line applies to every file under its prefix, so a
 * site served from two hosts is purged on both.
 */
export function deriveTargets(
  files: string[],
  urlMap: UrlMapping[],
  keyMap: KeyMapping[]
): DerivedTarget[] {
  // Keyed by `type target`: a Map keeps the first file that caused each, in the order of `files`.
  const targets = new Map<string, DerivedTarget>()
  const add = (type: DerivedTarget['type'], target: string, file: string): void => {
    const id = `${type} ${target}`
    if (!targets.has(id)) targets.set(id, { type, target, file })
  }
  for (const file of files) {
    for (const { pathPrefix, urlPrefix } of urlMap) {
      if (!file.startsWith(pathPrefix) || file.length === pathPrefix.length) continue
      const rest = encodePath(file.slice(pathPrefix.length))
      // A directory URL serves its index.html, and is cached apart from it.
      if (rest === INDEX_FILE || rest.endsWith(`/${INDEX_FILE}`)) {
        add('url', urlPrefix + rest.slice(0, -INDEX_FILE.length), file)
      }
      add('url', urlPrefix + rest, file)
    }
    for (const { key, matches } of keyMap) if (matches(file)) add('key', key, file)
  }
  return [...targets.values()]
}

/**
 * Percent-encodes each segment of a repository path as a URL path (RFC 3986 `pchar`), keeping `/`:
 * `a b#1.html` → `a%20b%231.html`. Sub-delimiters, `:` and `@` stay as browsers request them.
 */
function encodePath(path: string): string {
  return path
    .split('/')
    .map((segment) =>
      encodeURIComponent(segment).replace(/%(24|26|2B|2C|3B|3D|3A|40)/g, (escape) =>
        decodeURIComponent(escape)
      )
    )
    .join('/')
}
