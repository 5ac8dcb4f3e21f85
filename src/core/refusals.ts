/**
 * The failures a purge call's refusal or unreached host means, by what the call asked: the token
 * a 401 rejects, the permission a 403 names, the base-url a 404 or a failed connection points at,
 * a redirect's target. Pure.
 */
import type { IncomingHttpHeaders } from 'node:http'
import { withoutCredentials } from '../config/keys-and-urls.js'
import { portOf } from '../http/blocked.js'
import { headerValue } from '../http/retry-policy.js'
import type { Failure } from '../record/failure.js'
import type { PurgeCall } from '../record/index.js'
import type { Guard } from '../text/guard.js'
import { plainLine } from '../text/shown.js'

/**
 * Why a management call reached nothing at `base-url`'s host, when that host is the likely cause:
 * its name is not in DNS, or nothing takes connections at its port. Other failures (a reset, a
 * timeout, TLS) say nothing of the address and keep their own words; so does any failure to reach
 * a proxy, which its tunnel reports as ECONNRESET.
 */
export function unreachableBaseUrl(
  call: PurgeCall,
  code: string | undefined,
  guard: Guard
): Failure | undefined {
  if (call.service === undefined) return undefined
  const url = new URL(call.url)
  const named = `${plainLine(guard, withoutCredentials(url.hostname))}, the host in base-url,`
  switch (code) {
    case 'ENOTFOUND':
      return { what: `${named} was not found in DNS (ENOTFOUND)`, detail: 'check base-url' }
    case 'EAI_AGAIN':
      return {
        what: `${named} could not be looked up in DNS (EAI_AGAIN)`,
        detail: 'check base-url'
      }
    case 'ECONNREFUSED': {
      const port = portOf(url)
      return {
        what: `${named} refused the connection on port ${port} (ECONNREFUSED)`,
        detail: "check base-url's host and port"
      }
    }
    default:
      return undefined
  }
}

/** A redirect, which purge calls never follow, and where it pointed. */
export function redirected(status: number, headers: IncomingHttpHeaders, guard: Guard): Failure {
  const location = headerValue(headers, 'location')
  const where =
    location === undefined
      ? 'without a Location'
      : `to ${plainLine(guard, withoutCredentials(location), 200)}`
  return {
    what: `redirected (${status}) ${where}`,
    detail:
      'purge calls do not follow redirects, so the token and the purge never go elsewhere; use the final address'
  }
}

/**
 * A 404 of a management call: a base-url with a path (`/v1`) is a likelier cause than the service,
 * since the API's paths start at its root.
 */
export function notFound(call: PurgeCall, service: string, guard: Guard): Failure {
  const { pathname } = new URL(call.url)
  const basePath = pathname.slice(0, pathname.lastIndexOf('/service/'))
  if (basePath === '') return { what: `service ${service} not found (404)` }
  return {
    what: 'not found (404)',
    detail: `base-url has the path ${plainLine(guard, basePath, 100)}; the API's paths start at its root, so give base-url without it (else service ${service} does not exist)`
  }
}

/** A 401: the token was rejected, or the host wants one for URL purges. */
export function unauthorized(call: PurgeCall, host: string): Failure {
  if (call.authenticated) {
    return { what: 'the API token was rejected (401)', detail: 'check the secret behind api-token' }
  }
  return {
    what: `${host} requires authentication for URL purges (401)`,
    detail: 'set url-purge-auth: true to send api-token'
  }
}

/** A 403: what the token lacks for the call's permission, or what the host may not allow. */
export function forbidden(call: PurgeCall, host: string): Failure {
  switch (call.permission) {
    case 'engineer':
      return {
        what: 'purge-all was refused (403)',
        detail: 'the token needs Engineer permission or higher'
      }
    case 'billing':
      return {
        what: 'soft purge was refused (403)',
        detail: 'the token needs Billing permission or higher'
      }
    case 'purge':
      return {
        what: 'key purge was refused (403)',
        detail: `the token may not purge service ${call.service ?? ''}`
      }
    case 'url-purge':
      return {
        what: `URL purge was refused (403) by ${host}`,
        detail:
          'URL purging may not be enabled there (it is off by default), or it needs url-purge-auth: true'
      }
  }
}
