/**
 * What a failed GitHub attempt showed (github-failure.ts), from errors built as Octokit and undici
 * build them: a proxy's refusal four causes down under a generic abort, a certificate code, a real
 * cancel with the same code and no proxy in its chain, GitHub's own answer; and a 2xx that is a web
 * page where JSON belongs.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { failureOf, jsonAnswer } from '../src/github-api/github-failure.js'
import { NO_SECRETS } from './support/guard.js'

const API = new URL('https://ghe.corp.example/api/v3')
const PROXY = 'http://alice:s3cret@proxy.corp.example:3128'

/** An error with a name, a code and a cause, as node and undici make them. */
function error(name: string, message: string, code?: string, cause?: unknown): Error {
  const made = Object.assign(new Error(message, { cause }), { name })
  return code === undefined ? made : Object.assign(made, { code })
}

/**
 * How Octokit rejects when fetch fails, as seen through @actions/github's ProxyAgent: a
 * RequestError (status 500, no response) whose message is its cause's, over fetch's TypeError,
 * over a DOMException, over what undici reported.
 */
function octokitFetchFailure(undici: Error): Error {
  const dom = error('Error', 'Request was cancelled.', undefined, undici)
  const fetchFailed = new TypeError('fetch failed', { cause: dom })
  return Object.assign(error('HttpError', 'Request was cancelled.', undefined, fetchFailed), {
    status: 500
  })
}

const refused = (status: number): Error =>
  octokitFetchFailure(
    error('AbortError', `Proxy response (${status}) !== 200 when HTTP Tunneling`, 'UND_ERR_ABORTED')
  )

describe('failureOf: what stands in the way of every attempt', () => {
  let saved: string | undefined
  beforeEach(() => {
    saved = process.env.HTTPS_PROXY
    process.env.HTTPS_PROXY = PROXY
  })
  afterEach(() => {
    if (saved === undefined) delete process.env.HTTPS_PROXY
    else process.env.HTTPS_PROXY = saved
  })

  it.each([407, 403, 502])("reads undici's refused tunnel (%i) four causes down", (status) => {
    const failure = failureOf(refused(status), API, NO_SECRETS)
    expect(failure.inTheWay).toEqual({
      kind: 'blocked',
      blocked: {
        kind: 'proxy',
        status,
        proxy: 'proxy.corp.example:3128',
        target: 'ghe.corp.example:443'
      }
    })
    expect(failure.status).toBeUndefined()
  })

  it('never holds the proxy’s credentials, in any spelling', () => {
    const shown = JSON.stringify(failureOf(refused(407), API, NO_SECRETS))
    for (const spelling of [
      'alice',
      's3cret',
      Buffer.from('alice:s3cret').toString('base64'),
      encodeURIComponent('alice:s3cret')
    ]) {
      expect(shown).not.toContain(spelling)
    }
  })

  it('keeps a real cancel a cancel: the same code, no proxy in the chain', () => {
    const aborted = octokitFetchFailure(error('AbortError', 'Request aborted', 'UND_ERR_ABORTED'))
    const failure = failureOf(aborted, API, NO_SECRETS)
    expect(failure.inTheWay).toBeUndefined()
    expect(failure.code).toBe('UND_ERR_ABORTED')
  })

  it('reads a certificate Node does not trust, naming GitHub’s host', () => {
    const untrusted = octokitFetchFailure(
      error('Error', 'self-signed certificate in certificate chain', 'SELF_SIGNED_CERT_IN_CHAIN')
    )
    expect(failureOf(untrusted, API, NO_SECRETS).inTheWay).toEqual({
      kind: 'blocked',
      blocked: { kind: 'certificate', code: 'SELF_SIGNED_CERT_IN_CHAIN', host: 'ghe.corp.example' }
    })
  })

  it('leaves a dropped connection to the retries', () => {
    const reset = octokitFetchFailure(error('Error', 'other side closed', 'ECONNRESET'))
    expect(failureOf(reset, API, NO_SECRETS)).toMatchObject({
      code: 'ECONNRESET',
      inTheWay: undefined
    })
  })

  it('reads GitHub’s own answer: status, headers, message, nothing in the way', () => {
    const answered = Object.assign(error('HttpError', 'Server Error'), {
      status: 502,
      response: { status: 502, headers: { 'Retry-After': '1' } }
    })
    expect(failureOf(answered, API, NO_SECRETS)).toEqual({
      status: 502,
      headers: { 'retry-after': '1' },
      message: 'Server Error',
      code: undefined
    })
  })
})

describe('jsonAnswer: a web page where GitHub’s JSON belongs', () => {
  const answer = (status: number, type?: string) => ({
    status,
    headers: type === undefined ? {} : { 'content-type': type },
    data: '<html>Sign in</html>'
  })
  const pageOf = (thrown: () => unknown) => {
    try {
      thrown()
    } catch (caught) {
      return failureOf(caught, API, NO_SECRETS).inTheWay
    }
    throw new Error('jsonAnswer let the page through')
  }

  it.each(['application/json; charset=utf-8', 'application/vnd.github+json', 'APPLICATION/JSON'])(
    'lets %s through',
    (type) => {
      const json = answer(200, type)
      expect(jsonAnswer(json, NO_SECRETS)).toBe(json)
    }
  )

  it('lets a bodiless 204 through', () => {
    expect(jsonAnswer(answer(204), NO_SECRETS)).toEqual(answer(204))
  })

  it('stops a sign-in page, with its status and media type as answered', () => {
    expect(pageOf(() => jsonAnswer(answer(200, 'text/html; charset=utf-8'), NO_SECRETS))).toEqual({
      kind: 'web-page',
      status: 200,
      mediaType: 'text/html'
    })
    expect(pageOf(() => jsonAnswer(answer(201, 'text/plain'), NO_SECRETS))).toMatchObject({
      status: 201
    })
  })

  it('stops an answer without a Content-Type, saying so', () => {
    expect(pageOf(() => jsonAnswer(answer(200), NO_SECRETS))).toMatchObject({
      mediaType: 'without a Content-Type'
    })
  })
})
