/** Which URLs the edge check looks at, and what a dry run says it would await and check. */
import { describe, expect, it } from '@jest/globals'
import {
  describeCheckPlanned,
  purgedUrlsOf,
  strayEdgeCheckHosts,
  edgeCheckTargetsOf
} from '../../../src/capabilities/edge-check/urls.js'
import { describeWaitPlanned } from '../../../src/capabilities/wait/for-origin.js'
import type { PurgeResult } from '../../../src/record/index.js'
import { purgeUrl } from '../../../src/config/keys-and-urls.js'
import type { EdgeCheckSettings } from '../../../src/config/settings.js'
import { NO_SECRETS } from '../../support/guard.js'

const PAGE = 'https://www.example.com/'

const verify = (overrides: Partial<EdgeCheckSettings>): EdgeCheckSettings => ({
  purgedUrls: false,
  urls: [],
  text: undefined,
  timeoutMs: 60_000,
  assets: false,
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
    error: status === 'failed' ? 'HTTP 403' : null,
    failure: status === 'failed' ? { what: 'HTTP 403' } : null
  }
}

describe('edgeCheckTargetsOf', () => {
  const results = purgedUrlsOf([
    urlResult('https://www.example.com/a#top', 'purged'),
    urlResult('https://www.example.com/b', 'failed'),
    urlResult('https://www.example.com/c', 'purged')
  ])

  it('checks the purged URLs (without fragment) by Age only with verify: true', () => {
    expect(edgeCheckTargetsOf(verify({ purgedUrls: true }), () => results)).toEqual([
      { url: 'https://www.example.com/a', text: undefined },
      { url: 'https://www.example.com/c', text: undefined }
    ])
    expect(edgeCheckTargetsOf(verify({}), () => results)).toEqual([])
  })

  it('reads the results for purged URLs only with verify: true', () => {
    const unread = (): string[] => {
      throw new Error('read every result for nothing')
    }
    expect(edgeCheckTargetsOf(verify({ urls: ['https://www.example.com/x'] }), unread)).toEqual([
      { url: 'https://www.example.com/x', text: undefined }
    ])
  })

  it('adds verify-urls after them, each URL once, judged by the text when given', () => {
    const targets = edgeCheckTargetsOf(
      verify({
        purgedUrls: true,
        urls: ['https://www.example.com/c', 'https://www.example.com/tagged'],
        text: 'abc1234'
      }),
      () => results
    )
    expect(targets).toEqual([
      { url: 'https://www.example.com/a', text: undefined },
      { url: 'https://www.example.com/c', text: 'abc1234' },
      { url: 'https://www.example.com/tagged', text: 'abc1234' }
    ])
  })
})

describe('verify-urls on a host the run does not otherwise use', () => {
  const urls = [
    'https://www.exmaple.com/',
    'https://www.exmaple.com/about',
    'https://www.example.com/b'
  ]

  it('gets one notice per such host when the run purges URLs or waits for one', () => {
    const purged = [purgeUrl('https://www.example.com/a', 'urls', NO_SECRETS)]
    const expected = [
      'verify-urls: 2 URLs are on www.exmaple.com, which no purged URL or wait-for-url uses; check it for a typo'
    ]
    expect(strayEdgeCheckHosts(verify({ urls }), purged, [], NO_SECRETS)).toEqual(expected)
    expect(
      strayEdgeCheckHosts(verify({ urls }), [], ['https://www.example.com/version'], NO_SECRETS)
    ).toEqual(expected)
  })

  it('says nothing when the run names no URL to compare with (keys only)', () => {
    expect(strayEdgeCheckHosts(verify({ urls }), [], [], NO_SECRETS)).toEqual([])
  })
})

describe('what a dry run says the wait and the edge check would do', () => {
  it('says nothing about the edge check when no URL would be checked', () => {
    expect(describeCheckPlanned(verify({ purgedUrls: true }), [], NO_SECRETS)).toBeUndefined()
  })

  it('says what would be awaited and checked, with each URL it would fetch', () => {
    const wait = describeWaitPlanned(
      {
        urls: ['https://origin.example/version', 'https://origin.example/health'],
        text: 'abc\n::error::x',
        passes: 2,
        timeoutMs: 600_000
      },
      NO_SECRETS
    )
    const check = describeCheckPlanned(
      verify({
        purgedUrls: true,
        urls: ['https://www.example.com/', 'https://www.example.com/a'],
        text: 'abc1234'
      }),
      [purgeUrl('https://www.example.com/a#top', 'urls', NO_SECRETS).target],
      NO_SECRETS
    )
    expect([wait, check]).toEqual([
      {
        sentence:
          'Would first wait until each of 2 URLs shows "abc\\\\n::error::x" (2 checks in a row, up to 600 s):',
        urls: ['https://origin.example/version', 'https://origin.example/health'],
        when: 'before'
      },
      {
        sentence:
          'Would then check 2 URLs at the edge, each purged URL by Age, and each of verify-urls by the text "abc1234", re-checking stale ones for up to 60 s:',
        urls: ['https://www.example.com/a', 'https://www.example.com/'],
        when: 'after'
      }
    ])
  })

  it('says the files each page loads would be checked too, with verify-assets', () => {
    const planned = describeCheckPlanned(
      verify({ purgedUrls: true, assets: true }),
      [PAGE],
      NO_SECRETS
    )
    expect(planned?.sentence).toContain('then the files each HTML page loads from its own host')
    expect(planned?.urls).toEqual([PAGE])
  })

  it('lists every URL however many there are: the summary and log bound what they show', () => {
    const urls = Array.from({ length: 300 }, (_, index) => `https://www.example.com/p${index}`)
    expect(describeCheckPlanned(verify({ urls }), [], NO_SECRETS)?.urls).toEqual(urls)
  })
})
