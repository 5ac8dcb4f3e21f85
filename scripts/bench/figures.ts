/** What the scenarios hand the report: table rows, and the figures the prose below them reads. */

export interface Row {
  scenario: string
  calls: number | string
  medianMs: number
  boundMs: number | undefined
  /** A ratio measured run by run; otherwise the median over the bound. */
  pairedRatio?: number
  target: string
  note: string
}

/** A scenario's row in the table, and what the prose reads of it. */
export interface Scenario<Figure> {
  row: Row
  figures: Figure
}

export interface CurvePoint {
  concurrency: number
  medianMs: number
  boundMs: number
  connections: number
}

/** Where a verify run's time goes, medians over the runs (ms). */
export interface EdgeCheckMeasured {
  medianMs: number
  /** Spawn → the purge call reached the API: the action's own start. */
  startMs: number
  /** Purge call received → first GET received: the purge round trip and the stage's setup. */
  purgeMs: number
  /** First GET received → last answer sent: the checks themselves. */
  checksMs: number
  /** Last answer sent → exit: judging the last URL, outputs, verification file, summary. */
  endMs: number
  connections: number
}

/** Bound from `cold`'s start, and the same bound from an empty action's start. */
export type EdgeCheckFigures = EdgeCheckMeasured & {
  boundMs: number
  emptyBoundMs: number
  checkRounds: number
  bareLoopMs: number
}

/** What the prose below the tables says, every figure from this run. */
export interface Figures {
  /** The 1-minute load average when the run began: other work on the machine slows every figure. */
  loadAtStart: number
  emptyMs: number
  coldMs: number
  coldRatio: number
  core: { startMs: number; bytes: number; ratio: number }
  /** Where keys10k's time goes: the median of each phase. */
  keys10kPhases: Record<string, number>
  concurrency: number
  keys10kCalls: number
  urls1k: { medianMs: number; boundMs: number; connections: number }
  soft1k: { medianMs: number; boundMs: number }
  verify1k: EdgeCheckFigures
  rssOneKeyMb: number
  rss100kMb: number
  curve: CurvePoint[]
}
