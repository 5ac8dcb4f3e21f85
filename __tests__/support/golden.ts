/**
 * The golden runs' record of a run, and its fixture: what `dist-golden.test.ts` compares. Every
 * output, the results and verification files, the annotations, the summary and the whole log, with
 * what differs from one run of the same scene to the next replaced by a placeholder, each for the
 * reason its rule gives.
 */
import { expect } from '@jest/globals'
import { createHash } from 'node:crypto'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { ActionRun } from '../../tools/run-like-runner.js'

const FIXTURES = fileURLToPath(new URL('../fixtures/golden/', import.meta.url))
/** Text longer than this is kept in the fixture as its size and SHA-256. */
const WHOLE_UP_TO = 64 * 1024

/** What differs between two runs of one scene in every text the record keeps, made fixed. */
function fixed(run: ActionRun, text: string): string {
  return (
    text
      // The run's directory is a new temporary one each time (RUNNER_TEMP).
      .replaceAll(run.dir, '$RUNNER_TEMP')
      // Every fake listens on a free port the system picks; the summary escapes the colon.
      .replace(/127\.0\.0\.1(:|&#58;)\d+/g, '127.0.0.1$1PORT')
      // The results and verification files are named with a random UUID.
      .replace(/(edge-purge-(?:results|verification))-[0-9a-f-]{36}/g, '$1-ID')
      // Durations are measured: a call's time, a wait's, how long ago the purge began. Inputs
      // given in seconds (`after 1 s`) are caught too: the scene fixes them anyway.
      .replace(/\b\d+(\.\d+)? (ms|s)\b/g, 'N $2')
      // How many times the edge check looked at a page depends on how long each look took: a
      // re-check is due 0.5 s after the first, and made only if that is before verify-timeout.
      // (The wait's checks are counted as they are: its scene scripts what each check sees.)
      .replace(/"checks":\d+/g, '"checks":N')
      .replace(/<td>\d+<\/td>(<td>Age)/g, '<td>N</td>$1')
      // An instant the action read from its clock (a retry's time, when GitHub lifts a limit).
      .replace(/\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z\b/g, 'INSTANT')
  )
}

/**
 * The log's own rules, on top of `fixed`: the edge check writes a line per look at a page, so the
 * timing-dependent count of looks (see `fixed`) is a count of lines too. A stale page's re-checks
 * that were followed by another are dropped and its last look is numbered N: the log keeps the
 * verdict each URL ended on and why no further look was made. A line whose wording changes is no
 * longer dropped, so the fixture still catches it.
 */
function fixedLog(run: ActionRun): string[] {
  return fixed(run, run.log)
    .split('\n')
    .filter((line) => !/^✗ stale .* \(check \d+; checking again in N s\)$/.test(line))
    .map((line) =>
      line.replace(/^(✗ stale .* \(check )\d+(; no time left to check again\))$/, '$1N$2')
    )
}

/** The record of a run that its fixture holds; `extra` adds what a scene's fakes recorded. */
export async function goldenRecord(
  run: ActionRun,
  extra: Record<string, unknown> = {}
): Promise<Record<string, unknown>> {
  const kept = (text: string): string =>
    text.length <= WHOLE_UP_TO
      ? fixed(run, text)
      : `${Buffer.byteLength(text)} bytes, sha256 ${createHash('sha256').update(fixed(run, text)).digest('hex')}`
  // A file that holds what its output holds is kept once, under the output.
  const file = async (name: string, output: string): Promise<string> => {
    if (run.outputs[name] === '') return ''
    const text = await readFile(run.outputs[name] ?? '', 'utf8')
    return text === run.outputs[output] ? `= outputs.${output}` : kept(text)
  }
  // wait-seconds is the wait's duration in whole seconds: measured, as the durations in `fixed`.
  const outputs = Object.fromEntries(
    Object.entries(run.outputs)
      .filter(([name]) => name !== 'wait-seconds')
      .map(([name, value]) => [name, kept(value)])
  )
  return {
    code: run.code,
    outputs,
    resultsFile: await file('results-file', 'results'),
    verificationFile: await file('verification-file', 'verification'),
    annotations: fixed(run, run.stdout)
      .split('\n')
      .filter((line) => /^::(error|warning|notice)/.test(line)),
    // Both streams as the runner shows them, a line each; joined by '\n' they are the log again.
    log: fixedLog(run),
    summary: kept(run.summary),
    ...extra
  }
}

/** Compares a run's record with the scene's fixture, after rewriting it when GOLDEN_WRITE=1. */
export async function expectGolden(name: string, record: Record<string, unknown>): Promise<void> {
  const path = join(FIXTURES, `${name}.json`)
  if (process.env.GOLDEN_WRITE === '1')
    await writeFile(path, `${JSON.stringify(record, null, 2)}\n`)
  expect(record).toEqual(JSON.parse(await readFile(path, 'utf8')))
}

/** A request as a fake recorded it. */
interface SentRequest {
  method: string
  path: string
  query?: URLSearchParams
  body?: unknown
}

/** What a fake was sent, in the order it arrived: a line each, `METHOD path?query body`. */
export function sentLines(run: ActionRun, requests: readonly SentRequest[]): string[] {
  return requests.map(({ method, path, query, body }) => {
    const search = query === undefined || query.size === 0 ? '' : `?${query.toString()}`
    const text = typeof body === 'string' ? body : body === undefined ? '' : JSON.stringify(body)
    return fixed(run, `${method} ${path}${search}${text === '' ? '' : ` ${text}`}`)
  })
}
