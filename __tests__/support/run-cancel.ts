/** A run's cancel as the runner door makes it: every check in flight may listen, past Node's 10. */
import { setMaxListeners } from 'node:events'

export function runCancel(): AbortController {
  const cancel = new AbortController()
  setMaxListeners(0, cancel.signal)
  return cancel
}
