/** What the wait and the edge check will look at, from settings and purge results. Pure. */
import { counted } from '../../text/counted.js'
import type { Settings, VerifySettings } from '../../config/inputs.js'
import { oneLine } from '../../text/guard.js'
import type { PurgeResult } from '../../record.js'
import type { VerifyTarget } from './edge-check.js'

/**
 * The purged URL targets (with `verify: true`), then `verify-urls`, each URL once. A URL listed in
 * `verify-urls` is judged by `verify-text` when given; every other one by `Age`.
 */
export function verifyTargetsOf(verify: VerifySettings, purgedUrls: string[]): VerifyTarget[] {
  const purged = verify.purgedUrls ? purgedUrls : []
  const listed = new Set(verify.urls)
  const targets = new Map<string, VerifyTarget>()
  for (const url of [...purged.map(withoutFragment), ...verify.urls]) {
    if (!targets.has(url))
      targets.set(url, { url, text: listed.has(url) ? verify.text : undefined })
  }
  return [...targets.values()]
}

/** The URL targets whose purge succeeded: those the edge check looks at with `verify: true`. */
export function purgedUrlsOf(results: PurgeResult[]): string[] {
  return results
    .filter((result) => result.type === 'url' && result.status === 'purged')
    .map((result) => result.target)
}

/** Fragments are never sent: the page visitors get is the one without it. */
function withoutFragment(url: string): string {
  const parsed = new URL(url)
  parsed.hash = ''
  return parsed.href
}

/** One stage a dry run would have run: what it would do, and each URL it would fetch. */
export interface PlannedStage {
  sentence: string
  urls: string[]
}

/** A dry run's account of what would be awaited and checked; no request is sent for either. */
export function describeStagesPlanned(settings: Settings): PlannedStage[] {
  const stages: PlannedStage[] = []
  const { wait, verify } = settings
  if (wait !== undefined) {
    const what =
      wait.text === undefined ? 'answers 2xx' : `shows ${JSON.stringify(oneLine(wait.text, 80))}`
    stages.push({
      sentence:
        `Would first wait until each of ${counted(wait.urls.length, 'URL')} ${what} ` +
        `(${counted(wait.passes, 'check')} in a row, up to ${wait.timeoutMs / 1000} s):`,
      urls: wait.urls
    })
  }
  const byText =
    verify.text === undefined ? 'by Age' : `by the text ${JSON.stringify(oneLine(verify.text, 80))}`
  const parts = [
    verify.purgedUrls ? 'each purged URL by Age' : undefined,
    verify.urls.length > 0 ? `each of verify-urls ${byText}` : undefined
  ].filter((part) => part !== undefined)
  const urls = verifyTargetsOf(
    verify,
    settings.urls.map((url) => url.target)
  ).map((target) => target.url)
  if (urls.length > 0) {
    stages.push({
      sentence:
        `Would then check ${counted(urls.length, 'URL')} at the edge, ${parts.join(', and ')}, ` +
        `re-checking stale ones for up to ${verify.timeoutMs / 1000} s:`,
      urls
    })
  }
  return stages
}
