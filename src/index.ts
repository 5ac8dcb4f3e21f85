/** The bundle's entry: runs the action, and ends the process at once after a cancel. */
import { run } from './main.js'

// A cancelled run must end within the runner's grace period: keep-alive sockets or a slow
// GitHub request must not hold it open once its results are written.
if (await run()) process.exit()
