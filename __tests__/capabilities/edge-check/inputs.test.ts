/**
 * The inputs of the edge check (verify, verify-urls, verify-text, verify-timeout), read by
 * parseSettings: every refusal comes before any request, naming the inputs concerned.
 */
import { describe, expect, it } from '@jest/globals'
import type { RawInputs } from '../../../src/config/parse-settings.js'
import { API, refusalNaming, settingsOf } from '../../support/parsed-inputs.js'

const PAGE = 'https://www.example.com/blog/1'

/** Settings of a key purge with these inputs. */
const keysWith = (inputs: Partial<RawInputs>) => settingsOf({ ...API, keys: 'a', ...inputs })

/** The refusal of a key purge with these inputs, naming the inputs concerned. */
const keyPurgeRefusal = (inputs: Partial<RawInputs>, names: [string, ...string[]]): string =>
  refusalNaming({ ...API, keys: 'a', ...inputs }, names)

describe('edge check inputs', () => {
  it('checks nothing by default, nor with verify: false and no verify-urls', () => {
    expect(keysWith({}).edgeCheck).toBeUndefined()
    expect(keysWith({ verify: 'False' }).edgeCheck).toBeUndefined()
  })

  it('gives a check 60 s by default', () => {
    expect(keysWith({ verify: 'true' }).edgeCheck).toEqual({
      purgedUrls: true,
      urls: [],
      text: undefined,
      timeoutMs: 60_000,
      assets: false
    })
  })

  it('reads verify-urls, each once, and verify-text', () => {
    expect(
      keysWith({ 'verify-urls': `${PAGE} ${PAGE}`, 'verify-text': 'abc1234' }).edgeCheck
    ).toEqual({
      purgedUrls: false,
      urls: [PAGE],
      text: 'abc1234',
      timeoutMs: 60_000,
      assets: false
    })
  })

  it.each([
    ['verify-timeout', '0.5', { timeoutMs: 500 }],
    ['verify-timeout', '3600', { timeoutMs: 3_600_000 }]
  ] as const)('accepts %s: %j', (name, value, expected) => {
    expect(keysWith({ verify: 'true', [name]: value }).edgeCheck).toMatchObject(expected)
  })

  it.each([
    ['verify', 'maybe'],
    ['verify-timeout', '0'],
    ['verify-timeout', '3601']
  ] as const)('refuses %s: %j, naming it', (name, value) => {
    keyPurgeRefusal({ [name]: value }, [name])
  })

  it('refuses a relative verify-url, naming verify-urls', () => {
    keyPurgeRefusal({ 'verify-urls': '/blog/1' }, ['verify-urls'])
  })

  it('refuses a verify-url with credentials, naming verify-urls without echoing them', () => {
    const message = keyPurgeRefusal({ 'verify-urls': 'https://user:pw@www.example.com/' }, [
      'verify-urls'
    ])
    expect(message).not.toContain('pw')
  })

  it('refuses verify-text without verify-urls, naming both', () => {
    keyPurgeRefusal({ 'verify-text': 'abc1234' }, ['verify-text', 'verify-urls'])
  })

  it('checks the files each page loads with verify-assets, beside verify or verify-urls', () => {
    expect(keysWith({ verify: 'true', 'verify-assets': 'true' }).edgeCheck?.assets).toBe(true)
    expect(keysWith({ 'verify-urls': PAGE, 'verify-assets': 'true' }).edgeCheck?.assets).toBe(true)
  })

  it('refuses verify-assets without a page to check, naming verify and verify-urls', () => {
    keyPurgeRefusal({ 'verify-assets': 'true' }, ['verify-assets', 'verify', 'verify-urls'])
    keyPurgeRefusal({ 'verify-assets': 'maybe', verify: 'true' }, ['verify-assets'])
  })
})
