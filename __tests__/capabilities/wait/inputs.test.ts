/**
 * The inputs of the wait for the origin (wait-for-url, wait-for-text, wait-passes, wait-timeout),
 * read by parseSettings: every refusal comes before any request, naming the inputs concerned.
 */
import { describe, expect, it } from '@jest/globals'
import type { RawInputs } from '../../../src/config/parse-settings.js'
import { API, refusalNaming, settingsOf } from '../../support/parsed-inputs.js'

const ORIGIN = 'https://origin.example/version'

/** Settings of a key purge with these inputs. */
const keysWith = (inputs: Partial<RawInputs>) => settingsOf({ ...API, keys: 'a', ...inputs })

/** The refusal of a key purge with these inputs, naming the inputs concerned. */
const keyPurgeRefusal = (inputs: Partial<RawInputs>, names: [string, ...string[]]): string =>
  refusalNaming({ ...API, keys: 'a', ...inputs }, names)

describe('wait inputs', () => {
  it('reads the URLs, each once, the text, the passes and the timeout', () => {
    const settings = keysWith({
      'wait-for-url': `${ORIGIN}\n https://origin.example/health ${ORIGIN}`,
      'wait-for-text': 'abc1234',
      'wait-passes': '3',
      'wait-timeout': '90'
    })
    expect(settings.wait).toEqual({
      urls: [ORIGIN, 'https://origin.example/health'],
      text: 'abc1234',
      passes: 3,
      timeoutMs: 90_000
    })
  })

  it('waits for one 2xx answer, for up to 600 s, when only wait-for-url is given', () => {
    expect(keysWith({ 'wait-for-url': ORIGIN }).wait).toEqual({
      urls: [ORIGIN],
      text: undefined,
      passes: 1,
      timeoutMs: 600_000
    })
  })

  it('has no wait without wait-for-url', () => {
    expect(keysWith({}).wait).toBeUndefined()
  })

  it.each(['origin.example/version', 'ftp://origin.example/v'])(
    'refuses the wait-for-url %j, naming it',
    (url) => {
      keyPurgeRefusal({ 'wait-for-url': url }, ['wait-for-url'])
    }
  )

  it('refuses wait-for-text without wait-for-url, naming both', () => {
    keyPurgeRefusal({ 'wait-for-text': 'abc1234' }, ['wait-for-text', 'wait-for-url'])
  })

  it.each([
    ['wait-passes', '100', { passes: 100 }],
    ['wait-timeout', '0.5', { timeoutMs: 500 }],
    ['wait-timeout', '21600', { timeoutMs: 21_600_000 }]
  ] as const)('accepts %s: %j', (name, value, expected) => {
    expect(keysWith({ 'wait-for-url': ORIGIN, [name]: value }).wait).toMatchObject(expected)
  })

  it.each([
    ['wait-passes', '0'],
    ['wait-passes', '101'],
    ['wait-timeout', 'soon'],
    ['wait-timeout', '0'],
    ['wait-timeout', '21601']
  ] as const)('refuses %s: %j, naming it', (name, value) => {
    keyPurgeRefusal({ 'wait-for-url': ORIGIN, [name]: value }, [name])
  })
})
