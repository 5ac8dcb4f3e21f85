/** urls100: 100 URLs purged with PURGE at the content host (not the API), through its own proxy. */
import { keyList } from '../../numbers.js'
import type { NetworkScenario } from '../scenario.js'

export const urls100: NetworkScenario = {
  name: 'urls100',
  targetAt60: 1.2,
  inputs: (hosts) => ({ urls: keyList(100, `${hosts.contentUrl}/page`).join('\n') })
}
