/** The bundle's entry: runs the action, and ends the process at once after a cancel. */
import { run } from './main.js'

// Not a top-level await: with one, ncc wraps the whole program in an async module whose body V8
// parses a second time when it runs, on every start.
// A cancelled run must end within the runner's grace period: keep-alive sockets or a slow
// GitHub request must not hold it open once its results are written.
void run().then((cancelled) => {
  if (cancelled) process.exit()
})
