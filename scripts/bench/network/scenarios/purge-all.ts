/** purge-all: the whole service, one call. */
import type { NetworkScenario } from '../scenario.js'

export const purgeAll: NetworkScenario = {
  name: 'purge-all',
  inputs: (hosts) => ({ ...hosts.apiInputs, mode: 'all' })
}
