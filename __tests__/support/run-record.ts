/** A run record for tests of the report: nothing planned or done unless a test says so. */
import { countResults, type PurgeResult } from '../../src/record/index.js'
import { type RunRecord } from '../../src/capabilities/index.js'
import { settingsWith } from '../../tools/defaults.js'

/** Its counts are the given results' own, as the pipeline counts them. */
export function runRecord(overrides: Partial<Omit<RunRecord, 'counts'>> = {}): RunRecord {
  const results = overrides.results ?? []
  return {
    settings: settingsWith({}),
    calls: [],
    plannedStages: [],
    notSent: undefined,
    stopped: undefined,
    unexpectedError: undefined,
    notComplete: undefined,
    ...overrides,
    results,
    counts: countResults(results)
  }
}

/** One key purged in svc123, as the ledger records it, but for what a test says. */
export function purgeResult(overrides: Partial<PurgeResult>): PurgeResult {
  return {
    type: 'key',
    target: 'k1',
    service: 'svc123',
    soft: false,
    status: 'purged',
    id: 'id-1',
    http_status: 200,
    attempts: 1,
    error: null,
    failure: null,
    ...overrides
  }
}
