/** The wait's inputs: the URLs that must show the release, what they show, how often, how long. Pure. */
import type { InputPart } from '../../config/parse-settings.js'
import { InputError } from '../../config/input-error.js'
import { parseInteger, parseSeconds } from '../../config/input-values.js'
import { parseCheckUrls } from '../../config/lists.js'

export const waitInputs: InputPart = {
  parse(inputs) {
    const urls = parseCheckUrls(inputs, 'wait-for-url')
    const text = inputs.raw['wait-for-text'] || undefined
    const passes = parseInteger(inputs, 'wait-passes', 1, 100)
    const timeoutMs = parseSeconds(inputs, 'wait-timeout', 21_600) * 1000
    if (urls.length === 0) {
      if (text !== undefined) {
        throw new InputError('wait-for-text needs wait-for-url: the URLs that must show it')
      }
      return {}
    }
    return { wait: { urls, text, passes, timeoutMs } }
  }
}
