/** keys300: a typical deploy's 300 keys, given in the `keys` input: 2 calls to the API. */
import { keyList } from '../../numbers.js'
import type { NetworkScenario } from '../scenario.js'

export const keys300: NetworkScenario = {
  name: 'keys300',
  targetAt60: 1.4,
  inputs: (hosts) => ({ ...hosts.apiInputs, keys: keyList(300, 'page').join('\n') })
}
