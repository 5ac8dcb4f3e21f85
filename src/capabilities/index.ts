/**
 * The list of capabilities, in the order they run and report: each is a small descriptor loaded up
 * front, whose work loads with `import()` only when a run needs it. Adding one is a folder and a
 * line here.
 */
import type { CoreRecord } from '../record/index.js'
import type { Guard } from '../text/guard.js'
import type { Capability, Verdict } from './capability.js'
import { changedFiles } from './changed-files/index.js'
import type { ChangedFilesPart } from './changed-files/record.js'
import { edgeCheck } from './edge-check/index.js'
import type { EdgeCheckPart } from './edge-check/record.js'
import { wait } from './wait/index.js'
import type { WaitPart } from './wait/record.js'

/** Every capability's part of the record. */
export type Parts = Partial<ChangedFilesPart & WaitPart & EdgeCheckPart>

/** What happened in one run: the core's record and each capability's part beside it. */
export type RunRecord = CoreRecord & Parts

export const CAPABILITIES: readonly Capability<Parts>[] = [changedFiles, wait, edgeCheck]

/** What each capability says of the run, in the list's order. */
export const verdictsOf = (record: RunRecord, guard: Guard): Verdict[] =>
  CAPABILITIES.flatMap((capability) => capability.verdict?.(record, guard) ?? [])

/** The capabilities' inputs, which `parseSettings` parses with the core's. */
export const INPUT_PARTS = CAPABILITIES.map((capability) => capability.inputs)
