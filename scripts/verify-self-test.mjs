// Checks the self-test job of .github/workflows/ci.yml: the outputs of each `uses: ./` step, and
// what the fake purge API (npm run fake-server --state-file) says it received.
// Reads KEYS_OUTPUTS, URLS_OUTPUTS, DRY_RUN_OUTPUTS, REJECTED_OUTPUTS (each `toJSON(steps.<id>.outputs)`),
// REJECTED_OUTCOME, FAKE_URL and FAKE_STATE (the state file's path). Exits 1 on any mismatch.
import { existsSync, readFileSync } from 'node:fs'

const problems = []
let checks = 0

function check(condition, what) {
  checks += 1
  if (condition) console.log(`ok   ${what}`)
  else {
    console.log(`FAIL ${what}`)
    problems.push(what)
  }
}

function env(name) {
  const value = process.env[name]
  if (value === undefined || value === '') throw new Error(`${name} is not set`)
  return value
}

function json(text, what) {
  try {
    return JSON.parse(text)
  } catch {
    throw new Error(`${what} is not JSON: ${text.slice(0, 200)}`)
  }
}

const sameSet = (a, b) =>
  a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n')

/** Every output is set, and the two counts are the expected ones. */
function checkCounts(step, outputs, expected) {
  for (const name of [
    'purge-ids',
    'purge-id',
    'results',
    'purged-count',
    'failed-count',
    'results-file'
  ]) {
    check(name in outputs, `${step}: output ${name} is set`)
  }
  check(
    outputs['purged-count'] === String(expected.purged),
    `${step}: purged-count is ${expected.purged} (got ${outputs['purged-count']})`
  )
  check(
    outputs['failed-count'] === String(expected.failed),
    `${step}: failed-count is ${expected.failed} (got ${outputs['failed-count']})`
  )
}

/** purge-ids names exactly the expected targets, and purge-id is its one id or empty. */
function checkIds(step, outputs, expected) {
  const ids = json(outputs['purge-ids'] ?? '', `${step}: purge-ids`)
  check(
    sameSet(Object.keys(ids), expected.ids),
    `${step}: purge-ids has exactly ${JSON.stringify(expected.ids)} (got ${JSON.stringify(Object.keys(ids))})`
  )
  check(
    Object.values(ids).every((id) => typeof id === 'string' && id !== ''),
    `${step}: every purge id is a non-empty string`
  )
  const single = Object.values(ids).length === 1 ? Object.values(ids)[0] : ''
  check(
    outputs['purge-id'] === single,
    `${step}: purge-id is ${single === '' ? 'empty' : 'the one id'}`
  )
}

/** results covers exactly the expected targets with the expected status, as results-file does. */
function checkResults(step, outputs, expected) {
  const results = json(outputs.results ?? '', `${step}: results`)
  check(
    Array.isArray(results) && results.length === expected.targets.length,
    `${step}: results has ${expected.targets.length} entries`
  )
  check(
    sameSet(
      results.map((result) => result.target),
      expected.targets
    ),
    `${step}: results cover exactly the requested targets`
  )
  check(
    results.every((result) => result.status === expected.status),
    `${step}: every result is ${expected.status}`
  )

  const file = outputs['results-file'] ?? ''
  check(file !== '' && existsSync(file), `${step}: results-file exists (${file})`)
  if (file !== '' && existsSync(file)) {
    check(
      readFileSync(file, 'utf8') === outputs.results,
      `${step}: results-file holds the same array as results`
    )
  }
  return results
}

/** The checks every run's outputs must pass, whatever it purged. */
function checkOutputs(step, outputs, expected) {
  checkCounts(step, outputs, expected)
  checkIds(step, outputs, expected)
  return checkResults(step, outputs, expected)
}

try {
  const url = env('FAKE_URL')
  const keys = ['homepage', 'product-42', 'product-43', 'product-44']
  const urls = [`${url}/products/42`, `${url}/products/43?page=2`]

  const keyResults = checkOutputs('keys', json(env('KEYS_OUTPUTS'), 'KEYS_OUTPUTS'), {
    purged: 4,
    failed: 0,
    ids: keys,
    targets: keys,
    status: 'purged'
  })
  check(
    keyResults.every(
      (result) => result.type === 'key' && !result.soft && result.http_status === 200
    ),
    'keys: instant key purges answered 200'
  )

  const urlResults = checkOutputs('urls', json(env('URLS_OUTPUTS'), 'URLS_OUTPUTS'), {
    purged: 2,
    failed: 0,
    ids: urls,
    targets: urls,
    status: 'purged'
  })
  check(
    urlResults.every((result) => result.type === 'url' && result.soft),
    'urls: soft URL purges'
  )

  const planned = checkOutputs('dry-run', json(env('DRY_RUN_OUTPUTS'), 'DRY_RUN_OUTPUTS'), {
    purged: 0,
    failed: 0,
    ids: [],
    targets: ['svc123'],
    status: 'planned'
  })
  check(
    planned[0]?.type === 'all' && planned[0]?.attempts === 0,
    'dry-run: one purge-all planned, not sent'
  )

  check(env('REJECTED_OUTCOME') === 'failure', 'rejected: the step failed')
  const rejected = checkOutputs('rejected', json(env('REJECTED_OUTPUTS'), 'REJECTED_OUTPUTS'), {
    purged: 0,
    failed: 2,
    ids: [],
    targets: ['stale-a', 'stale-b'],
    status: 'failed'
  })
  const sent = rejected.filter((result) => result.attempts > 0)
  check(sent.length === 1 && sent[0].http_status === 401, 'rejected: one request, answered 401')
  check(
    rejected
      .filter((result) => result.attempts === 0)
      .every((result) => result.error.startsWith('not sent:')),
    'rejected: the other key was not sent'
  )

  const state = json(readFileSync(env('FAKE_STATE'), 'utf8'), 'FAKE_STATE')
  check(
    sameSet(
      state.purgedKeys.map((entry) => entry.key),
      keys
    ),
    'fake API: purged exactly the four keys'
  )
  check(
    state.purgedKeys.every((entry) => entry.service === 'svc123' && !entry.soft),
    'fake API: instant purges of service svc123'
  )
  check(
    state.requests.filter((request) => request.path === '/service/svc123/purge').length === 3,
    'fake API: 3 batch calls (the four keys in two, and the one rejected)'
  )
  check(
    sameSet(
      state.purgedUrls.map((entry) => entry.url),
      urls
    ) && state.purgedUrls.every((entry) => entry.soft),
    'fake API: soft-purged exactly the two URLs'
  )
  check(state.purgeAlls.length === 0, 'fake API: the dry run sent no purge-all')
  check(
    state.requests.length === 5,
    `fake API: 5 requests in all (2 batches, 2 URLs, 1 rejected; got ${state.requests.length})`
  )
} catch (error) {
  problems.push(error instanceof Error ? error.message : String(error))
  console.log(`FAIL ${problems.at(-1)}`)
}

console.log(`\n${checks} checks, ${problems.length} failed`)
process.exit(problems.length === 0 ? 0 : 1)
