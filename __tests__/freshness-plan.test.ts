/** Which URLs the edge check looks at, and what a dry run says it would await and check. */
import { describe, expect, it } from '@jest/globals'
import { describeStagesPlanned, verifyTargetsOf } from '../src/freshness-plan.js'
import type { VerifySettings } from '../src/inputs.js'
import type { PurgeResult } from '../src/results.js'
import { settingsWith } from './support/defaults.js'

const verify = (overrides: Partial<VerifySettings>): VerifySettings => ({
  purgedUrls: false,
  urls: [],
  text: undefined,
  timeoutMs: 60_000,
  ...overrides
})

function urlResult(target: string, status: PurgeResult['status']): PurgeResult {
  return {
    type: 'url',
    target,
    service: null,
    soft: false,
    status,
    id: status === 'purged' ? '1-2-3' : null,
    http_status: 200,
    attempts: 1,
    error: status === 'failed' ? 'HTTP 403' : null
  }
}

describe('verifyTargetsOf', () => {
  const results = [
    urlResult('https://www.example.com/a#top', 'purged'),
    urlResult('https://www.example.com/b', 'failed'),
    urlResult('https://www.example.com/c', 'purged')
  ]

  it('checks the purged URLs (without fragment) by Age only with verify: true', () => {
    expect(verifyTargetsOf(verify({ purgedUrls: true }), results)).toEqual([
      { url: 'https://www.example.com/a', text: undefined },
      { url: 'https://www.example.com/c', text: undefined }
    ])
    expect(verifyTargetsOf(verify({}), results)).toEqual([])
  })

  it('adds verify-urls after them, each URL once, judged by the text when given', () => {
    const targets = verifyTargetsOf(
      verify({
        purgedUrls: true,
        urls: ['https://www.example.com/c', 'https://www.example.com/tagged'],
        text: 'abc1234'
      }),
      results
    )
    expect(targets).toEqual([
      { url: 'https://www.example.com/a', text: undefined },
      { url: 'https://www.example.com/c', text: 'abc1234' },
      { url: 'https://www.example.com/tagged', text: 'abc1234' }
    ])
  })
})

describe('describeStagesPlanned', () => {
  it('says nothing without a wait or an edge check', () => {
    expect(describeStagesPlanned(settingsWith({}))).toEqual([])
  })

  it('says what would be awaited and checked, one line each, with outside text on one line', () => {
    const lines = describeStagesPlanned(
      settingsWith({
        wait: {
          urls: ['https://origin.example/version'],
          text: 'abc\n::error::x',
          passes: 2,
          timeoutMs: 600_000
        },
        verify: verify({ purgedUrls: true, urls: ['https://www.example.com/'], text: 'abc1234' })
      })
    )
    expect(lines).toEqual([
      'Would first wait until https://origin.example/version shows "abc\\\\n::error::x" (2 checks in a row, up to 600 s)',
      'Would then check at the edge every purged URL, by Age, and 1 URL of verify-urls, by the text "abc1234", re-checking stale ones for up to 60 s'
    ])
  })
})
