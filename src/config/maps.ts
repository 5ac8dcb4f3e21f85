/** Which URLs and surrogate keys the files a deploy changed make stale: url-map and key-map. Pure. */
import picomatch from 'picomatch'
import { InputError } from './input-error.js'
import { checkKey, parseHttpUrl, type SurrogateKey } from './keys-and-urls.js'
import { KEY_SEPARATORS } from './lists.js'
import type { Guard } from '../text/guard.js'
import { shorten } from '../text/shown.js'
import { messageOf } from '../text/message.js'

/** One `url-map` line: files under `pathPrefix` are served under `urlPrefix`. */
export interface UrlMapping {
  /** A repository directory: `''` for the root, otherwise ending in `/` (`public/`). */
  pathPrefix: string
  /** An absolute http(s) URL whose path ends in `/`, without query or fragment. */
  urlPrefix: string
  /** 1-based line in `url-map`, for messages. */
  line: number
}

/** One `key-map` line: files matching `glob` are tagged with `key`. */
export interface KeyMapping {
  glob: string
  key: SurrogateKey
  line: number
  /** The glob, compiled once. */
  matches: (path: string) => boolean
}

/** The `LEFT => RIGHT` lines of a map, skipping blank lines and `#` comments. */
function mapLines(
  text: string,
  input: 'url-map' | 'key-map',
  shape: string,
  guard: Guard
): { line: number; left: string; right: string }[] {
  return text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .flatMap((raw, index) => {
      const trimmed = raw.trim()
      if (trimmed === '' || trimmed.startsWith('#')) return []
      const line = index + 1
      const arrow = trimmed.indexOf('=>')
      const left = arrow < 0 ? '' : trimmed.slice(0, arrow).trim()
      const right = arrow < 0 ? '' : trimmed.slice(arrow + 2).trim()
      if (left === '' || right === '') {
        throw new InputError(
          `${input} line ${line}: expected ${shape}, got ${shorten(guard, trimmed)}`
        )
      }
      return [{ line, left, right }]
    })
}

/** Parses `url-map`: lines `PATH_PREFIX => URL_PREFIX`, e.g. `public/ => https://www.example.com/`. */
export function parseUrlMap(text: string, guard: Guard): UrlMapping[] {
  return mapLines(text, 'url-map', '"PATH_PREFIX => URL_PREFIX"', guard).map(
    ({ line, left, right }) => {
      const source = `url-map line ${line}`
      const url = parseHttpUrl(right, source, guard)
      if (url.search !== '' || url.hash !== '' || /[?#]/.test(right)) {
        throw new InputError(
          `${source}: ${shorten(guard, right)} has a query or fragment; a URL prefix is a scheme, host and path`
        )
      }
      // The path prefix is a directory, so the URL prefix is one too: `https://x/blog` + `a.html`
      // must give `https://x/blog/a.html`, not `https://x/bloga.html`.
      if (!url.pathname.endsWith('/')) url.pathname += '/'
      return { pathPrefix: parsePathPrefix(left, source, guard), urlPrefix: url.href, line }
    }
  )
}

/** A repository directory as GitHub lists paths: no leading `./` or `/`, ending in `/`. */
function parsePathPrefix(raw: string, source: string, guard: Guard): string {
  if (/[*?[\]{}]/.test(raw)) {
    throw new InputError(
      `${source}: ${shorten(guard, raw)} looks like a glob; PATH_PREFIX is a directory such as public/ (globs belong in key-map)`
    )
  }
  if (raw.includes('\\')) {
    throw new InputError(`${source}: ${shorten(guard, raw)}: separate directories with /, not \\`)
  }
  const path = raw.replace(/^(\.\/|\/)+/, '').replace(/^\.$/, '')
  if (path.split('/').some((segment) => segment === '.' || segment === '..')) {
    throw new InputError(
      `${source}: ${shorten(guard, raw)}: give the directory from the repository root, without . or .. segments`
    )
  }
  if (path === '') return ''
  return path.endsWith('/') ? path : `${path}/`
}

/** Parses `key-map`: lines `GLOB => KEY`, e.g. `content/blog/** => blog`; one key per line. */
export function parseKeyMap(text: string, guard: Guard): KeyMapping[] {
  return mapLines(text, 'key-map', '"GLOB => KEY"', guard).map(({ line, left, right }) => {
    const source = `key-map line ${line}`
    // A line is not a list: one key, so separators as in keys mean a second key.
    const keys = new Set(right.split(KEY_SEPARATORS).filter((key) => key !== ''))
    if (keys.size !== 1) {
      throw new InputError(
        `${source}: ${shorten(guard, right)} is ${keys.size} keys; give one key per line (repeat the glob for more)`
      )
    }
    const [key = ''] = keys
    checkKey(key, source, guard)
    // Paths from GitHub never start with `./`; a glob that does would never match.
    const glob = left.replace(/^(\.\/)+/, '')
    try {
      // dot: files such as `.well-known/…` are served too, and a missed purge is the costly mistake.
      return { glob, key, line, matches: picomatch(glob, { dot: true }) }
    } catch (error) {
      throw new InputError(
        `${source}: ${shorten(guard, left)} is not a valid glob: ${messageOf(error)}`
      )
    }
  })
}
