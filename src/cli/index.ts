#!/usr/bin/env node
/** The command's entry: runs it, and ends the process at once after a cancel. */
import { runCommand } from './command.js'

// Not a top-level await: with one, ncc wraps the whole program in an async module.
void runCommand(process.argv.slice(2), process.env).then(({ code, cancelled }) => {
  process.exitCode = code
  // After a cancel, keep-alive sockets or a slow request must not hold the process open.
  if (cancelled) process.exit()
})
