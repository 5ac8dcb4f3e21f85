/**
 * What the purge API calls need: the services they go to (service-id, base-url) and the api-token
 * they carry, which must be set when sent and never cross the network in clear text. Pure.
 */
import type { RawInputs, RunInputs } from './parse-settings.js'
import type { Service } from './settings.js'
import type { UrlMapping } from './maps.js'
import { InputError } from './input-error.js'
import { isLoopbackHost, parseHttpUrl, type PurgeUrl } from './keys-and-urls.js'
import { listItems } from './lists.js'
import type { Guard } from '../text/guard.js'
import { shorten } from '../text/shown.js'

/** Why an input fed from a secret or variable arrives empty, short of GitHub withholding it. */
const NOT_SET = 'may not be set in this repository, or only in an environment the job does not name'

/**
 * Refuses an empty api-token. Called only when the run sends it: for a whole service, for keys, or
 * for URLs with url-purge-auth; the message names which.
 */
export function requireApiToken(raw: RawInputs, purgeAll: boolean, needsService: boolean): void {
  if (raw['api-token'] !== '') return
  throw new InputError(
    `api-token is required to purge ${purgeAll ? 'a whole service' : needsService ? 'surrogate keys' : 'URLs with url-purge-auth: true'}. It is empty: the secret behind it ${NOT_SET}, or this run gets no Actions secrets (runs triggered by a pull request from a fork or by Dependabot do not)`
  )
}

/** One service id, or several separated by newlines or commas: keys and purge-all go to each. */
export function parseServices(inputs: RunInputs): Service[] {
  const { raw, guard } = inputs
  const ids = parseServiceIds(inputs)
  if (ids.length === 0) {
    throw new InputError(
      `service-id is required to purge surrogate keys or a whole service. It is empty: the secret or variable behind it ${NOT_SET}, or this run gets none (a run triggered by a pull request from a fork gets no Actions secrets or variables; one triggered by Dependabot gets variables but no Actions secrets)`
    )
  }
  if (raw['base-url'] === '') {
    throw new InputError(
      'base-url is required to purge surrogate keys or a whole service, e.g. https://api.example-cdn.com'
    )
  }
  const base = parseHttpUrl(raw['base-url'], 'base-url', guard)
  if (base.search !== '' || base.hash !== '') {
    throw new InputError('base-url: give the management address without a query or fragment')
  }
  if (base.pathname.split('/').includes('service')) {
    throw new InputError(
      `base-url: ${shorten(guard, raw['base-url'])} holds /service/ in its path; give the management address only (e.g. https://api.example-cdn.com): the action appends /service/{service-id}/... itself`
    )
  }
  requireSafeTransport(base, 'base-url')
  const baseUrl = base.href.replace(/\/+$/, '')
  return ids.map((id) => ({ id, baseUrl }))
}

/** The service ids, each a safe path segment of printable ASCII; empty when none is given. */
export function parseServiceIds({ raw, guard }: RunInputs): string[] {
  const ids = new Set(listItems(raw['service-id'], 'service-id', guard))
  for (const id of ids) {
    if (id === '.' || id === '..') {
      throw new InputError(
        `service-id: ${shorten(guard, id)} is not a service id: URLs read . and .. as path steps, so its calls would go to another address than a service's (.. would make {base-url}/purge_all)`
      )
    }
    if (!/^[\x21-\x7e]+$/.test(id)) {
      throw new InputError(
        `service-id: ${shorten(guard, id)} is not a service id: give printable ASCII ids without spaces, separated by newlines or commas`
      )
    }
  }
  return [...ids]
}

/** url-purge-auth sends api-token with every URL purge: each URL and url-map prefix is checked. */
export function requireSafeUrlPurges(urls: PurgeUrl[], urlMap: UrlMapping[], guard: Guard): void {
  for (const { url, target } of urls) requireSafeTransport(url, `urls: ${shorten(guard, target)}`)
  for (const { urlPrefix, line } of urlMap) {
    requireSafeTransport(new URL(urlPrefix), `url-map line ${line}`)
  }
}

/**
 * Whether the token would cross the network in clear text to `url`: over http, beyond loopback
 * (allowed for local test servers).
 */
export function wouldExposeToken(url: URL): boolean {
  return url.protocol === 'http:' && !isLoopbackHost(url.hostname)
}

function requireSafeTransport(url: URL, source: string): void {
  if (wouldExposeToken(url)) {
    throw new InputError(
      `${source}: http:// would send api-token unencrypted to ${url.host}; use https:// (http is allowed only for localhost, 127.0.0.0/8 and ::1)`
    )
  }
}
