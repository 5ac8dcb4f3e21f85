/** The job summary through the runner: the HTML the report rendered, appended to `GITHUB_STEP_SUMMARY`. */
import * as core from '@actions/core'

/** Every outside piece of `html` passed the guard, which hides secrets before it escapes. */
export async function writeSummary(html: string): Promise<void> {
  await core.summary.addRaw(html, true).write()
}
