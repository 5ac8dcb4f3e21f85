/** Unit tests of the result ledger: each call's end turned into its targets' results, in plan order. */
import { describe, expect, it } from '@jest/globals'
import type { CallEnd, PurgeCall, PurgeResult } from '../../src/record/index.js'
import { planPurges } from '../../src/core/plan.js'
import { NOT_SENT_CANCELLED, type Failure } from '../../src/record/failure.js'
import { ResultLedger } from '../../src/core/ledger.js'
import { settingsWith } from '../../tools/defaults.js'

const ID = '1740093-1756794994-11993984'

/** The one call the action plans for these keys. */
function callFor(keys: string[]): PurgeCall {
  const [call, ...rest] = planPurges(settingsWith({ keys }))
  expect(rest).toEqual([])
  return call as PurgeCall
}

/** The results a ledger of this one call gives once it ended so. */
function resultsOf(call: PurgeCall, end: CallEnd): PurgeResult[] {
  const ledger = new ResultLedger([call])
  ledger.ended(0, end)
  return [...ledger.settle({ what: 'not sent' }).results]
}

const answered = (ids: [string, string][], unusable?: [string, Failure][]): CallEnd => ({
  attempts: 1,
  httpStatus: 200,
  ids: new Map(ids),
  unusable: unusable === undefined ? undefined : new Map(unusable),
  failure: undefined
})

describe('the results of a call that was answered', () => {
  it('purges each batch key with its id; a key the answer gave no id failed, saying so', () => {
    const results = resultsOf(
      callFor(['a', 'b', 'c']),
      answered([
        ['a', '1-2-3'],
        ['c', '1-2-5']
      ])
    )
    expect(results.map(({ target, status, id, error }) => [target, status, id, error])).toEqual([
      ['a', 'purged', '1-2-3', null],
      ['b', 'failed', null, 'no purge id returned: the server did not confirm this key'],
      ['c', 'purged', '1-2-5', null]
    ])
  })

  it('fails a key whose id was unusable with the reason the answer gave, and no id', () => {
    const reason = `the server's answer held no usable purge id (got "two lines")`
    const unusable: Failure = { what: reason }
    const results = resultsOf(callFor(['home']), answered([], [['home', unusable]]))
    expect(results).toEqual([
      {
        type: 'key',
        target: 'home',
        service: 'svc123',
        soft: false,
        status: 'failed',
        id: null,
        http_status: 200,
        attempts: 1,
        error: reason,
        failure: unusable
      }
    ])
  })
})

describe('the results of a call that failed', () => {
  it('fail every target of the call with its error', () => {
    const end: CallEnd = {
      attempts: 3,
      httpStatus: 503,
      ids: undefined,
      failure: { what: 'HTTP 503' }
    }
    const results = resultsOf(callFor(['a', 'b']), end)
    expect(results.map(({ status, id, attempts, error }) => [status, id, attempts, error])).toEqual(
      [
        ['failed', null, 3, 'HTTP 503'],
        ['failed', null, 3, 'HTTP 503']
      ]
    )
  })
})

describe('fill', () => {
  it('fails the calls without an end for the reason given, and counts them', () => {
    const ledger = new ResultLedger([callFor(['a']), callFor(['b'])])
    ledger.ended(0, answered([['a', ID]]))
    const { results, counts } = ledger.settle(NOT_SENT_CANCELLED)
    expect(results.map(({ target, status, error }) => [target, status, error])).toEqual([
      ['a', 'purged', null],
      ['b', 'failed', 'not sent: the run was cancelled']
    ])
    expect(counts).toEqual({ purged: 1, failed: 1, planned: 0, total: 2 })
  })

  it('keeps what it gave: an answer arriving after an unexpected error changes nothing', () => {
    const ledger = new ResultLedger([callFor(['a'])])
    ledger.fill({ what: 'not finished', detail: 'edge-purge stopped on an unexpected error' })
    ledger.ended(0, answered([['a', ID]]))
    expect(ledger.results().map(({ status, error }) => [status, error])).toEqual([
      ['failed', 'not finished: edge-purge stopped on an unexpected error']
    ])
  })
})
