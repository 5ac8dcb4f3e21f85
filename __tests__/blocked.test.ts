/**
 * What blocks a request for good, read from an error's cause chain as `tunnel` (the purge transport)
 * and undici (GitHub's client) report it, and the proxy named without its credentials.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { blockedBy, describeBlocked, proxyFor } from '../src/http/blocked.js'

const API = new URL('https://api.example-cdn.com/service/svc/purge')

/** An error as node reports it: a message, a code, a cause. */
function failure(message: string, code?: string, cause?: unknown): Error {
  return Object.assign(new Error(message, { cause }), code === undefined ? {} : { code })
}

describe('blockedBy', () => {
  let saved: string | undefined
  beforeEach(() => {
    saved = process.env.HTTPS_PROXY
    process.env.HTTPS_PROXY = 'http://alice:s3cret@proxy.corp.example:3128'
  })
  afterEach(() => {
    if (saved === undefined) delete process.env.HTTPS_PROXY
    else process.env.HTTPS_PROXY = saved
  })

  it("reads tunnel's refused CONNECT, naming the proxy by host and port only", () => {
    const error = failure('tunneling socket could not be established, statusCode=407', 'ECONNRESET')
    const blocked = blockedBy(error, API)
    expect(blocked).toEqual({
      kind: 'proxy',
      status: 407,
      proxy: 'proxy.corp.example:3128',
      target: 'api.example-cdn.com:443'
    })
    expect(JSON.stringify(blocked)).not.toContain('alice')
    expect(JSON.stringify(blocked)).not.toContain('s3cret')
  })

  it("reads undici's refusal a few causes down, under a generic abort", () => {
    const proxy = failure('Proxy response (403) !== 200 when HTTP Tunneling', 'UND_ERR_ABORTED')
    const error = failure('fetch failed', undefined, failure('aborted', 'UND_ERR_ABORTED', proxy))
    expect(blockedBy(error, API)).toMatchObject({ kind: 'proxy', status: 403 })
  })

  it('reads a certificate code anywhere in the chain', () => {
    const error = failure(
      'fetch failed',
      undefined,
      failure('self-signed', 'SELF_SIGNED_CERT_IN_CHAIN')
    )
    expect(blockedBy(error, API)).toEqual({
      kind: 'certificate',
      code: 'SELF_SIGNED_CERT_IN_CHAIN',
      host: 'api.example-cdn.com'
    })
  })

  it('leaves failures a retry can pass, and a real cancel, alone', () => {
    expect(blockedBy(failure('socket hang up', 'ECONNRESET'), API)).toBeUndefined()
    expect(blockedBy(failure('This operation was aborted', 'UND_ERR_ABORTED'), API)).toBeUndefined()
    expect(blockedBy('not an error', API)).toBeUndefined()
  })

  it('names no proxy for a host NO_PROXY lists', () => {
    process.env.NO_PROXY = 'api.example-cdn.com'
    try {
      expect(proxyFor(API)).toBeUndefined()
    } finally {
      delete process.env.NO_PROXY
    }
  })
})

describe('describeBlocked', () => {
  const proxy = { kind: 'proxy', proxy: 'proxy.corp:3128', target: 'api.cdn:443' } as const

  it("says what fixes the proxy's refusal", () => {
    expect(describeBlocked({ ...proxy, status: 407 })).toBe(
      'the proxy proxy.corp:3128 did not accept its credentials (407): check the user and password in HTTPS_PROXY'
    )
    expect(describeBlocked({ ...proxy, status: 403 })).toBe(
      'the proxy proxy.corp:3128 refused the tunnel to api.cdn:443 (403): the proxy does not allow CONNECT to api.cdn:443; ask its admins to allow it, or list the host in NO_PROXY'
    )
  })

  it('points an untrusted chain at NODE_EXTRA_CA_CERTS, and an invalid certificate at its server', () => {
    const untrusted = {
      kind: 'certificate',
      code: 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
      host: 'ghe.corp'
    } as const
    expect(describeBlocked(untrusted)).toBe(
      'the certificate of ghe.corp is not trusted (UNABLE_TO_GET_ISSUER_CERT_LOCALLY): a company CA is given to Node with NODE_EXTRA_CA_CERTS (docs/self-hosted.md)'
    )
    expect(describeBlocked({ ...untrusted, code: 'CERT_HAS_EXPIRED' })).toMatch(
      /not valid .*does not help/
    )
  })
})
