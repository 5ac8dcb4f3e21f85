/** Which URLs the edge check looks at, from settings and purge results. Pure. */
import { counted } from '../../text/counted.js'
import type { Guard } from '../../text/guard.js'
import type { PlannedStage, Results } from '../../record/index.js'
import type { EdgeCheckTarget } from './check.js'
import type { EdgeCheckSettings } from '../../config/settings.js'
import type { PurgeUrl } from '../../config/keys-and-urls.js'

/**
 * The purged URL targets (with `verify: true`), then `verify-urls`, each URL once. A URL listed in
 * `verify-urls` is judged by `verify-text` when given; every other one by `Age`. `purgedUrls` is
 * asked only with `verify: true`: it reads every result, which at 100,000 keys is not free.
 */
export function edgeCheckTargetsOf(
  edgeCheck: EdgeCheckSettings,
  purgedUrls: () => string[]
): EdgeCheckTarget[] {
  const purged = edgeCheck.purgedUrls ? purgedUrls() : []
  const listed = new Set(edgeCheck.urls)
  const urls = new Set([...purged.map(withoutFragment), ...edgeCheck.urls])
  return [...urls].map((url) => ({ url, text: listed.has(url) ? edgeCheck.text : undefined }))
}

/** The URL targets whose purge succeeded: those the edge check looks at with `verify: true`. */
export function purgedUrlsOf(results: Results): string[] {
  return results
    .filter(({ type, status }) => type === 'url' && status === 'purged')
    .map(({ target }) => target)
}

/**
 * A notice for each host of verify-urls that no purged URL and no wait-for-url uses: often a
 * typo, which would otherwise show only as a page that could not be reached. Said only when the
 * run names URLs to compare with.
 */
export function strayEdgeCheckHosts(
  edgeCheck: EdgeCheckSettings,
  urlTargets: readonly PurgeUrl[],
  waitUrls: readonly string[],
  guard: Guard
): string[] {
  const known = new Set([
    ...urlTargets.map(({ url }) => url.host),
    ...waitUrls.map((url) => new URL(url).host)
  ])
  if (known.size === 0) return []
  const stray = new Map<string, number>()
  for (const url of edgeCheck.urls) {
    const { host } = new URL(url)
    if (!known.has(host)) stray.set(host, (stray.get(host) ?? 0) + 1)
  }
  return [...stray].map(
    ([host, count]) =>
      `verify-urls: ${count === 1 ? 'a URL is' : `${count} URLs are`} on ${guard.oneLine(host, 300)}, which no purged URL or wait-for-url uses; check it for a typo`
  )
}

/** Fragments are never sent: the page visitors get is the one without it. */
export function withoutFragment(url: string): string {
  const parsed = new URL(url)
  parsed.hash = ''
  return parsed.href
}

/** In a dry run: what the edge check would look at for these URL targets; no request is sent. */
export function describeCheckPlanned(
  edgeCheck: EdgeCheckSettings,
  urlTargets: string[],
  guard: Guard
): PlannedStage | undefined {
  const byText =
    edgeCheck.text === undefined
      ? 'by Age'
      : `by the text ${JSON.stringify(guard.oneLine(edgeCheck.text, 80))}`
  const parts = [
    edgeCheck.purgedUrls ? 'each purged URL by Age' : undefined,
    edgeCheck.urls.length > 0 ? `each of verify-urls ${byText}` : undefined
  ].filter((part) => part !== undefined)
  const urls = edgeCheckTargetsOf(edgeCheck, () => urlTargets).map((target) => target.url)
  if (urls.length === 0) return undefined
  return {
    sentence:
      `Would then check ${counted(urls.length, 'URL')} at the edge, ${parts.join(', and ')}, ` +
      (edgeCheck.assets ? 'then the files each HTML page loads from its own host, ' : '') +
      `re-checking stale ones for up to ${edgeCheck.timeoutMs / 1000} s:`,
    urls,
    when: 'after'
  }
}
