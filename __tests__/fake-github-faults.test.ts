/**
 * The fake GitHub API's fault rules, checked with plain `fetch`: that each fault misbehaves as the
 * tests that use it expect, and that a faulted request is recorded and changes nothing.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { FakeGitHubApi } from '../tools/fake-github-api/server.js'

const AUTH = { Authorization: 'token gh-test-token' }
const DEPLOYMENTS = /^\/repos\/acme\/site\/deployments$/

let fake: FakeGitHubApi

beforeEach(async () => {
  fake = await FakeGitHubApi.start()
})
afterEach(async () => {
  await fake.close()
})

function get(path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${fake.url}${path}`, { headers: AUTH, ...init })
}

function post(path: string, body: Record<string, unknown>): Promise<Response> {
  return fetch(`${fake.url}${path}`, {
    method: 'POST',
    headers: { ...AUTH, 'Content-Type': 'application/json' },
    body: JSON.stringify(body)
  })
}

describe('fault rules', () => {
  it('answers a 502 as many times as asked, then as GitHub does', async () => {
    fake.fault({ path: /\/releases$/, times: 1, fault: { kind: 'reply', status: 502 } })
    expect(fake.faultsLeft()).toBe(1)

    const faulted = await get('/repos/acme/site/releases')
    expect(faulted.status).toBe(502)
    expect(await faulted.json()).toMatchObject({ message: 'Server Error' })
    expect(fake.faultsLeft()).toBe(0)

    const normal = await get('/repos/acme/site/releases')
    expect(normal.status).toBe(200)
    expect(await normal.json()).toEqual([])
    expect(fake.requestsTo(/\/releases$/)).toHaveLength(2)
  })

  it('sends a string body as it is, with the headers given', async () => {
    fake.fault({
      path: /./,
      fault: {
        kind: 'reply',
        status: 502,
        body: '<html>Bad gateway</html>',
        headers: { 'content-type': 'text/html' }
      }
    })
    const faulted = await get('/repos/acme/site/releases')
    expect(faulted.headers.get('content-type')).toBe('text/html')
    expect(await faulted.text()).toBe('<html>Bad gateway</html>')
  })

  it('records a faulted POST and creates nothing', async () => {
    const sha = fake.commit(null, [{ write: 'a.html' }])
    fake.fault({
      method: 'post',
      path: DEPLOYMENTS,
      times: 1,
      fault: { kind: 'reply', status: 500 }
    })

    const faulted = await post('/repos/acme/site/deployments', { ref: sha })
    expect(faulted.status).toBe(500)
    expect(fake.deployments).toHaveLength(0)
    expect(fake.requests.map((request) => request.body)).toEqual([{ ref: sha }])

    expect((await post('/repos/acme/site/deployments', { ref: sha })).status).toBe(201)
    expect(fake.deployments).toHaveLength(1)
  })

  it('applies rules in the order added, before any token check', async () => {
    fake.fault({ path: /\/releases$/, times: 1, fault: { kind: 'reply', status: 503 } })
    fake.fault({ path: /\/releases$/, times: 2, fault: { kind: 'reply', status: 500 } })
    const statuses: number[] = []
    for (let i = 0; i < 4; i += 1) {
      statuses.push((await fetch(`${fake.url}/repos/acme/site/releases`)).status)
    }
    expect(statuses).toEqual([503, 500, 500, 404])
  })

  it('answers the secondary rate limit with retry-after', async () => {
    fake.fault({ path: /./, fault: { kind: 'secondary-limit', retryAfterSeconds: 7 } })
    const limited = await get('/repos/acme/site/releases')
    expect(limited.status).toBe(403)
    expect(limited.headers.get('retry-after')).toBe('7')
    expect(limited.headers.get('x-ratelimit-remaining')).not.toBe('0')
    const body = (await limited.json()) as { message: string }
    expect(body.message).toMatch(/^You have exceeded a secondary rate limit\./)
  })

  it('answers the primary rate limit, 403 or 429', async () => {
    fake.fault({
      path: /\/releases$/,
      times: 1,
      fault: { kind: 'primary-limit', resetAt: 1_800_000_000 }
    })
    fake.fault({
      path: /\/releases$/,
      times: 1,
      fault: { kind: 'primary-limit', resetAt: 1_800_000_060, status: 429 }
    })
    const first = await get('/repos/acme/site/releases')
    expect(first.status).toBe(403)
    expect(
      Object.fromEntries([...first.headers].filter(([name]) => name.startsWith('x-ratelimit')))
    ).toEqual({
      'x-ratelimit-limit': '1000',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-used': '1000',
      'x-ratelimit-reset': '1800000000',
      'x-ratelimit-resource': 'core'
    })
    expect(await first.json()).toMatchObject({
      message: 'API rate limit exceeded for installation ID 1234.'
    })
    const second = await get('/repos/acme/site/releases')
    expect(second.status).toBe(429)
    expect(second.headers.get('x-ratelimit-reset')).toBe('1800000060')
  })

  it('never answers a silent request', async () => {
    fake.fault({ path: /./, times: 1, fault: { kind: 'silent' } })
    await expect(
      get('/repos/acme/site/releases', { signal: AbortSignal.timeout(300) })
    ).rejects.toMatchObject({ name: 'TimeoutError' })
    expect(fake.requests).toHaveLength(1)
  })

  it('leaves a silent request open until the fake closes', async () => {
    fake.fault({ path: /./, fault: { kind: 'silent' } })
    const pending = get('/repos/acme/site/releases')
    await new Promise((resolve) => setTimeout(resolve, 100))
    await fake.close()
    await expect(pending).rejects.toThrow()
  })

  it('trickles a body that never ends', async () => {
    fake.fault({ path: /./, fault: { kind: 'trickle' } })
    const controller = new AbortController()
    const response = await get('/repos/acme/site/releases', { signal: controller.signal })
    expect(response.status).toBe(200)
    const reader = response.body?.getReader()
    if (reader === undefined) throw new Error('no body')
    let bytes = 0
    let done = false
    const deadline = Date.now() + 500
    while (Date.now() < deadline && !done) {
      const timeout = new Promise<'timeout'>((resolve) =>
        setTimeout(() => resolve('timeout'), deadline - Date.now())
      )
      const chunk = await Promise.race([reader.read(), timeout])
      if (chunk === 'timeout') break
      done = chunk.done
      bytes += chunk.value?.length ?? 0
    }
    expect(done).toBe(false)
    expect(bytes).toBeGreaterThanOrEqual(1)
    expect(bytes).toBeLessThanOrEqual(3)
    controller.abort()
  })

  it('links back to page 1 on a link-loop', async () => {
    const sha = fake.commit(null, [{ write: 'a.html' }])
    fake.deploy('production', sha, ['success'])
    fake.fault({ path: DEPLOYMENTS, fault: { kind: 'link-loop' } })
    const response = await get('/repos/acme/site/deployments?per_page=1&page=1')
    expect(response.status).toBe(200)
    expect(await response.json()).toHaveLength(1)
    expect(response.headers.get('link')).toBe(
      `<${fake.url}/repos/acme/site/deployments?per_page=1&page=1>; rel="next"`
    )
  })

  it('lets a POST through a read-only fault', async () => {
    const sha = fake.commit(null, [{ write: 'a.html' }])
    expect(() =>
      fake.fault({ method: 'POST', path: DEPLOYMENTS, fault: { kind: 'empty-pages' } })
    ).toThrow(/GETs only/)
    fake.fault({ path: DEPLOYMENTS, times: 1, fault: { kind: 'empty-pages' } })
    expect((await post('/repos/acme/site/deployments', { ref: sha })).status).toBe(201)
    expect(fake.faultsLeft()).toBe(1)
  })

  it('answers empty pages forever', async () => {
    const sha = fake.commit(null, [{ write: 'a.html' }])
    fake.deploy('production', sha, ['success'])
    fake.fault({ method: 'GET', path: DEPLOYMENTS, fault: { kind: 'empty-pages' } })
    const first = await get('/repos/acme/site/deployments')
    expect(await first.json()).toEqual([])
    expect(first.headers.get('link')).toBe(
      `<${fake.url}/repos/acme/site/deployments?page=2>; rel="next"`
    )
    const later = await get('/repos/acme/site/deployments?per_page=100&page=41')
    expect(await later.json()).toEqual([])
    expect(later.headers.get('link')).toBe(
      `<${fake.url}/repos/acme/site/deployments?per_page=100&page=42>; rel="next"`
    )
  })

  it('empties the lists of the compare endpoint', async () => {
    const base = fake.commit(null, [{ write: 'a.html' }])
    const head = fake.commit(base, [{ write: 'b.html' }])
    fake.fault({ path: /\/compare\//, fault: { kind: 'empty-pages' } })
    const response = await get(`/repos/acme/site/compare/${base}...${head}`)
    expect(await response.json()).toMatchObject({ ahead_by: 1, commits: [], files: [] })
    expect(response.headers.get('link')).toBe(
      `<${fake.url}/repos/acme/site/compare/${base}...${head}?page=2>; rel="next"`
    )
  })
})
