/** What the figures mean, with this run's figures: no number here comes from another run. */
import type { Figures } from './figures.js'
import { format, percent } from './numbers.js'
import { LATENCY_MS } from './options.js'
import { PHASES } from './phases.js'

function startBullet({ emptyMs, coldMs, coldRatio, core }: Figures): string {
  return (
    `- **Start.** An empty action starts in ${format(emptyMs)}, the action's one-key dry run in ` +
    `${format(coldMs)}, ${coldRatio.toFixed(2)}× an empty action timed in turn with it. A bundle ` +
    `of \`@actions/core\` alone (built by this run with ncc, ${(core.bytes / 1024).toFixed(0)} KiB), ` +
    `timed the same way, starts in ${format(core.startMs)}, ${core.ratio.toFixed(2)}× the empty ` +
    `action: ${percent(core.startMs - emptyMs, coldMs - emptyMs)} of the action's start beyond ` +
    'an empty one. `@actions/core` 3 imports `@actions/http-client` 4 and its `undici` for OIDC ' +
    'and proxies, and all of it is evaluated when the action loads, whether or not either is ' +
    'used. The stages only some runs need (changed-files, last-purge, the wait, the edge ' +
    'check) and `@actions/github` (Octokit, for changed-files and last-purge) are chunks of ' +
    "their own, loaded when a run needs them; the summary's run context comes from the runner's " +
    '`GITHUB_*` variables. The entry awaits nothing at the top level: with a top-level await, ' +
    'ncc wraps the whole program in an async module, whose body V8 parses again when it runs.'
  )
}

function phasesBullet(figures: Figures): string {
  return (
    `- **Where keys10k's time goes** (medians, from the marks the action sets at the end of each ` +
    'phase; `start` is the process start and the bundle load, `exit` the last mark to the exit): ' +
    [...PHASES, 'exit']
      .map((phase) => `${phase} ${format(figures.keys10kPhases[phase] ?? NaN)}`)
      .join(', ') +
    '. A regression shows in the phase that grew. The results file and `purge-ids` are made ' +
    'from the finished run record, after the last call: their time is in `outputs`.'
  )
}

function roundTripsBullet(figures: Figures): string {
  const { concurrency } = figures
  const worstLongRun = Math.max(
    figures.urls1k.medianMs / figures.urls1k.boundMs,
    figures.soft1k.medianMs / figures.soft1k.boundMs
  )
  return (
    `- **Round trips.** The first round of calls goes out at once, so \`keys10k\`'s ` +
    `${figures.keys10kCalls} calls take ${Math.ceil(figures.keys10kCalls / concurrency)} round ` +
    `trips at concurrency ${concurrency}; a rejected token costs at most \`concurrency\` ` +
    'requests. The long runs (`urls1k`, `soft1k`) ' +
    `stay within ${percent(worstLongRun - 1, 1)} of their bound, and \`urls1k\` opened ` +
    `${figures.urls1k.connections} TCP connections for concurrency ${concurrency}: one ` +
    'keep-alive connection per call in flight.'
  )
}

/** Within 5% of a bare loop, the difference is the machine's noise, not the stage's overhead. */
function checksAgainstFloor(verify: Figures['verify1k']): string {
  const ideal = format(verify.checkRounds * LATENCY_MS)
  const beyond = verify.checksMs - verify.bareLoopMs
  return beyond <= verify.bareLoopMs * 0.05
    ? `the checks are as fast as Node's own HTTP here (${format(Math.abs(beyond))} apart), so what both take ` +
        `beyond ${ideal} is Node's per-request cost on this machine, not the stage's.`
    : `the checks take ${percent(beyond, verify.bareLoopMs)} more than that: the stage's own ` +
        'overhead per check.'
}

function edgeCheckBullet({ verify1k: verify, concurrency }: Figures): string {
  return (
    `- **Edge check.** \`verify1k\` purges the whole service, then checks 1,000 \`verify-urls\` ` +
    `whose pages answer \`Age: 0\` after ${LATENCY_MS} ms: ${format(verify.medianMs)}, ` +
    `${(verify.medianMs / verify.boundMs).toFixed(2)}× its bound. Its bound starts from \`cold\` ` +
    "(the action's own start, which has a target of its own) so that the ratio judges the stages " +
    `after it. Where the time goes (medians): the purge call reaches the API ${format(verify.startMs)} ` +
    `after the spawn, the first check follows ${format(verify.purgeMs)} later (the purge's round trip and the stage's setup), ` +
    `the checks take ${format(verify.checksMs)} from the first GET to the last answer ` +
    `(${verify.checkRounds} rounds of ${LATENCY_MS} ms would be ${format(verify.checkRounds * LATENCY_MS)}), ` +
    `and writing the outputs, the verification file and the summary until the exit takes ` +
    `${format(verify.endMs)}. A bare Node loop (keep-alive agent with ${concurrency} sockets, ` +
    `the same headers, a process of its own) fetches the same pages in ${format(verify.bareLoopMs)}: ` +
    checksAgainstFloor(verify) +
    ` ${verify.connections} TCP connections: one keep-alive connection per check in flight.`
  )
}

/** Only when the run measured the curve (not `--quick`) and it holds the default. */
function concurrencyBullet({ curve, concurrency }: Figures): string[] {
  const first = curve[0]
  const last = curve[curve.length - 1]
  const chosen = curve.find((point) => point.concurrency === concurrency)
  if (first === undefined || last === undefined || chosen === undefined) return []
  return [
    `- **Default concurrency: ${concurrency}.** 1,000 URL purges at ${LATENCY_MS} ms latency ` +
      `take ${format(chosen.medianMs)} at ${concurrency}, ` +
      `${(first.medianMs / chosen.medianMs).toFixed(1)}× faster than at ${first.concurrency}; ` +
      `${last.concurrency} is another ${(chosen.medianMs / last.medianMs).toFixed(1)}× faster, ` +
      `its ratio to the bound ${(last.medianMs / last.boundMs).toFixed(2)} against ` +
      `${(chosen.medianMs / chosen.boundMs).toFixed(2)}. ${concurrency} keeps a purge API's ` +
      `burst small (${concurrency} requests in flight per token); set \`concurrency\` up to 64 ` +
      'for hosts known to take more.'
  ]
}

function memoryBullet({ rssOneKeyMb, rss100kMb }: Figures): string {
  const perKeyBytes = ((rss100kMb - rssOneKeyMb) * 1024 * 1024) / 99_999
  return (
    `- **Memory.** Peak RSS is ${rssOneKeyMb.toFixed(0)} MB for one key (Node and the ` +
    `bundle) and ${rss100kMb.toFixed(0)} MB for 100,000, about ` +
    `${perKeyBytes.toFixed(0)} bytes more per key. The run record is plain data: each call ` +
    'holds its keys, headers and body, each target has one result object, and `purge-ids` is ' +
    'one object made from the results once the purge is over. The results file is written in ' +
    "slices, and the `results` output's text is read back from it."
  )
}

export function reading(figures: Figures): string {
  const bullets = [
    startBullet(figures),
    phasesBullet(figures),
    roundTripsBullet(figures),
    edgeCheckBullet(figures),
    ...concurrencyBullet(figures),
    memoryBullet(figures)
  ]
  return ['### Reading the figures', '', ...bullets, ''].join('\n')
}
