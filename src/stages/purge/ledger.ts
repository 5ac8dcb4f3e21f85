/** Each purge call's end as it becomes known, the second pass folded in: what the engine fills. */
import {
  countResults,
  rereadable,
  type CallEnd,
  type Counts,
  type PurgeCall,
  type PurgeResult,
  type Results
} from '../../record.js'

/**
 * A call's end as the ledger keeps it until the results are read. The ids are one text outside
 * the JS heap, a line per target in target order: 100,000 ids held as strings all outlived young
 * collections, which made V8 double its young generation (16 MB more RSS). Usable ids are
 * printable ASCII, so they hold no line break, and an empty line is a target without one.
 */
interface KeptEnd {
  attempts: number
  httpStatus: number | null
  ids: Buffer | undefined
  /** How many of the lines in `ids` are not empty: the call's targets that have an id. */
  withId: number
  unusable: Map<string, string> | undefined
  error: string | undefined
}

function kept(call: PurgeCall, { attempts, httpStatus, ids, unusable, error }: CallEnd): KeptEnd {
  let withId = 0
  const lines =
    ids &&
    call.targets
      .map((target) => {
        const id = ids.get(target) ?? ''
        if (id !== '') withId += 1
        return id
      })
      .join('\n')
  return {
    attempts,
    httpStatus,
    ids: lines === undefined ? undefined : latin1(lines),
    withId,
    unusable: unusable === undefined || unusable.size === 0 ? undefined : unusable,
    error
  }
}

/**
 * The text in a buffer of its own size. Node 24's `Buffer.from(text, 'latin1')` gives a 7.7 KB
 * text a 64 KiB buffer: 391 batches' ids would hold 25 MB for 3 MB of text.
 */
function latin1(text: string): Buffer {
  const bytes = Buffer.allocUnsafeSlow(text.length)
  bytes.write(text, 'latin1')
  return bytes
}

/** Results of one call's targets; in a successful batch, a key without an id was not purged. */
export function resultsOfCall(call: PurgeCall, end: CallEnd): PurgeResult[] {
  return resultsOfKept(call, kept(call, end))
}

function resultsOfKept(call: PurgeCall, end: KeptEnd): PurgeResult[] {
  const ids = idLines(end)
  return call.targets.map((target, index) => resultOf(call, end, target, ids?.[index]))
}

/** The call's ids, a line per target, an empty line for a target without one. */
function idLines(end: KeptEnd): string[] | undefined {
  return end.ids?.toString('latin1').split('\n')
}

/** One target's result; `line` is its line of the call's ids. */
function resultOf(
  call: PurgeCall,
  end: KeptEnd,
  target: string,
  line: string | undefined
): PurgeResult {
  // Built field by field, not by spreading a base object: this runs once per key (100,000s).
  const type = call.targetType
  const id = line || undefined
  const unconfirmed = end.ids !== undefined && id === undefined && type !== 'all'
  const failed = end.ids === undefined || unconfirmed
  return {
    type,
    target,
    service: call.service ?? null,
    soft: call.soft,
    status: failed ? 'failed' : 'purged',
    id: id ?? null,
    http_status: end.httpStatus,
    attempts: end.attempts,
    error: !failed
      ? null
      : unconfirmed
        ? (end.unusable?.get(target) ?? 'no purge id returned: the server did not confirm this key')
        : (end.error ?? 'failed')
  }
}

/**
 * One call's results, one at a time, not as an array of them: what is alive when a young
 * collection runs stays small (see KeptEnd).
 */
function* firstPass(call: PurgeCall, end: KeptEnd): Generator<PurgeResult> {
  const ids = idLines(end)
  const targets = call.targets
  for (let at = 0; at < targets.length; at += 1) {
    yield resultOf(call, end, targets[at] as string, ids?.[at])
  }
}

/**
 * One call's first-pass results with its second pass folded in: a target counts as purged only
 * when both passes purged it. `second` is `undefined` when the call was not repeated because none
 * of its targets was purged.
 */
export function withRepeat(first: PurgeResult[], second: PurgeResult[] | undefined): PurgeResult[] {
  return first.map((result, index): PurgeResult => {
    const again = second?.[index]
    if (result.status !== 'purged' || again === undefined) return { ...result, repeat: null }
    const repeat = { status: again.status, id: again.id, attempts: again.attempts }
    if (again.status === 'purged') return { ...result, repeat }
    return {
      ...result,
      status: 'failed',
      error: `repeat purge failed: ${again.error ?? 'failed'}`,
      repeat
    }
  })
}

/** A promise that resolves when `announce` is called; `announce` returns the next one. */
class Announcement {
  private hear: () => void = () => undefined
  readonly heard = new Promise<void>((resolve) => {
    this.hear = resolve
  })

  announce(): Announcement {
    this.hear()
    return new Announcement()
  }
}

/** Resolves in the event loop's check phase: after the answers and timers already due. */
const afterPendingIo = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

/**
 * Each call's end as it becomes known. Whatever stops a run, `fill` still gives every target
 * exactly once: the calls without an end fail with the reason given.
 */
export class ResultLedger {
  private readonly ends: (KeptEnd | undefined)[]
  /** Once a repeat pass ran: the second pass of each call repeated, by the call's index. */
  private repeated: Map<number, KeptEnd> | undefined
  /** Resolves at the next end recorded; `settled` waits on it. */
  private nextEnd = new Announcement()

  constructor(readonly calls: readonly PurgeCall[]) {
    this.ends = new Array<KeptEnd | undefined>(calls.length)
  }

  /**
   * The first end recorded for a call is its end: after `fill` gave it a reason, an answer that
   * still arrives (calls abandoned by an unexpected error) does not change what was counted.
   */
  record(index: number, end: CallEnd): void {
    this.ends[index] ??= kept(this.calls[index] as PurgeCall, end)
    this.nextEnd = this.nextEnd.announce()
  }

  /** Whether the call's first pass purged any of its targets: only such calls are repeated. */
  purgedAny(index: number): boolean {
    const end = this.ends[index]
    return (
      end !== undefined &&
      resultsOfKept(this.calls[index] as PurgeCall, end).some(({ status }) => status === 'purged')
    )
  }

  /** Folds in the repeat pass: `repeats` holds the calls at `indices` of this ledger, in order. */
  foldRepeat(indices: number[], repeats: ResultLedger): void {
    this.repeated = new Map()
    for (const [position, index] of indices.entries()) {
      const end = repeats.ends[position]
      if (end !== undefined) this.repeated.set(index, end)
    }
  }

  /** Every target's result in plan order; calls still without an end are recorded as failed. */
  fill(reason: string): Results {
    for (let index = 0; index < this.calls.length; index += 1) {
      this.ends[index] ??= {
        attempts: 0,
        httpStatus: null,
        ids: undefined,
        withId: 0,
        unusable: undefined,
        error: reason
      }
    }
    this.nextEnd = this.nextEnd.announce()
    return rereadable(() => this.each())
  }

  /**
   * Each call's first-pass results, in plan order, as soon as the call and every call before it
   * have ended: the same results `fill` gives, handed out while later calls are still out. Each
   * is handed out once the I/O already waiting has been handled, so reading them does not hold
   * back the answers already in. Only for a purge without a repeat pass, which changes the first
   * pass's results.
   */
  async *settled(): AsyncGenerator<Results> {
    for (const [index, call] of this.calls.entries()) {
      while (this.ends[index] === undefined) await this.nextEnd.heard
      await afterPendingIo()
      const end = this.ends[index] as KeptEnd
      yield rereadable(() => firstPass(call, end))
    }
  }

  /**
   * How many targets `fill`'s results hold of each status, counted without making them: a target
   * is purged when its call succeeded and it has an id (a purge-all has none to have), as
   * `resultOf` decides. With a repeat pass the results are read and counted.
   */
  counts(): Counts {
    if (this.repeated !== undefined) return countResults(this.each())
    const counts = { purged: 0, failed: 0, planned: 0, total: 0 }
    for (const [index, call] of this.calls.entries()) {
      const end = this.ends[index] as KeptEnd
      const targets = call.targets.length
      const purged = end.ids === undefined ? 0 : call.targetType === 'all' ? targets : end.withId
      counts.purged += purged
      counts.failed += targets - purged
      counts.total += targets
    }
    return counts
  }

  private *each(): Generator<PurgeResult> {
    for (const [index, call] of this.calls.entries()) {
      const end = this.ends[index] as KeptEnd
      if (this.repeated === undefined) {
        for (const result of firstPass(call, end)) yield result
        continue
      }
      const second = this.repeated.get(index)
      const results = withRepeat(
        resultsOfKept(call, end),
        second === undefined ? undefined : resultsOfKept(call, second)
      )
      // A plain loop, not `yield*`: this runs once per target, and the first reading runs cold.
      for (const result of results) yield result
    }
  }
}
