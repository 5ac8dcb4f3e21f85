/** Helpers for the real-cache suites to watch the bundled action while it runs against the bed. */
import { afterAll, afterEach, beforeEach } from '@jest/globals'
import type { ActionRun } from '../../../tools/run-like-runner.js'
import { pollUntil } from './http.js'
import { SERVICE, startTestBed, TOKENS, type TestBed } from './index.js'

/** The action's log, shown when an expectation on its outcome fails. */
export function expectExit(run: ActionRun, code: number): void {
  if (run.code !== code) throw new Error(`action exited ${run.code}, expected ${code}:\n${run.log}`)
}

/**
 * Waits, while the action runs, until `reached()` holds; fails with the action's log if the action
 * ends first. No deadline of its own beyond pollUntil's generous one.
 */
export async function whileRunning(
  running: Promise<ActionRun>,
  reached: () => boolean,
  what: string
): Promise<void> {
  let ended: ActionRun | undefined
  void running.then((run) => (ended = run))
  await pollUntil(
    () => Promise.resolve(reached() || ended !== undefined),
    (done) => done,
    { what }
  )
  if (!reached() && ended !== undefined)
    throw new Error(`the action ended (exit ${ended.code}) before ${what}:\n${ended.log}`)
}

export interface BedAccess {
  bed(): TestBed
  /** The inputs that point the action at the bed's purge API for its one service. */
  api(token?: string): Record<string, string>
  /** A page's address through Varnish, as visitors get it. */
  contentUrl(path: string): string
}

/**
 * A fresh bed for each test of the enclosing `describe`: started and `prepare`d before it, stopped
 * after it (and after all, should a test time out mid-start).
 */
export function useTestBed(
  varnishd: string,
  prepare: (bed: TestBed) => Promise<void>,
  timeoutMs: number
): BedAccess {
  let started: TestBed | undefined
  const bed = (): TestBed => {
    if (started === undefined) throw new Error('test bed not started')
    return started
  }
  beforeEach(async () => {
    started = await startTestBed({ varnishd })
    await prepare(started)
  }, timeoutMs)
  const stopBed = async (): Promise<void> => {
    const running = started
    started = undefined
    await running?.stop()
  }
  afterEach(stopBed, timeoutMs)
  afterAll(stopBed, timeoutMs)
  return {
    bed,
    api: (token = TOKENS.engineer) => ({
      'api-token': token,
      'base-url': bed().api.url,
      'service-id': SERVICE
    }),
    contentUrl: (path) => `${bed().varnish.url}${path}`
  }
}
