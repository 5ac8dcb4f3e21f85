/** The purge-ids output's object (report/purge-ids.ts, pure). */
import { describe, expect, it } from '@jest/globals'
import { purgeIds } from '../src/report/purge-ids.js'
import type { PurgeResult } from '../src/record/index.js'
import { purgeResult } from './support/run-record.js'

/** purge-ids as its output's text. */
const idsJson = (results: PurgeResult[], perService: boolean): string =>
  JSON.stringify(purgeIds(results, perService))

describe('purgeIds', () => {
  it('maps each purged target to its id, skipping failures and purge-all', () => {
    const results = [
      purgeResult({ target: 'a', id: 'id-a' }),
      purgeResult({ target: 'b', status: 'failed', id: null, error: 'HTTP 500' }),
      purgeResult({ type: 'all', target: 'svc123', id: null }),
      purgeResult({ type: 'url', target: 'https://www.example.com/', service: null, id: 'id-u' })
    ]
    expect(idsJson(results, false)).toBe('{"a":"id-a","https://www.example.com/":"id-u"}')
  })

  it('groups by service, keeping a service named __proto__, URLs under urls', () => {
    const results = [
      purgeResult({ service: '__proto__', target: 'k1', id: 'id-1' }),
      purgeResult({ service: 'svc2', target: '__proto__', id: 'id-2' }),
      purgeResult({ type: 'url', service: null, target: 'https://www.example.com/', id: 'id-3' })
    ]
    expect(idsJson(results, true)).toBe(
      '{"__proto__":{"k1":"id-1"},"svc2":{"__proto__":"id-2"},"urls":{"https://www.example.com/":"id-3"}}'
    )
  })

  it('keeps a target given twice in its first place, with its last id', () => {
    const results = [
      purgeResult({ target: 'a', id: 'id-1' }),
      purgeResult({ target: 'b', id: 'id-2' }),
      purgeResult({ type: 'url', target: 'a', service: null, id: 'id-3' })
    ]
    expect(idsJson(results, false)).toBe('{"a":"id-3","b":"id-2"}')
  })

  it('lists a target named like an array index first, as any JSON object does', () => {
    const results = [
      purgeResult({ target: 'b', id: 'id-b' }),
      purgeResult({ target: '42', id: 'id-42' })
    ]
    expect(idsJson(results, false)).toBe('{"42":"id-42","b":"id-b"}')
  })
})
