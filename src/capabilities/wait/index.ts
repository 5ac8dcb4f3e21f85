/**
 * The wait for the origin: before any purge call, the origin must serve the release (or answer
 * 2xx) enough times in a row; no purge is sent when it does not in time.
 */
import type { Capability, StageEnd } from '../capability.js'
import { NOT_SENT_CANCELLED } from '../../record/failure.js'
import { waitInputs } from './inputs.js'
import { NOT_READY, type WaitOutcome, type WaitPart } from './record.js'
import { waitSection } from './summary.js'

// The checks load only when a run waits, or a dry run describes the wait.
const work = () => import('./for-origin.js')

/** What the wait means for the purge: none is sent unless every URL passed. */
function held(wait: WaitOutcome): StageEnd<WaitPart> {
  const part = { wait }
  if (wait.done) return { part }
  if (wait.cancelled) {
    const hold = {
      failure: NOT_SENT_CANCELLED,
      cancelled: true,
      because: 'cancelled during the wait'
    }
    return { part, hold, stopped: 'Cancelled while waiting for the origin: no purge call was sent' }
  }
  const because = wait.blocked ? 'the origin could not be checked' : 'the origin was not ready'
  const failure = { ...(wait.failure ?? NOT_READY), notSent: true }
  return { part, hold: { failure, cancelled: false, because } }
}

export const wait: Capability<WaitPart> = {
  inputs: waitInputs,
  planned: async ({ wait }, _targets, guard) =>
    wait === undefined ? [] : [(await work()).describeWaitPlanned(wait, guard)],
  async before({ settings }, deps) {
    if (settings.wait === undefined) return { part: {} }
    const { waitForOrigin } = await work()
    return held(await waitForOrigin(settings.wait, deps.limits, await deps.pages()))
  },
  async outputs({ wait }, io) {
    // In whole seconds, as the summary and the wait's failure say it.
    const seconds = wait === undefined ? '' : String(Math.round(wait.elapsedMs / 1000))
    io.setOutput('wait-seconds', seconds)
  },
  sections: {
    lead: ({ wait, settings }, budget, guard) =>
      wait === undefined || settings.wait === undefined
        ? []
        : waitSection(settings.wait, wait, budget, guard)
  }
}
