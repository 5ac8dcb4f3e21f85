/** keys10k: 10,000 keys from a keys-file, in JSON batches of 256: 40 calls to the API. */
import { keyList } from '../../numbers.js'
import type { NetworkScenario } from '../scenario.js'

export const keys10k: NetworkScenario = {
  name: 'keys10k',
  targetAt60: 1.3,
  inputs: (hosts) => ({ ...hosts.apiInputs, 'keys-file': 'keys.txt' }),
  files: { 'keys.txt': keyList(10_000, 'product').join('\n') }
}
