/** Unit tests of reading a server's own words out of an error body, whatever its shape. */
import { describe, expect, it } from '@jest/globals'
import { serverMessage } from '../../src/core/server-message.js'
import { NO_SECRETS } from '../support/guard.js'

describe('serverMessage', () => {
  it('reads {"msg","detail"}', () => {
    const body = JSON.stringify({ msg: 'Record not found', detail: 'Cannot find service' })
    expect(serverMessage(body, NO_SECRETS)).toBe('Record not found: Cannot find service')
  })

  it('reads {"msg","details"}', () => {
    const body = JSON.stringify({ msg: 'Record not found', details: 'Cannot find service svc9' })
    expect(serverMessage(body, NO_SECRETS)).toBe('Record not found: Cannot find service svc9')
  })

  it('reads a lone msg', () => {
    const body = JSON.stringify({ msg: 'Provided credentials are missing or invalid' })
    expect(serverMessage(body, NO_SECRETS)).toBe('Provided credentials are missing or invalid')
  })

  it('reads JSON:API errors with title and detail', () => {
    const body = JSON.stringify({
      errors: [{ status: '429', title: 'Too Many Requests', detail: 'Hourly limit reached' }]
    })
    expect(serverMessage(body, NO_SECRETS)).toBe('Too Many Requests: Hourly limit reached')
  })

  it('reads every error of a JSON:API list', () => {
    const body = JSON.stringify({
      errors: [
        { title: 'Invalid key', detail: 'key 1 is too long' },
        { title: 'Invalid key', detail: 'key 2 is empty' }
      ]
    })
    expect(serverMessage(body, NO_SECRETS)).toBe('Invalid key: key 1 is too long: key 2 is empty')
  })

  it('reads problem+json title and detail, not the numeric status', () => {
    const body = JSON.stringify({
      type: 'about:blank',
      title: 'Too Many Requests',
      detail: 'You have exceeded your hourly rate limit',
      status: 429
    })
    expect(serverMessage(body, NO_SECRETS)).toBe(
      'Too Many Requests: You have exceeded your hourly rate limit'
    )
  })

  it('says a message repeated in two fields once', () => {
    const body = JSON.stringify({ msg: 'Bad request', detail: 'Bad request' })
    expect(serverMessage(body, NO_SECRETS)).toBe('Bad request')
  })

  it('reads a plain-text body as it is', () => {
    const body = 'Batch surrogate key request only supports up to 256 surrogate keys\n'
    expect(serverMessage(body, NO_SECRETS)).toBe(
      'Batch surrogate key request only supports up to 256 surrogate keys'
    )
  })

  it('reads the text of an HTML error page without its markup', () => {
    const body =
      '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n</body>\r\n</html>'
    expect(serverMessage(body, NO_SECRETS)).toBe('502 Bad Gateway 502 Bad Gateway')
  })

  it.each(['', '   ', '\n\r\n'])('gives nothing for the empty body %j', (body) => {
    expect(serverMessage(body, NO_SECRETS)).toBeUndefined()
  })

  it.each([
    ['an object without a message field', '{"code":17,"ok":false}'],
    ['an array', '[1,2,3]'],
    ['null', 'null'],
    ['fields that are not text', '{"msg":42,"detail":{"a":1},"title":"  "}']
  ])('gives nothing for JSON with no message: %s', (_what, body) => {
    expect(serverMessage(body, NO_SECRETS)).toBeUndefined()
  })

  it('puts a multi-line message on one line', () => {
    expect(serverMessage('first line\n\n  second line\tend', NO_SECRETS)).toBe(
      'first line second line end'
    )
  })

  it('cuts a long plain body to a sane length, marking the cut', () => {
    const body = `${'start '}${'x'.repeat(10_000)}`
    const message = serverMessage(body, NO_SECRETS) ?? ''
    expect(message.startsWith('start ')).toBe(true)
    expect(message.length).toBeLessThanOrEqual(301)
    expect(message.endsWith('…')).toBe(true)
  })

  it('cuts a long JSON message too', () => {
    const body = JSON.stringify({ msg: 'Bad request', detail: 'y'.repeat(5000) })
    const message = serverMessage(body, NO_SECRETS) ?? ''
    expect(message.startsWith('Bad request: y')).toBe(true)
    expect(message.length).toBeLessThanOrEqual(301)
  })

  it('keeps a short message whole', () => {
    const detail = 'z'.repeat(250)
    expect(serverMessage(JSON.stringify({ detail }), NO_SECRETS)).toBe(detail)
  })
})
