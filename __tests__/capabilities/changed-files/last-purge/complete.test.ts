/** What makes a run's purge of a service complete (complete.ts), so its purge mark says success. */
import { describe, expect, it } from '@jest/globals'
import { decideMarks } from '../../../../src/capabilities/changed-files/last-purge/complete.js'
import { edgeCheckVerdict } from '../../../../src/capabilities/edge-check/verdict.js'
import type { EdgeCheckEntry } from '../../../../src/capabilities/edge-check/record.js'
import { NO_SECRETS } from '../../../support/guard.js'
import { COMPLETE } from '../../../support/purge-marks.js'
import { purgeResult } from '../../../support/run-record.js'

/** Why the mark of `service`, opened, is decided `failure`; `undefined` when it says success. */
function incompleteBecause(run: typeof COMPLETE, service: string): string | undefined {
  const [mark] = decideMarks(
    [{ service, sha: 'abc1234', deploymentId: 1, refusal: undefined }],
    run
  )
  return mark?.state === 'success' ? undefined : mark?.why
}

/** Why the edge check finds a run with these pages not complete, as the pipeline asks it. */
function checked(fresh: boolean[]): string | undefined {
  const entries: EdgeCheckEntry[] = fresh.map((isFresh, index) => ({
    url: `https://www.example.com/${index}`,
    fresh: isFresh,
    http_status: 200,
    age: 0,
    checks: 1,
    evidence: ''
  }))
  return edgeCheckVerdict(entries, NO_SECRETS).incomplete
}

describe('a complete purge', () => {
  it('is every target of the service and every URL purged, and every checked page fresh', () => {
    const results = [purgeResult({}), purgeResult({ type: 'url', service: null })]
    expect(
      incompleteBecause({ ...COMPLETE, results, notComplete: checked([true]) }, 'svc123')
    ).toBe(undefined)
  })

  it('is a run that purged nothing', () => {
    expect(incompleteBecause(COMPLETE, 'svc123')).toBe(undefined)
  })

  it('is not one with a failed target of the service, or a failed URL', () => {
    const failedKey = [purgeResult({ status: 'failed' })]
    const failedUrl = [purgeResult({ type: 'url', service: null, status: 'failed' })]
    expect(incompleteBecause({ ...COMPLETE, results: failedKey }, 'svc123')).toBe(
      '1 target not purged'
    )
    expect(incompleteBecause({ ...COMPLETE, results: failedUrl }, 'svc123')).toBe(
      '1 target not purged'
    )
  })

  it('does not count another service’s failed key against this one', () => {
    const results = [purgeResult({ service: 'other', status: 'failed' }), purgeResult({})]
    expect(incompleteBecause({ ...COMPLETE, results }, 'svc123')).toBe(undefined)
  })

  it('is not one when the repeat pass failed', () => {
    const results = [purgeResult({ repeat: { status: 'failed', id: null, attempts: 5 } })]
    expect(incompleteBecause({ ...COMPLETE, results }, 'svc123')).toBe('1 target not purged')
  })

  it('is not one with a page stale or unchecked at the edge, a cancel or an unexpected error', () => {
    expect(incompleteBecause({ ...COMPLETE, notComplete: checked([true, false]) }, 'svc123')).toBe(
      '1 page not fresh at the edge'
    )
    expect(incompleteBecause({ ...COMPLETE, stopped: 'Cancelled' }, 'svc123')).toBe(
      'the run was cancelled'
    )
    const unexpectedError = 'edge-purge stopped on an unexpected error: Cannot find module'
    expect(incompleteBecause({ ...COMPLETE, unexpectedError }, 'svc123')).toBe(
      'the run stopped on an unexpected error'
    )
  })
})
