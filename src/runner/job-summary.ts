/** The job summary through the runner: the HTML the report renders, appended to `GITHUB_STEP_SUMMARY`. */
import * as core from '@actions/core'

/**
 * Every outside piece of the HTML passed the guard, which hides secrets before it escapes. Rendered
 * here, so a summary that cannot be rendered fails as one that cannot be written does.
 */
export async function writeSummary(render: () => string): Promise<void> {
  await core.summary.addRaw(render(), true).write()
}
