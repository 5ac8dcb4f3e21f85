/**
 * How much the summary shows: one byte budget that every section draws on, each section's cap,
 * the cuts of the strings it shows, and the bounded shapes the sections are made of (a table, a
 * list, a fold). Whatever the run's size, a summary built from these stays under
 * `SUMMARY_MAX_BYTES`.
 */
import type { Guard } from '../text/guard.js'

/** Half of GitHub's 1 MiB per step: a summary over the limit is dropped whole, not cut. */
export const SUMMARY_MAX_BYTES = 512 * 1024
/** Rows per table: enough to find any failure by eye, few enough to read. */
export const SUMMARY_ROW_LIMIT = 250
/** Entries in a list of URLs (the wait, a dry run's checks): the log holds every one. */
const LIST_ITEM_LIMIT = 50
/**
 * The most each section may take, so that a huge early section leaves room for the later ones;
 * they share the one budget too, so together they never pass `SUMMARY_MAX_BYTES`.
 */
export const SECTION_BYTES = {
  wait: 16 * 1024,
  planned: 40 * 1024,
  failed: 128 * 1024,
  stale: 96 * 1024,
  notSent: 16 * 1024,
  calls: 24 * 1024,
  fresh: 32 * 1024,
  succeeded: 56 * 1024,
  derivation: 56 * 1024,
  assets: 32 * 1024
} as const
/** The cuts of a target or URL and of an error or evidence, wherever a section shows one. */
export const SHOWN_TARGET_CHARS = 160
export const SHOWN_ERROR_CHARS = 400

export const code = (guard: Guard, text: string, maxChars?: number): string =>
  `<code>${guard.summaryText(text, maxChars)}</code>`

/** Bytes left for the sections; each takes what it uses, up to its own cap. */
export class Budget {
  constructor(private left: number) {}

  /** The leading items that fit in `cap` and in what is left, counted as used. */
  take(items: string[], cap: number): string[] {
    let room = Math.min(cap, this.left)
    let count = 0
    for (const item of items) {
      const bytes = Buffer.byteLength(item) + 1
      if (bytes > room) break
      room -= bytes
      this.left -= bytes
      count += 1
    }
    return items.slice(0, count)
  }
}

/** A list of at most `LIST_ITEM_LIMIT` items within `cap` bytes, then how many more there are. */
export function list(items: string[], budget: Budget, cap: number, where: string): string[] {
  const shown = budget.take(items.slice(0, LIST_ITEM_LIMIT), cap)
  const more = items.length - shown.length
  return [
    '<ul>',
    ...shown.map((item) => `<li>${item}</li>`),
    ...(more > 0 ? [`<li>… and ${more} more: ${where}</li>`] : []),
    '</ul>'
  ]
}

/** A table's lines, and whether it leaves out any of its rows. */
export interface Table {
  lines: string[]
  hidden: boolean
}

/**
 * A table of rows (each item's cells) within the row limit and `cap` bytes, then how many more the
 * file holds.
 */
export function table<T>(
  headers: string[],
  items: readonly T[],
  cells: (item: T) => string[],
  budget: Budget,
  cap: number,
  more: (shown: number) => string,
  total = items.length
): Table {
  // Only the rows that can be shown are rendered: a run may hold 100,000 results.
  const row = (item: T): string =>
    `<tr>${cells(item)
      .map((cell) => `<td>${cell}</td>`)
      .join('')}</tr>`
  const shown = budget.take(items.slice(0, SUMMARY_ROW_LIMIT).map(row), cap)
  const hidden = shown.length < total
  return {
    lines: [
      `<table><tr>${headers.map((header) => `<th>${header}</th>`).join('')}</tr>`,
      ...shown,
      '</table>',
      ...(hidden ? [`<p>${more(shown.length)}</p>`] : [])
    ],
    hidden
  }
}

/** Folded by default: counted in its one-line title, opened on demand. */
export function folded(title: string, body: string[]): string[] {
  return [`<details><summary>${title}</summary>`, ...body, '</details>']
}
