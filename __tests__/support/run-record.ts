/** A run record for tests of the report: nothing planned or done unless a test says so. */
import type { RunRecord } from '../../src/record.js'
import { settingsWith } from './defaults.js'

export function runRecord(overrides: Partial<RunRecord> = {}): RunRecord {
  return {
    settings: settingsWith({}),
    derivation: undefined,
    calls: [],
    results: [],
    plannedStages: [],
    wait: undefined,
    verification: undefined,
    stopped: undefined,
    recorded: [],
    ...overrides
  }
}
