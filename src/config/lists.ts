/**
 * The one grammar of list inputs (keys, urls, verify-urls, wait-for-url, service-id and the list
 * files): a JSON array of strings, or text split by the input's separators. Pure.
 */
import { InputError } from './input-error.js'
import type { RunInputs } from './parse-settings.js'
import {
  checkKey,
  parseHttpUrl,
  purgeUrl,
  withoutCredentials,
  type PurgeUrl,
  type SurrogateKey
} from './keys-and-urls.js'
import type { Guard } from '../text/guard.js'
import { parseJson } from '../text/json.js'
import { shorten } from '../text/shown.js'

/** The inputs that hold lists, named as every message about them starts. */
type ListInput = keyof typeof KINDS

/** A list input's text and its name. */
export type ListText = readonly [text: string, input: ListInput]

/**
 * What separates keys in text. Only ASCII whitespace separates, here as in every list: a Unicode
 * space inside an item is refused, not split on.
 */
export const KEY_SEPARATORS = /[ \t\r\n,]+/

/** How one kind of list is written as text, and how its messages name and show its items. */
interface ListKind {
  item: string
  items: string
  split: RegExp
  /** What is cut from each piece's ends before it is an item. */
  ends?: RegExp
  /** How to separate items, for the fix a message ends with. */
  separatedBy: string
  show: (raw: string, guard: Guard) => string
  /** A rule every item of this kind obeys, whichever way the list is written. */
  check?: (item: string, input: ListInput, guard: Guard) => void
}

const KEYS: ListKind = {
  item: 'key',
  items: 'keys',
  split: KEY_SEPARATORS,
  separatedBy: 'spaces, commas or newlines',
  show: (raw, guard) => shorten(guard, raw)
}

/** A comma is a character of a URL (`/img/w_100,h_50.jpg`): only one at a piece's end separates. */
const URLS: ListKind = {
  item: 'URL',
  items: 'URLs',
  split: /[ \t\r\n]+/,
  ends: /^,+|,+$/g,
  separatedBy: 'newlines or spaces',
  show: (raw, guard) => shorten(guard, withoutCredentials(raw)),
  check: refuseJoinedUrls
}

/** A space never separates service ids: with mode: all, `prod staging` must not purge two services. */
const SERVICE_IDS: ListKind = {
  item: 'service id',
  items: 'service ids',
  split: /[\n,]+/,
  ends: /^[ \t\r]+|[ \t\r]+$/g,
  separatedBy: 'newlines or commas',
  show: (raw, guard) => shorten(guard, raw)
}

/** Each list input's kind. */
const KINDS = {
  keys: KEYS,
  'keys-file': KEYS,
  urls: URLS,
  'urls-file': URLS,
  'verify-urls': URLS,
  'wait-for-url': URLS,
  'service-id': SERVICE_IDS
} satisfies Record<string, ListKind>

const WHITESPACE = /\s/

/**
 * The items of one list input, in order, duplicates kept, blank ones dropped; none holds
 * whitespace. Text is split once and its pieces handed on as they come, without a filtered copy.
 * A value that is a JSON array of strings (what `jq -c` and `toJSON` write) gives its elements,
 * each one item as written.
 */
export function* listItems(text: string, input: ListInput, guard: Guard): Iterable<string> {
  const kind = KINDS[input]
  const elements = jsonElements(text, input, guard)
  for (const [index, piece] of (elements ?? text.split(kind.split)).entries()) {
    // An element is an item as written; a piece of text drops its kind's ends first.
    const item =
      elements !== undefined || kind.ends === undefined ? piece : piece.replace(kind.ends, '')
    if (item === '') continue
    const space = WHITESPACE.exec(item)
    if (space !== null) {
      const char = codePoint(space[0])
      throw new InputError(
        elements === undefined
          ? `${input}: ${kind.show(item, guard)} holds whitespace (${char}) that does not separate ${kind.items}; separate them with ${kind.separatedBy}`
          : `${input}: element ${index + 1} of the JSON array, ${kind.show(item, guard)}, holds whitespace (${char}); give each ${kind.item} as an element of its own`
      )
    }
    kind.check?.(item, input, guard)
    yield item
  }
}

/** Whitespace JSON allows around a value: the same four characters that separate keys and URLs. */
function isBlank(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d
}

/**
 * The elements when the trimmed text is a JSON array of strings; undefined when it is a list in
 * text. Refuses the values that look like JSON and read wrongly either way: text in brackets that
 * is no such array (`[a, b]`: are the brackets part of the keys?), and one JSON string
 * (`"homepage about"`), whose quotes would become part of the first and last item.
 */
function jsonElements(text: string, input: ListInput, guard: Guard): string[] | undefined {
  const kind = KINDS[input]
  let first = 0
  while (first < text.length && isBlank(text.charCodeAt(first))) first++
  let last = text.length - 1
  while (last > first && isBlank(text.charCodeAt(last))) last--
  if (first >= last) return undefined
  const opens = text[first]
  const closes = text[last]
  if (opens === '[' && closes === ']') {
    const value = parseJson(text)
    if (isStringArray(value)) return value
    throw new InputError(
      `${input}: ${kind.show(text.slice(first, last + 1), guard)} is not a JSON array of strings, which a value starting with [ and ending with ] must be; write it as one (["a","b"]), or leave out the brackets`
    )
  }
  if (opens === '"' && closes === '"' && typeof parseJson(text) === 'string') {
    throw new InputError(
      `${input}: ${kind.show(text.slice(first, last + 1), guard)} is one JSON string, whose quotes would be read as part of the ${kind.items}; remove them, or give a JSON array of strings (["a","b"])`
    )
  }
  return undefined
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((element) => typeof element === 'string')
}

/** `U+00A0`: the character named, since a quoted value shows a no-break space as a space. */
function codePoint(char: string): string {
  const code = char.codePointAt(0) ?? 0
  return `U+${code.toString(16).toUpperCase().padStart(4, '0')}`
}

/**
 * A comma running straight into another scheme is refused: as one URL, `https://h/a,https://h/b`
 * is valid and would purge the wrong path.
 */
function refuseJoinedUrls(item: string, input: ListInput, guard: Guard): void {
  const joints = item.match(/,https?:\/\//gi)?.length ?? 0
  if (joints > 0) {
    const joined =
      joints === 1 ? 'two URLs joined by a comma' : `${joints + 1} URLs joined by commas`
    throw new InputError(
      `${input}: ${shorten(guard, withoutCredentials(item))} holds ${joined}; separate URLs with newlines or spaces`
    )
  }
}

/**
 * The keys of each list in turn, each once (its first place kept), checked as they are found: one
 * pass over each list's items, no merged copy, since a keys-file may hold 100,000 keys.
 */
export function parseKeys(guard: Guard, ...lists: ListText[]): SurrogateKey[] {
  const keys = new Set<SurrogateKey>()
  for (const [text, input] of lists) {
    for (const key of listItems(text, input, guard)) {
      if (keys.has(key)) continue
      checkKey(key, input, guard)
      keys.add(key)
    }
  }
  return [...keys]
}

/** The URLs of each list in turn, each checked, and each once by where its purge goes. */
export function parseUrls(guard: Guard, ...lists: ListText[]): PurgeUrl[] {
  const urls = new Map<string, PurgeUrl>()
  for (const [text, input] of lists) {
    for (const item of listItems(text, input, guard)) {
      const url = purgeUrl(item, input, guard)
      if (!urls.has(url.address)) urls.set(url.address, url)
    }
  }
  return [...urls.values()]
}

/** The pages the wait or the edge check fetches: absolute http(s) URLs, each once. */
export function parseCheckUrls(
  { raw, guard }: RunInputs,
  name: 'wait-for-url' | 'verify-urls'
): string[] {
  const urls = Array.from(
    listItems(raw[name], name, guard),
    (item) => parseHttpUrl(item, name, guard).href
  )
  return [...new Set(urls)]
}
