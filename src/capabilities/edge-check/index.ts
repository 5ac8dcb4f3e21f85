/**
 * The edge check: after the purge, each purged URL and each of `verify-urls` fetched as a visitor
 * would, to prove the edge serves what came after the purge. A page not known to be fresh fails
 * the step, and a run with one is not complete.
 */
import type { Capability } from '../capability.js'
import { edgeCheckInputs } from './inputs.js'
import { writeAssetsOutputs, writeEdgeCheckOutputs } from './outputs.js'
import type { EdgeCheckOutcome, EdgeCheckPart } from './record.js'
import type { AssetsDeps } from './assets/check-files.js'
import type { PageFiles } from './assets/extract.js'
import { edgeCheckSection } from './summary.js'
import {
  describeCheckPlanned,
  edgeCheckTargetsOf,
  purgedUrlsOf,
  strayEdgeCheckHosts
} from './urls.js'
import { edgeCheckVerdict } from './verdict.js'
import { assetsSection, assetsVerdict } from './assets/summary.js'

// The checks load only when a run checks the edge.
const work = () => import('./check.js')

/**
 * The edge check with the files its HTML pages load checked too: each page's entry counts them,
 * and the outcome lists every file's verdict. The parser loads only then.
 */
async function withAssets(
  checked: EdgeCheckOutcome,
  { loads, deadline }: { loads: Map<string, PageFiles>; deadline: number },
  deps: AssetsDeps
): Promise<EdgeCheckOutcome> {
  const { checkAssets } = await import('./assets/check-files.js')
  // In the edge check's order, not the order answers came in: the first page is the same each run.
  const pages = checked.entries.flatMap(({ url }) => {
    const found = loads.get(url)
    return found === undefined ? [] : [{ url, found }]
  })
  const found = await checkAssets({ pages, deadline }, deps)
  const none = { whole: 0, broken: 0, healed: 0, not_judged: 0, other_host: 0, over_limit: 0 }
  const entries = checked.entries.map((entry) => ({
    ...entry,
    assets: found.pages.get(entry.url) ?? none
  }))
  return { ...checked, entries, assets: found.files, cancelled: found.cancelled }
}

export const edgeCheck: Capability<EdgeCheckPart> = {
  inputs: edgeCheckInputs,
  notices: ({ edgeCheck, wait }, targets, guard) =>
    edgeCheck === undefined
      ? []
      : strayEdgeCheckHosts(edgeCheck, targets.urls, wait?.urls ?? [], guard),
  planned: async ({ edgeCheck }, targets, guard) => {
    const urls = targets.urls.map((url) => url.target)
    const stage = edgeCheck === undefined ? undefined : describeCheckPlanned(edgeCheck, urls, guard)
    return stage === undefined ? [] : [stage]
  },
  async after({ settings }, purge, deps) {
    const { edgeCheck } = settings
    if (edgeCheck === undefined) return { part: {} }
    const targets = edgeCheckTargetsOf(edgeCheck, () => purgedUrlsOf(purge.results))
    if (targets.length === 0) {
      if (edgeCheck.purgedUrls) {
        deps.log.notice(
          'verify: true, but there is nothing to check at the edge: no URL was purged and verify-urls is empty'
        )
      }
      return { part: {} }
    }
    const purgeStartedMs = purge.firstSentMs ?? deps.clock.now()
    // The files are checked within the edge check's own window: the same deadline.
    const deadline = deps.clock.now() + edgeCheck.timeoutMs
    // Each page's files are found as its answer comes: its body is not kept.
    const loads = new Map<string, PageFiles>()
    const { filesOf } = edgeCheck.assets
      ? await import('./assets/extract.js')
      : { filesOf: undefined }
    const onPage =
      filesOf === undefined
        ? undefined
        : (url: string, body: string) => loads.set(url, filesOf(body, url))
    const request = { targets, purgeStartedMs, timeoutMs: edgeCheck.timeoutMs, onPage }
    const pages = await deps.pages()
    const checked = await (await work()).checkEdge(request, deps.limits, pages)
    const outcome =
      onPage === undefined || checked.cancelled
        ? checked
        : await withAssets(checked, { loads, deadline }, { ...pages, ...deps })
    const stopped = outcome.cancelled
      ? 'Cancelled during the edge check: the URLs not judged by then are reported as not fresh'
      : undefined
    return { part: { edgeCheck: outcome }, stopped }
  },
  notJudged({ settings, edgeCheck }, results, why) {
    if (edgeCheck !== undefined || settings.edgeCheck === undefined || settings.dryRun) return {}
    const targets = edgeCheckTargetsOf(settings.edgeCheck, () => purgedUrlsOf(results))
    if (targets.length === 0) return {}
    const evidence = `not judged: ${why}`
    const unjudged = { fresh: false, http_status: null, age: null, checks: 0, evidence }
    const entries = targets.map(({ url }) => ({ url, ...unjudged }))
    return { edgeCheck: { entries, cancelled: false, malformedAge: [] } }
  },
  async outputs({ edgeCheck }, io) {
    await writeEdgeCheckOutputs(edgeCheck, io)
    // Unset when no file was checked: off, a dry run, or a cancel before the files' turn.
    if (edgeCheck?.assets !== undefined) await writeAssetsOutputs(edgeCheck.assets, io)
  },
  sections: {
    beside: ({ edgeCheck, settings }, budget, guard) =>
      edgeCheck === undefined
        ? []
        : [
            ...edgeCheckSection(edgeCheck, settings.edgeCheck, budget, guard),
            ...(settings.edgeCheck?.assets === true
              ? assetsSection(edgeCheck.assets ?? [], edgeCheck.entries, budget, guard)
              : [])
          ]
  },
  verdict: ({ edgeCheck }, guard) => {
    const entries = edgeCheck?.entries ?? []
    // A page that loads a missing file is named first: it is broken for every visitor.
    return [
      assetsVerdict(edgeCheck?.assets ?? [], entries, guard),
      edgeCheckVerdict(entries, guard)
    ]
  }
}
