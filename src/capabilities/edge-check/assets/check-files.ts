/**
 * The check of the files each page loads (issue 39, steps 2 to 4): each file on a page's own
 * origin asked for once per run through the CDN, within the edge check's window, its cached errors
 * purged and checked again; every file of every page counted once per page.
 */
import {
  pollUntilDeadline,
  type PageCheckDeps,
  type RequestLimits
} from '../../../http/page-checks.js'
import { counted } from '../../../text/counted.js'
import type { PageFiles as Found } from './extract.js'
import {
  checkFile,
  logVerdict,
  verdictOf,
  type FileProgress,
  type FileVerdict
} from './file-check.js'
import type { AssetEntry, AssetVerdict, PageAssetCounts } from '../record.js'
import { withoutFragment } from '../urls.js'

/**
 * A page the edge check fetched whose answer was HTML, and the files it loads, found as it came
 * (its body is not kept: a thousand pages may be checked).
 */
export interface AssetPage {
  url: string
  found: Found
}

export interface AssetsRequest {
  /** In the edge check's order: a file's first page is the first of these that loads it. */
  pages: AssetPage[]
  /** No check starts after this (ms epoch): the edge check's own window. */
  deadline: number
}

export interface AssetsDeps extends PageCheckDeps {
  limits: RequestLimits
  /** Purges one URL instantly, as a `urls` target is purged; resolves to why it failed, or undefined when purged. */
  purgeUrl(url: string): Promise<string | undefined>
}

export interface AssetsOutcome {
  /** One per file checked (or due a check), in the order the pages first load them. */
  files: AssetEntry[]
  /** By page URL, in the request's order. */
  pages: Map<string, PageAssetCounts>
  cancelled: boolean
}

/** The bounds: the files checked for one page, and in one run. */
const MAX_FILES_PER_PAGE = 100
const MAX_FILES_PER_RUN = 1000

/** A file as the pages share it: its checks, and the pages that count it with its verdict. */
interface SharedFile extends FileProgress {
  pages: string[]
}

/** A page's files within its bounds, and what it counts without a check. */
interface PageFiles {
  files: SharedFile[]
  otherHost: number
  overLimit: number
}

/**
 * Checks the files `request.pages` load, up to `deps.limits.concurrency` at once, until each has a
 * verdict, the deadline passes, or the run is cancelled (then it returns at once, the files without
 * a verdict not judged).
 */
export async function checkAssets(
  request: AssetsRequest,
  deps: AssetsDeps
): Promise<AssetsOutcome> {
  const { clock, signal, log, limits } = deps
  const { files, pages } = filesByPage(request.pages)
  const { concurrency } = limits
  const title = `Files the pages load: ${counted(files.length, 'file')} from ${counted(pages.size, 'page')} (up to ${concurrency} at once, 5xx checked again, cached errors purged)`
  return log.group(title, async () => {
    const { deadline } = request
    const check = checkFile(deadline, deps)
    const late = await pollUntilDeadline(files, check, { deadline, concurrency, clock, signal })
    for (const file of late) file.late ||= file.checks === 0
    return outcomeOf(files, pages, deps)
  })
}

/**
 * Each page's files, a file shared by pages made once. A page's first `MAX_FILES_PER_PAGE` files
 * in document order are its own to count, whether or not another page loads them too (so a page's
 * counts do not hang on the other pages); the rest, and new files once the run holds
 * `MAX_FILES_PER_RUN`, are over its limit. A file that is the page itself (`src="#"`) is not a
 * file it loads, and counts nowhere. A page named twice is counted once.
 */
function filesByPage(pages: AssetPage[]): { files: SharedFile[]; pages: Map<string, PageFiles> } {
  const files = new Map<string, SharedFile>()
  const byPage = new Map<string, PageFiles>()
  for (const { url, found } of pages) {
    if (byPage.has(url)) continue
    const self = withoutFragment(url)
    const own = found.files.filter((file) => file !== self)
    const counts: PageFiles = { files: [], otherHost: found.otherHost.length, overLimit: 0 }
    byPage.set(url, counts)
    for (const [index, fileUrl] of own.entries()) {
      const known = files.get(fileUrl)
      if (index >= MAX_FILES_PER_PAGE || (known === undefined && files.size >= MAX_FILES_PER_RUN)) {
        counts.overLimit += 1
        continue
      }
      const file = known ?? newFile(fileUrl)
      files.set(fileUrl, file)
      file.pages.push(url)
      counts.files.push(file)
    }
  }
  return { files: [...files.values()], pages: byPage }
}

function newFile(url: string): SharedFile {
  return {
    url,
    pages: [],
    checks: 0,
    purged: false,
    purging: false,
    checkedSincePurge: false,
    final: false,
    late: false,
    logged: false
  }
}

/** The entries and each page's counts; the log's lines for the files the checks did not end. */
function outcomeOf(
  files: SharedFile[],
  pages: Map<string, PageFiles>,
  { signal, log, guard }: AssetsDeps
): AssetsOutcome {
  const cancelled = signal.aborted
  const verdicts = new Map(files.map((file) => [file, verdictOf(file, cancelled)]))
  const verdictFor = (file: SharedFile): FileVerdict =>
    verdicts.get(file) ?? verdictOf(file, cancelled)
  // A 5xx whose next check the deadline stopped was never logged; an unchecked file gets no line
  // of its own: there may be a thousand.
  for (const file of files) {
    if (!file.logged && file.last !== undefined) logVerdict(file, cancelled, log, guard)
  }
  const entries = files.map((file): AssetEntry => {
    const { verdict, evidence } = verdictFor(file)
    const { url, pages: loadedBy, last, purged } = file
    const [page = ''] = loadedBy
    const status = last?.status ?? null
    return {
      url,
      page,
      pages: loadedBy.length,
      http_status: status,
      age: last?.age ?? null,
      verdict,
      purged,
      evidence
    }
  })
  const counts = new Map<string, PageAssetCounts>()
  for (const [url, { files: loaded, otherHost, overLimit }] of pages) {
    const tally = {
      whole: 0,
      broken: 0,
      healed: 0,
      not_judged: 0,
      other_host: otherHost,
      over_limit: overLimit
    }
    for (const file of loaded) tally[verdictFor(file).verdict] += 1
    counts.set(url, tally)
  }
  logTotals(files, entries, counts, cancelled, log)
  return { files: entries, pages: counts, cancelled }
}

/** The lines that close the group: the files never checked, and the counts. */
function logTotals(
  files: SharedFile[],
  entries: AssetEntry[],
  pages: Map<string, PageAssetCounts>,
  cancelled: boolean,
  log: AssetsDeps['log']
): void {
  const late = files.filter((file) => file.late).length
  if (late > 0) {
    log.info(
      `${counted(late, 'file')} not checked within verify-timeout: raise verify-timeout or concurrency`
    )
  }
  const unchecked = files.filter((file) => file.last === undefined && !file.late).length
  if (unchecked > 0) log.info(`${counted(unchecked, 'file')} not checked: the run was cancelled`)
  const total = (verdict: AssetVerdict): number =>
    entries.filter((entry) => entry.verdict === verdict).length
  let otherHost = 0
  let overLimit = 0
  for (const counts of pages.values()) {
    otherHost += counts.other_host
    overLimit += counts.over_limit
  }
  const ending = cancelled ? ' (the run was cancelled)' : ''
  log.info(
    `${total('whole')} whole, ${total('healed')} healed, ${total('broken')} broken, ${total('not_judged')} not judged${ending}; not checked, counted by page: ${otherHost} on another host, ${overLimit} over the limit`
  )
}
