/**
 * Inputs and settings at their defaults, shared by the unit tests and `npm run summary-example`: one
 * place to follow action.yml.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parse } from 'yaml'
import { INPUT_NAMES, type RawInputs } from '../src/config/parse-settings.js'
import type { Settings } from '../src/config/settings.js'

const actionYml = parse(
  readFileSync(join(fileURLToPath(new URL('..', import.meta.url)), 'action.yml'), 'utf8')
) as { inputs: Record<string, { default?: string }> }

/** Every input at its action.yml default (or empty), as the runner passes them. */
export const DEFAULT_INPUTS = Object.fromEntries(
  INPUT_NAMES.map((name) => [name, actionYml.inputs[name]?.default ?? ''])
) as RawInputs

export const TEST_BASE = 'https://api.example-cdn.com'
export const TEST_SERVICE = 'svc123'

/** Settings as the defaults give them for one service and nothing to purge yet; override per test. */
export function settingsWith(overrides: Partial<Settings>): Settings {
  return {
    services: [{ id: TEST_SERVICE, baseUrl: TEST_BASE }],
    purgeAll: false,
    keys: [],
    urls: [],
    soft: false,
    batchFormat: 'json',
    batchSize: 256,
    concurrency: 8,
    maxAttempts: 5,
    timeoutMs: 30_000,
    urlPurgeAuth: false,
    dryRun: false,
    summary: true,
    failOnError: true,
    repeatAfterMs: 0,
    changedFiles: undefined,
    lastPurge: undefined,
    wait: undefined,
    edgeCheck: undefined,
    ...overrides
  }
}
