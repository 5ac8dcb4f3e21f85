/**
 * The `purge-ids` output, written as JSON in pieces and never held as one object: at 100,000
 * keys, an object with a property per key held a second, interned copy of every key, a property
 * table rebuilt as it grew and a 5 MB text, all at once.
 */
import type { PurgeResult, Results } from '../record.js'

/** Where URL purge ids go when ids are grouped by service: URL purges belong to no service. */
export const URL_IDS_GROUP = 'urls'

/**
 * `purge-ids` as JSON, in pieces of about `size` characters, each string passed through `hide`:
 * target → id, or with several services service → target → id, URL purges under `urls`. Byte for
 * byte what `JSON.stringify` gives for an object built by assigning each id in turn (a target
 * given twice keeps its first place and its last id), without the object.
 */
export function* purgeIdsJson(
  results: Results,
  perService: boolean,
  hide: (text: string) => string,
  size: number
): Generator<string> {
  const groups = idMaps(results, perService, hide)
  let piece = '{'
  let firstGroup = true
  for (const [service, ids] of inObjectOrder(groups)) {
    if (perService) piece += `${firstGroup ? '' : ','}${JSON.stringify(service)}:{`
    firstGroup = false
    let first = true
    for (const [target, id] of inObjectOrder(ids)) {
      piece += `${first ? '' : ','}${JSON.stringify(target)}:${JSON.stringify(id)}`
      first = false
      if (piece.length < size) continue
      yield piece
      piece = ''
    }
    if (perService) piece += '}'
  }
  yield `${piece}}`
}

/** Service (or '' when not grouped) → target → id, each in the order first given. */
function idMaps(
  results: Iterable<PurgeResult>,
  perService: boolean,
  hide: (text: string) => string
): Map<string, Map<string, string>> {
  const groups = new Map<string, Map<string, string>>()
  if (!perService) groups.set('', new Map())
  for (const result of results) {
    if (result.status !== 'purged' || result.id === null) continue
    const service = perService ? hide(result.service ?? URL_IDS_GROUP) : ''
    let ids = groups.get(service)
    if (ids === undefined) groups.set(service, (ids = new Map()))
    ids.set(hide(result.target), hide(result.id))
  }
  return groups
}

/**
 * A Map's entries in the order an object with the same properties lists them: array indices
 * ("0", "42", never "042" or "-1") first, ascending, then the other keys as first set.
 */
function inObjectOrder<V>(properties: Map<string, V>): Iterable<[string, V]> {
  const indices = [...properties.keys()].filter(isArrayIndex)
  if (indices.length === 0) return properties
  indices.sort((a, b) => Number(a) - Number(b))
  const others = [...properties].filter(([key]) => !isArrayIndex(key))
  return [...indices.map((key): [string, V] => [key, properties.get(key) as V]), ...others]
}

/** The largest array index is 2³² − 2; a longer or larger run of digits is an ordinary key. */
const MAX_ARRAY_INDEX = 2 ** 32 - 2

function isArrayIndex(key: string): boolean {
  return /^(?:0|[1-9]\d{0,9})$/.test(key) && Number(key) <= MAX_ARRAY_INDEX
}
