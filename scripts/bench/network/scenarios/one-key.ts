/** one-key: one surrogate key, one call: the action's start and one connection's round trips. */
import type { NetworkScenario } from '../scenario.js'

export const oneKey: NetworkScenario = {
  name: 'one-key',
  targetAt60: 1.35,
  inputs: (hosts) => ({ ...hosts.apiInputs, keys: 'product-1' })
}
