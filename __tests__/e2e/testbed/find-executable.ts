/** Where a Debian package's daemon is installed: the real-software suites skip without it. */
import { accessSync, constants } from 'node:fs'
import { delimiter, join } from 'node:path'

/**
 * `$<variable>` if set (an empty or wrong value means "none"), else the first executable `name` on
 * PATH or in the sbin directories Debian uses, which PATH may lack.
 */
export function findExecutable(name: string, variable: string): string | undefined {
  const executable = (path: string): boolean => {
    try {
      accessSync(path, constants.X_OK)
      return true
    } catch {
      return false
    }
  }
  const override = process.env[variable]
  if (override !== undefined) return override !== '' && executable(override) ? override : undefined
  const dirs = [
    ...(process.env.PATH ?? '').split(delimiter),
    '/usr/sbin',
    '/usr/local/sbin',
    '/sbin'
  ]
  return dirs
    .filter((dir) => dir !== '')
    .map((dir) => join(dir, name))
    .find(executable)
}
