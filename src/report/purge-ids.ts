/**
 * The `purge-ids` output, written as JSON in pieces and never held as one object: at 100,000
 * keys, an object with a property per key held a second, interned copy of every key, a property
 * table rebuilt as it grew and a 5 MB text, all at once.
 */
import type { Settings } from '../config/settings.js'
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
): Generator<string, void> {
  const groupOf = (result: PurgeResult): string =>
    perService ? hide(result.service ?? URL_IDS_GROUP) : ''
  const groups = idGroups(results, groupOf, hide)
  let piece = '{'
  let firstGroup = true
  for (const [name, group] of inObjectOrder(groups)) {
    if (perService) piece += `${firstGroup ? '' : ','}${JSON.stringify(name)}:{`
    firstGroup = false
    let first = true
    for (const [target, id] of groupIds(name, group, results, groupOf, hide)) {
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

/**
 * `purge-ids` in one reading, for the usual run, from each call's results as they come: each
 * object's targets come once, none is named like an array index, and each service's results come
 * together, so every id goes where its result comes. Returns `false` at the first result that
 * breaks this, having yielded only part of the text: the caller then starts again with
 * `purgeIdsJson`, which places such ids as an object would. Whether a target comes twice is only
 * looked for when `mayRepeat` (see `targetMayRepeat`). Strings pass unchanged: a text that holds
 * a secret is built again with `purgeIdsJson`.
 */
export async function* plainPurgeIdsJson(
  calls: AsyncIterable<Results> | Iterable<Results>,
  perService: boolean,
  mayRepeat: boolean,
  size: number
): AsyncGenerator<string, boolean> {
  const targets = new Set<string>()
  const groups = new Set<string>()
  let piece = '{'
  let group: string | undefined
  let first = true
  for await (const results of calls) {
    for (const result of results) {
      if (result.status !== 'purged' || result.id === null) continue
      const target = result.target
      if (perService) {
        const name = result.service ?? URL_IDS_GROUP
        if (name !== group) {
          if (groups.has(name) || mayBeArrayIndex(name)) return false
          piece += `${group === undefined ? '' : '},'}${JSON.stringify(name)}:{`
          groups.add(name)
          targets.clear()
          group = name
          first = true
        }
      }
      if (mayBeArrayIndex(target)) return false
      if (mayRepeat) {
        if (targets.has(target)) return false
        targets.add(target)
      }
      piece += `${first ? '' : ','}${JSON.stringify(target)}:${JSON.stringify(result.id)}`
      first = false
      if (piece.length < size) continue
      yield piece
      piece = ''
    }
    // Not held while the next call's results are awaited (held, it outlived young collections).
    if (piece === '') continue
    yield piece
    piece = ''
  }
  yield `${piece}${group === undefined ? '' : '}'}}`
  return true
}

/**
 * Whether a target may come twice in one object of `purge-ids`. Settings that list each key and
 * URL once leave one way: a key spelled like a URL, in an object that holds both (the only one,
 * or a service named like the URLs' group). The check needs a set of the URLs only, never of
 * 100,000 keys (which cost 4.6 MB while the calls were out).
 */
export function targetMayRepeat(settings: Settings, perService: boolean): boolean {
  if (!settings.eachTargetOnce) return true
  const shared = !perService || settings.services.some((service) => service.id === URL_IDS_GROUP)
  if (!shared || settings.keys.length === 0 || settings.urls.length === 0) return false
  const urls = new Set(settings.urls.map((url) => url.target))
  return settings.keys.some((key) => urls.has(key))
}

/** A cheap first test, run once per id: most targets do not start with a digit. */
function mayBeArrayIndex(key: string): boolean {
  const first = key.charCodeAt(0)
  return first >= 48 && first <= 57 && isArrayIndex(key)
}

/** One object of purge-ids: each target's first place, and the few ids not read again there. */
interface IdGroup {
  /** Target → the place, among all the results, of its first purged result: the object's order. */
  first: Map<string, number>
  /**
   * The last id of a target given more than once, or named like an array index (listed first, out
   * of order). Every other id is read again from its result, so 100,000 ids are never held at once.
   */
  held: Map<string, string>
}

/** Each object's targets (a service's, or '' when not grouped) with their first places. */
function idGroups(
  results: Results,
  groupOf: (result: PurgeResult) => string,
  hide: (text: string) => string
): Map<string, IdGroup> {
  const groups = new Map<string, IdGroup>()
  for (const [place, result, id] of withIds(results)) {
    const name = groupOf(result)
    let group = groups.get(name)
    if (group === undefined) groups.set(name, (group = { first: new Map(), held: new Map() }))
    const target = hide(result.target)
    if (group.first.has(target) || isArrayIndex(target)) group.held.set(target, hide(id))
    if (!group.first.has(target)) group.first.set(target, place)
  }
  return groups
}

/** One object's entries in order: array indices ascending, then each target at its first place. */
function* groupIds(
  name: string,
  group: IdGroup,
  results: Results,
  groupOf: (result: PurgeResult) => string,
  hide: (text: string) => string
): Generator<[string, string]> {
  for (const target of arrayIndices(group.first.keys())) {
    yield [target, group.held.get(target) ?? '']
  }
  for (const [place, result, id] of withIds(results)) {
    if (groupOf(result) !== name) continue
    const target = hide(result.target)
    if (group.first.get(target) !== place || isArrayIndex(target)) continue
    yield [target, group.held.get(target) ?? hide(id)]
  }
}

/**
 * Each purged result that has an id, with its place among all the results: both readings of
 * purge-ids count places here, so a target's first place means the same in each.
 */
function* withIds(results: Results): Generator<[place: number, result: PurgeResult, id: string]> {
  let place = 0
  for (const result of results) {
    place += 1
    if (result.status === 'purged' && result.id !== null) yield [place, result, result.id]
  }
}

/**
 * A Map's entries in the order an object with the same properties lists them: array indices
 * ("0", "42", never "042" or "-1") first, ascending, then the other keys as first set.
 */
function inObjectOrder<V>(properties: Map<string, V>): Iterable<[string, V]> {
  const indices = arrayIndices(properties.keys())
  if (indices.length === 0) return properties
  const others = [...properties].filter(([key]) => !isArrayIndex(key))
  return [...indices.map((key): [string, V] => [key, properties.get(key) as V]), ...others]
}

/** The keys that are array indices, ascending: the order an object lists them in, first. */
function arrayIndices(keys: Iterable<string>): string[] {
  const indices: string[] = []
  for (const key of keys) if (isArrayIndex(key)) indices.push(key)
  return indices.sort((a, b) => Number(a) - Number(b))
}

/** The largest array index is 2³² − 2; a longer or larger run of digits is an ordinary key. */
const MAX_ARRAY_INDEX = 2 ** 32 - 2

function isArrayIndex(key: string): boolean {
  return /^(?:0|[1-9]\d{0,9})$/.test(key) && Number(key) <= MAX_ARRAY_INDEX
}
