/** Entries of an edge check as the report reads them: a stale page, and others made from it. */
import type { EdgeCheckEntry } from '../../src/capabilities/edge-check/record.js'

/** A page that answered with an old copy: `Age` older than the purge. */
export const staleEntry = (
  url: string,
  evidence = 'Age 3600 s, but the purge began 3 s ago'
): EdgeCheckEntry => ({ url, fresh: false, http_status: 200, age: 3600, checks: 3, evidence })
