/** What the wait and the edge check will look at, from settings and purge results. Pure. */
import { counted } from './counted.js'
import type { Settings, VerifySettings } from './inputs.js'
import { oneLine } from './outside-text.js'
import type { PurgeResult } from './results.js'
import type { VerifyTarget } from './verify-stage.js'

/**
 * The URL targets whose purge succeeded (with `verify: true`), then `verify-urls`, each URL once.
 * A URL listed in `verify-urls` is judged by `verify-text` when given; every other one by `Age`.
 */
export function verifyTargetsOf(verify: VerifySettings, results: PurgeResult[]): VerifyTarget[] {
  const purged = verify.purgedUrls
    ? results.filter((result) => result.type === 'url' && result.status === 'purged')
    : []
  const listed = new Set(verify.urls)
  const targets = new Map<string, VerifyTarget>()
  for (const url of [...purged.map((result) => withoutFragment(result.target)), ...verify.urls]) {
    if (!targets.has(url))
      targets.set(url, { url, text: listed.has(url) ? verify.text : undefined })
  }
  return [...targets.values()]
}

/** Fragments are never sent: the page visitors get is the one without it. */
function withoutFragment(url: string): string {
  const parsed = new URL(url)
  parsed.hash = ''
  return parsed.href
}

/** A dry run's account of what would be awaited and checked; no request is sent for either. */
export function describeStagesPlanned(settings: Settings): string[] {
  const lines: string[] = []
  const { wait, verify } = settings
  if (wait !== undefined) {
    const one = wait.urls.length === 1
    const what =
      wait.text === undefined
        ? `${one ? 'answers' : 'answer'} 2xx`
        : `${one ? 'shows' : 'show'} ${JSON.stringify(oneLine(wait.text, 80))}`
    lines.push(
      `Would first wait until ${wait.urls.map((url) => oneLine(url)).join(', ')} ${what} ` +
        `(${counted(wait.passes, 'check')} in a row, up to ${wait.timeoutMs / 1000} s)`
    )
  }
  const byText =
    verify.text === undefined ? 'by Age' : `by the text ${JSON.stringify(oneLine(verify.text, 80))}`
  const parts = [
    verify.purgedUrls ? 'every purged URL, by Age' : undefined,
    verify.urls.length > 0
      ? `${counted(verify.urls.length, 'URL')} of verify-urls, ${byText}`
      : undefined
  ].filter((part) => part !== undefined)
  if (parts.length > 0) {
    lines.push(
      `Would then check at the edge ${parts.join(', and ')}, re-checking stale ones for up to ${verify.timeoutMs / 1000} s`
    )
  }
  return lines
}
