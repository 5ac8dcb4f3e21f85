/**
 * The pipeline in-process on the virtual clock, with a scripted purge API and scripted pages: the
 * order of the stages, what stops them, cancellation in each, and every target reported once.
 */
import { describe, expect, it } from '@jest/globals'
import type { Settings } from '../src/config/settings.js'
import type { GitHubRepository } from '../src/github.js'
import { parseUrls } from '../src/config/lists.js'
import type { Answer } from '../src/http/agents.js'
import type { PageReading, Prober } from '../src/http/probe.js'
import type { PipelineDeps } from '../src/pipeline/connections.js'
import { decideMarks } from '../src/capabilities/changed-files/last-purge/complete.js'
import { runPipeline } from '../src/pipeline/index.js'
import { withSources, type PurgeResult } from '../src/record/index.js'
import { type RunRecord } from '../src/capabilities/index.js'
import { NOT_SENT_CANCELLED, reasonOf } from '../src/record/failure.js'
import type { Transport } from '../src/core/transport.js'
import { settingsWith } from '../tools/defaults.js'
import { FakeClock } from '../tools/fake-clock.js'
import { recordedLog, type RecordedLog } from './support/recorded-log.js'
import { page, ScriptedProber } from '../tools/scripted-prober.js'
import { ScriptedTransport, type CallScript } from '../tools/scripted-transport.js'
import { NO_SECRETS } from './support/guard.js'

const ORIGIN = 'https://origin.example/version'
const SHA = 'abc1234'
const PAGES = ['https://www.example.com/a', 'https://www.example.com/b']

/** Two keys and two URLs, waiting for the origin first and checking the purged URLs after. */
const withAllStages = (overrides: Partial<Settings> = {}): Settings =>
  settingsWith({
    keys: ['home', 'product-42'],
    urls: parseUrls(NO_SECRETS, [PAGES.join('\n'), 'urls']),
    wait: { urls: [ORIGIN], text: SHA, passes: 1, timeoutMs: 10_000 },
    edgeCheck: { purgedUrls: true, urls: [], text: undefined, timeoutMs: 60_000, assets: false },
    ...overrides
  })

/** Which stage each request belongs to, in the order they were made. */
type Event = 'github' | `wait ${string}` | `send ${string}` | `check ${string}` | `mark ${string}`

interface Scene {
  /** What the origin shows; the release by default. */
  origin?: Answer<PageReading>
  /** How the purge API answers; correctly by default. */
  api?: CallScript
  /** Cancels the run as this request is made. */
  cancelAt?: (event: Event) => boolean
  /** Opening the transport throws: a bug the pipeline must survive. */
  brokenTransport?: boolean
  /** Opening the page prober throws, as a chunk of dist/ gone missing would. */
  brokenProber?: boolean
  /** Whether the report was written, which the purge marks' close is told; written by default. */
  reported?: boolean
  /** The repository, for last-purge; without it, the repository never answers. */
  github?: boolean
  /** How the edge answers a page or a file at its `check`-th request; fresh by default. */
  edge?: (url: string, check: number) => Answer<PageReading> | undefined
}

interface Run {
  /** The record, its results read once into an array. */
  record: Omit<RunRecord, 'results'> & { results: PurgeResult[] }
  events: Event[]
  log: RecordedLog
  transport: ScriptedTransport
  proberClosed: boolean
}

async function run(settings: Settings, scene: Scene = {}): Promise<Run> {
  const clock = new FakeClock()
  const cancel = new AbortController()
  const events: Event[] = []
  const happen = (event: Event): void => {
    events.push(event)
    if (scene.cancelAt?.(event) === true) cancel.abort()
  }
  const origin = scene.origin ?? page(200, `release ${SHA}`)
  const pages = new ScriptedProber(clock, (url, check) => ({
    answer: url === ORIGIN ? origin : (scene.edge?.(url, check) ?? page(200, 'fresh', { age: '0' }))
  }))
  let proberClosed = false
  const prober: Prober = {
    get: (url, options) => {
      happen(url === ORIGIN ? `wait ${url}` : `check ${url}`)
      return pages.get(url, options)
    },
    close: () => {
      proberClosed = true
    }
  }
  const transport = new ScriptedTransport(clock, scene.api)
  const traced: Transport = {
    send: (call, signal) => {
      happen(`send ${call.targets.join(' ')}`)
      return transport.send(call, signal)
    },
    close: () => transport.close()
  }
  const log = recordedLog()
  const deps: PipelineDeps = {
    guard: NO_SECRETS,
    clock,
    signal: cancel.signal,
    log,
    connect: {
      transport: () => {
        if (scene.brokenTransport === true) throw new Error('boom')
        return traced
      },
      prober: () =>
        scene.brokenProber === true
          ? Promise.reject(new Error("Cannot find module './probe.js'"))
          : Promise.resolve(prober)
    },
    // Without a scripted repository, it never answers: only a cancel ends the wait for it.
    openGitHub: () => {
      happen('github')
      return scene.github === true ? Promise.resolve(markKeeper(happen)) : new Promise(() => {})
    }
  }
  // As main does: the purge marks are closed once the report is written.
  const { record, finish } = await runPipeline(settings, deps)
  await finish(scene.reported ?? true)
  return {
    record: { ...record, results: [...record.results] },
    events,
    log,
    transport,
    proberClosed
  }
}

/** A repository that only keeps purge marks: each write is an event. */
function markKeeper(happen: (event: Event) => void): GitHubRepository {
  const unused = (): Promise<never> => Promise.reject(new Error('not part of this scene'))
  return {
    owner: 'acme',
    repo: 'site',
    event: { eventName: 'workflow_dispatch', sha: SHA, payload: {}, runId: '1', runUrl: '' },
    compare: unused,
    releases: unused,
    tree: unused,
    deployments: unused,
    latestDeploymentState: unused,
    createDeployment: ({ sha }) => {
      happen(`mark ${sha}`)
      return Promise.resolve(1)
    },
    setDeploymentState: (_id, state) => {
      happen(`mark ${state}`)
      return Promise.resolve()
    }
  }
}

/** Purges everything of the service, marking it for changed-since: last-purge. */
const marked = (overrides: Partial<Settings> = {}): Settings =>
  withAllStages({
    lastPurge: { serviceIds: ['svc123'] },
    ...overrides
  })

const kinds = (events: Event[]): string[] =>
  events.map((event) => event.split(' ')[0] ?? '').filter((kind, i, all) => kind !== all[i - 1])

/** Every planned target has exactly one result, and nothing else has one. */
function expectEachTargetOnce({ calls, results }: Run['record']): void {
  const planned = calls.flatMap((call) =>
    call.targets.map((target) => `${call.targetType} ${target} ${call.service ?? ''}`)
  )
  const reported = results.map(({ type, target, service }) => `${type} ${target} ${service ?? ''}`)
  expect(reported).toEqual(planned)
  expect(new Set(reported).size).toBe(reported.length)
}

describe('the stages in order', () => {
  it('waits for the origin, then purges, then checks the edge', async () => {
    const { record, events, log } = await run(withAllStages())
    expect(kinds(events)).toEqual(['wait', 'send', 'check'])
    expect(log.lines.filter((line) => line.startsWith('[') && line !== '[end]')).toEqual([
      '[Waiting for the origin: 1 URL to show "abc1234" (up to 10 s)]',
      '[Purge calls (3, up to 8 at once)]',
      '[Edge check: 2 URLs (up to 8 at once, stale ones re-checked; no check starts after 60 s)]'
    ])
    expect(record.wait?.done).toBe(true)
    expect(record.results.map((result) => result.status)).toEqual([
      'purged',
      'purged',
      'purged',
      'purged'
    ])
    expect(record.edgeCheck?.entries.map(({ url, fresh }) => ({ url, fresh }))).toEqual(
      PAGES.map((url) => ({ url, fresh: true }))
    )
    expect(record.stopped).toBeUndefined()
    expectEachTargetOnce(record)
  })

  it('sends no purge call when the origin is not ready in time, and says why for every target', async () => {
    const { record, events, transport } = await run(withAllStages(), {
      origin: page(200, 'release def5678')
    })
    expect(kinds(events)).toEqual(['wait'])
    expect(transport.sent).toEqual([])
    expect(record.wait).toMatchObject({ done: false, cancelled: false })
    expect(new Set(record.results.map((result) => result.error))).toEqual(
      new Set([
        'not sent: the origin was not ready after 10 s: https://origin.example/version did not show "abc1234"'
      ])
    )
    expect(record.edgeCheck).toBeUndefined()
    expect(record.stopped).toBeUndefined()
    expectEachTargetOnce(record)
  })

  it('checks the edge only after the repeat pass', async () => {
    const { record, events } = await run(withAllStages({ repeatAfterMs: 5000 }))
    expect(kinds(events)).toEqual(['wait', 'send', 'check'])
    expect(events.filter((event) => event.startsWith('send'))).toHaveLength(6)
    expect(record.results.every((result) => result.repeat?.status === 'purged')).toBe(true)
    expect(record.edgeCheck?.entries.every((entry) => entry.fresh)).toBe(true)
    expectEachTargetOnce(record)
  })

  it('checks nothing at the edge when no URL was purged, and says so', async () => {
    const refused: CallScript = (call) =>
      call.operation === 'url'
        ? { kind: 'response', status: 403, headers: {}, body: '', truncated: false }
        : {
            kind: 'response',
            status: 200,
            headers: {},
            body: '{"home":"1","product-42":"2"}',
            truncated: false
          }
    const { record, events, log } = await run(withAllStages({ wait: undefined }), {
      api: refused
    })
    expect(kinds(events)).toEqual(['send'])
    expect(record.edgeCheck).toBeUndefined()
    expect(log.lines).toContain(
      'notice: verify: true, but there is nothing to check at the edge: no URL was purged and verify-urls is empty'
    )
    expectEachTargetOnce(record)
  })

  it('closes the purge transport and the page prober', async () => {
    const { transport, proberClosed } = await run(withAllStages())
    expect(transport.closed).toBe(true)
    expect(proberClosed).toBe(true)
  })
})

describe('withSources', () => {
  it('marks each result as given or derived, naming the file that caused a derived one', () => {
    const results = [
      { type: 'key', target: 'home' },
      { type: 'url', target: PAGES[0] }
    ] as PurgeResult[]
    const sources = new Map([[`url ${PAGES[0]}`, 'content/a.md']])
    expect(withSources(results, sources)).toEqual([
      { type: 'key', target: 'home', source: 'input', file: null },
      { type: 'url', target: PAGES[0], source: 'changed-files', file: 'content/a.md' }
    ])
  })
})

describe('a dry run', () => {
  it('sends nothing, fetches nothing, and plans every target and stage', async () => {
    const { record, events } = await run(withAllStages({ dryRun: true }))
    expect(events).toEqual([])
    expect(record.results.every((result) => result.status === 'planned')).toBe(true)
    expect(record.plannedStages.map((stage) => stage.urls)).toEqual([[ORIGIN], PAGES])
    expectEachTargetOnce(record)
  })

  it('with repeat-after, plans the second pass too', async () => {
    const { record, events } = await run(withAllStages({ dryRun: true, repeatAfterMs: 300_000 }))
    expect(events).toEqual([])
    expect(record.results.every((result) => result.repeat?.status === 'planned')).toBe(true)
  })
})

describe('cancelled', () => {
  it('while the changed files are read: the run fails before anything is planned or sent', async () => {
    const changedFiles = {
      urlMap: [],
      keyMap: [],
      changedSince: undefined,
      githubToken: 'gh-token'
    }
    const running = run(withAllStages({ changedFiles }), {
      cancelAt: (event) => event === 'github'
    })
    await expect(running).rejects.toThrow(
      'Cancelled before the targets were known: nothing was sent'
    )
  })

  it('while waiting for the origin: nothing is sent, and the run says so', async () => {
    const { record, events } = await run(withAllStages(), {
      cancelAt: (event) => event.startsWith('wait')
    })
    expect(kinds(events)).toEqual(['wait'])
    expect(record.stopped).toBe('Cancelled while waiting for the origin: no purge call was sent')
    expect(new Set(record.results.map((result) => result.error))).toEqual(
      new Set([reasonOf(NOT_SENT_CANCELLED)])
    )
    expectEachTargetOnce(record)
  })

  it('while purging: the calls not answered fail, and nothing is checked at the edge', async () => {
    // One call at a time: the keys and the first URL are purged before the cancel.
    const { record, events } = await run(withAllStages({ wait: undefined, concurrency: 1 }), {
      cancelAt: (event) => event === `send ${PAGES[1]}`
    })
    expect(kinds(events)).toEqual(['send'])
    expect(record.stopped).toMatch(/^Cancelled after 2 of 3 calls: /)
    expect(record.results.map((result) => result.status)).toEqual([
      'purged',
      'purged',
      'purged',
      'failed'
    ])
    expect(record.edgeCheck).toBeUndefined()
    expectEachTargetOnce(record)
  })

  it('during the edge check: the purge stands, and the URLs not judged are not fresh', async () => {
    const { record, events } = await run(withAllStages({ wait: undefined }), {
      cancelAt: (event) => event.startsWith('check')
    })
    expect(kinds(events)).toEqual(['send', 'check'])
    expect(record.stopped).toBe(
      'Cancelled during the edge check: the URLs not judged by then are reported as not fresh'
    )
    expect(record.results.every((result) => result.status === 'purged')).toBe(true)
    expect(record.edgeCheck?.cancelled).toBe(true)
    expect(record.edgeCheck?.entries.some((entry) => entry.fresh)).toBe(false)
    expectEachTargetOnce(record)
  })
})

describe('an unexpected error', () => {
  const stopped = (why: string): string => `edge-purge stopped on an unexpected error: ${why}`
  const missingChunk = stopped("Cannot find module './probe.js'")

  it('stops the stages, and every target is still reported once with the reason', async () => {
    const { record } = await run(withAllStages({ wait: undefined }), { brokenTransport: true })
    const reason = `not finished: ${stopped('boom')}`
    expect(new Set(record.results.map((result) => result.error))).toEqual(new Set([reason]))
    expect(record.unexpectedError).toBe(stopped('boom'))
    expectEachTargetOnce(record)
  })

  it('before the purge: nothing is sent, and the purge mark says failure', async () => {
    const { record, events } = await run(marked(), { github: true, brokenProber: true })
    expect(kinds(events)).toEqual(['github', 'mark'])
    expect(record.unexpectedError).toBe(missingChunk)
    expect(record.results.every((result) => result.status === 'failed')).toBe(true)
    expect(events.at(-1)).toBe('mark failure')
    expectEachTargetOnce(record)
  })

  it('after the purge: the purge stands, the edge check it skipped is not fresh, and the purge mark says failure', async () => {
    const { record, events } = await run(marked({ wait: undefined }), {
      github: true,
      brokenProber: true
    })
    expect(kinds(events)).toEqual(['github', 'mark', 'send', 'mark'])
    expect(record.unexpectedError).toBe(missingChunk)
    expect(record.results.every((result) => result.status === 'purged')).toBe(true)
    expect(record.edgeCheck?.entries).toEqual(
      PAGES.map((url) =>
        expect.objectContaining({
          url,
          fresh: false,
          checks: 0,
          evidence: `not judged: ${missingChunk}`
        })
      )
    )
    expect(decideMarks(record.marks ?? [], record)).toEqual([
      expect.objectContaining({ state: 'failure', why: 'the run stopped on an unexpected error' })
    ])
    expect(events.at(-1)).toBe('mark failure')
  })
})

describe('the purge mark (changed-since: last-purge)', () => {
  it('is opened once the plan is made, before the wait, and closed after the run', async () => {
    const { events, record } = await run(marked(), { github: true })
    expect(kinds(events)).toEqual(['github', 'mark', 'wait', 'send', 'check', 'mark'])
    expect(events.filter((event) => event.startsWith('mark'))).toEqual([
      `mark ${SHA}`,
      'mark in_progress',
      'mark success'
    ])
    expect(decideMarks(record.marks ?? [], record)).toEqual([
      { service: 'svc123', sha: SHA, deploymentId: 1, state: 'success', why: '' }
    ])
  })

  it('is not written by a dry run', async () => {
    const { events, record } = await run(marked({ dryRun: true }), { github: true })
    expect(events).toEqual(['github'])
    expect(record.marks).toBeUndefined()
  })

  it('is marked failure when the report could not be written', async () => {
    const { events } = await run(marked(), { github: true, reported: false })
    expect(events.at(-1)).toBe('mark failure')
  })

  it('is marked failure when the run is cancelled while purging', async () => {
    const { events } = await run(marked(), {
      github: true,
      cancelAt: (event) => event.startsWith('send')
    })
    expect(events.at(-1)).toBe('mark failure')
  })
})

describe('the files each checked page loads (verify-assets)', () => {
  const APP = 'https://www.example.com/assets/app.3f9c1.js'
  const html = page(200, `<script src="/assets/app.3f9c1.js"></script> ${SHA}`, {
    'content-type': 'text/html; charset=utf-8',
    age: '0'
  })

  it('purges a 404 the cache kept, as a URL target, and finds the file whole after', async () => {
    const { record, events, transport } = await run(
      withAllStages({
        wait: undefined,
        edgeCheck: { purgedUrls: true, urls: [], text: undefined, timeoutMs: 60_000, assets: true }
      }),
      {
        edge: (url, check) =>
          url === APP
            ? check === 1
              ? page(404, 'not found', { age: '30' })
              : page(200, 'code', { age: '0' })
            : html
      }
    )
    expect(record.edgeCheck?.assets).toEqual([
      expect.objectContaining({ url: APP, verdict: 'healed', purged: true })
    ])
    expect(record.edgeCheck?.entries.map((entry) => entry.assets?.healed)).toEqual([1, 1])
    expect(events.filter((event) => event === `send ${APP}`)).toHaveLength(1)
    const purge = transport.sent.find(({ call }) => call.targets.includes(APP))?.call
    expect(purge).toMatchObject({ method: 'PURGE', authenticated: false })
    expect(record.notComplete).toBeUndefined()
  })

  it('reads a page whole though it shows verify-text early, and leaves the run incomplete on a missing file', async () => {
    const settings = withAllStages({
      wait: undefined,
      urls: [],
      edgeCheck: {
        purgedUrls: false,
        urls: [PAGES[0] ?? ''],
        text: SHA,
        timeoutMs: 60_000,
        assets: true
      }
    })
    const { record, log } = await run(settings, {
      edge: (url) => (url === APP ? page(404, 'not found', {}) : html)
    })
    expect(record.edgeCheck?.entries).toEqual([
      expect.objectContaining({ fresh: true, assets: expect.objectContaining({ broken: 1 }) })
    ])
    expect(record.edgeCheck?.assets).toEqual([
      expect.objectContaining({ url: APP, verdict: 'broken', purged: false, http_status: 404 })
    ])
    expect(record.notComplete).toBe('1 file missing at the edge')
    expect(log.lines.some((line) => line.startsWith('error'))).toBe(false)
  })

  it('sends no token to a plain http host: a cached 404 there stays broken, unpurged', async () => {
    const plain = 'http://www.example.com/'
    const settings = withAllStages({
      wait: undefined,
      keys: [],
      urls: [],
      urlPurgeAuth: true,
      edgeCheck: {
        purgedUrls: false,
        urls: [plain],
        text: undefined,
        timeoutMs: 60_000,
        assets: true
      }
    })
    const { record, events } = await run(settings, {
      edge: (url) =>
        url === `${plain}assets/app.3f9c1.js` ? page(404, 'not found', { age: '30' }) : html
    })
    expect(events.filter((event) => event.startsWith('send'))).toEqual([])
    expect(record.edgeCheck?.assets).toEqual([
      expect.objectContaining({ verdict: 'broken', purged: false })
    ])
    expect(record.edgeCheck?.assets?.[0]?.evidence).toContain('https')
  })
})
