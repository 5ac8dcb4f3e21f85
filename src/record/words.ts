/** What the log and a dry run's summary say of a call, in a few words. Pure. */
import { counted } from '../text/counted.js'
import type { Guard } from '../text/guard.js'
import type { PurgeCall } from './index.js'

/** URLs and file paths: long enough for any a CDN or a repository holds in practice, shown whole. */
const SHOWN_ADDRESS_CHARS = 2000

/** A call in one line of the log: method, address, how many keys, soft. */
export function describeCall(call: PurgeCall, guard: Guard): string {
  const count = call.targets.length
  const what = call.operation === 'batch' ? ` (${counted(count, 'key')})` : ''
  return `${call.method} ${guard.oneLine(call.url, SHOWN_ADDRESS_CHARS)}${what}${call.soft ? ' soft' : ''}`
}
