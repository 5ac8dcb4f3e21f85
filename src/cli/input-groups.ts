/**
 * The inputs of action.yml in groups by purpose, in order, each input in exactly one: the README's
 * usage block (`npm run docs`, scripts/docs.mjs) and `--help` both read them, so a reader looking
 * for the wait's inputs finds them together in both. An input action.yml adds or drops fails
 * `npm run docs` until it is placed here.
 */
import type { InputName } from '../config/parse-settings.js'

export const INPUT_GROUPS: readonly (readonly [title: string, names: readonly InputName[]])[] = [
  ['What to purge', ['mode', 'keys', 'keys-file', 'urls', 'urls-file', 'soft']],
  [
    'The purge API',
    [
      'api-token',
      'base-url',
      'service-id',
      'url-purge-auth',
      'batch-format',
      'batch-size',
      'concurrency',
      'max-attempts',
      'timeout'
    ]
  ],
  ['Changed files', ['changed-files', 'changed-since', 'url-map', 'key-map', 'github-token']],
  ['Wait for the origin', ['wait-for-url', 'wait-for-text', 'wait-passes', 'wait-timeout']],
  ['Edge check', ['verify', 'verify-urls', 'verify-text', 'verify-timeout', 'verify-assets']],
  ['Behaviour', ['dry-run', 'summary', 'fail-on-error', 'repeat-after']]
]
