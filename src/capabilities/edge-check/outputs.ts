/**
 * The edge check's outputs: the counts, and every URL's verdict in `verification` and its file;
 * with `verify-assets`, the files' counts and every file's verdict in `assets-file`.
 */
import {
  asItIs,
  keepEntries,
  setBoundedOutput,
  setFileOutput,
  type OutputWriter
} from '../../report-kit/json-outputs.js'
import { edgeCounts, type AssetEntry, type EdgeCheckOutcome } from './record.js'

/** Without an edge check the counts are 0 and the rest empty. */
export async function writeEdgeCheckOutputs(
  edgeCheck: EdgeCheckOutcome | undefined,
  io: OutputWriter
): Promise<void> {
  const entries = edgeCheck?.entries
  const counts = edgeCounts(entries ?? [])
  io.setOutput('fresh-count', String(counts.fresh))
  // Every URL not known to be fresh, unreachable ones included: workflows gate on it.
  io.setOutput('stale-count', String((entries?.length ?? 0) - counts.fresh))
  io.setOutput('unreachable-count', String(counts.unreachable))
  if (entries === undefined) {
    io.setOutput('verification', '')
    io.setOutput('verification-file', '')
    return
  }
  const { file, json } = await keepEntries('verification', entries, asItIs, io)
  setBoundedOutput('verification', json(), file, io)
  setFileOutput('verification-file', file, io)
}

/** Left unset without `verify-assets`: a workflow can tell a check of no file from no check. */
export async function writeAssetsOutputs(files: AssetEntry[], io: OutputWriter): Promise<void> {
  const count = (verdict: AssetEntry['verdict']): string =>
    String(files.filter((file) => file.verdict === verdict).length)
  io.setOutput('broken-count', count('broken'))
  io.setOutput('healed-count', count('healed'))
  const { file } = await keepEntries('assets', files, asItIs, io)
  setFileOutput('assets-file', file, io)
}
