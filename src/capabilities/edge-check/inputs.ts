/** The edge check's inputs: whether purged URLs are checked, which pages besides, by what, how long. Pure. */
import type { InputPart } from '../../config/parse-settings.js'
import { InputError } from '../../config/input-error.js'
import { parseBoolean, parseSeconds } from '../../config/input-values.js'
import { parseCheckUrls } from '../../config/lists.js'

export const edgeCheckInputs: InputPart = {
  parse(inputs) {
    const urls = parseCheckUrls(inputs, 'verify-urls')
    const text = inputs.raw['verify-text'] || undefined
    if (text !== undefined && urls.length === 0) {
      throw new InputError(
        'verify-text needs verify-urls: only the pages listed there are judged by the text (purged URLs are judged by Age)'
      )
    }
    const purgedUrls = parseBoolean(inputs, 'verify')
    const timeoutMs = parseSeconds(inputs, 'verify-timeout', 3600) * 1000
    const assets = parseBoolean(inputs, 'verify-assets')
    // Nothing to check: no edge check, nor its settings.
    if (!purgedUrls && urls.length === 0) {
      if (assets) {
        throw new InputError(
          'verify-assets needs verify: true or verify-urls: the files checked are those the pages checked at the edge load'
        )
      }
      return {}
    }
    return { edgeCheck: { purgedUrls, urls, text, timeoutMs, assets } }
  }
}
