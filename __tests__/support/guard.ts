/** The guard of a run with no secret: it hides nothing, and escapes and cuts as every guard does. */
import { guardAgainst } from '../../src/text/guard.js'

export const NO_SECRETS = guardAgainst([])
