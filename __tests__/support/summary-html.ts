/**
 * The job summary as a reader finds it: its first line, its paragraphs, tables, lists and folds,
 * each as the text a browser shows, and the notes that say how many rows or items a bound hid.
 * Tests of the summary's sections assert these parts, not its sentences.
 */
import { renderSummary } from '../../src/report/summary/index.js'
import { NO_SECRETS } from './guard.js'
import { textOf } from './rendered-markdown.js'
import { runRecord } from './run-record.js'

/** Where a run's results file is, as the runner names it. */
export const RESULTS_FILE = '/home/runner/work/_temp/edge-purge-results-1.json'

/** The summary `renderSummary` writes of a run record, with no secret and no run context. */
export const summaryOf = (overrides: Parameters<typeof runRecord>[0]): string =>
  renderSummary(runRecord(overrides), {
    guard: NO_SECRETS,
    resultsFile: RESULTS_FILE,
    resultsFileStays: false,
    context: undefined
  })

/** The text of the first line, when it is an `<h2>` alone on its line (the run's answer). */
export function headlineOf(html: string): string | undefined {
  const heading = /^<h2>(.*)<\/h2>$/.exec(html.split('\n')[0] ?? '')?.[1]
  return heading === undefined ? undefined : textOf(heading)
}

/** The text of each paragraph, in order. */
export const paragraphsOf = (html: string): string[] =>
  [...html.matchAll(/<p>(.*?)<\/p>/g)].map((match) => textOf(match[1] ?? ''))

/** A table: the text of its header cells, and of each row's cells (a `<br>` read as a new line). */
export interface ShownTable {
  head: string[]
  rows: string[][]
}

const cellTexts = (row: string): string[] =>
  [...row.matchAll(/<t[hd]>(.*?)<\/t[hd]>/g)].map((match) =>
    textOf((match[1] ?? '').replaceAll('<br>', '\n'))
  )

export function tablesOf(html: string): ShownTable[] {
  return [...html.matchAll(/<table>([\s\S]*?)<\/table>/g)].map((match) => {
    const [head = [], ...rows] = [...(match[1] ?? '').matchAll(/<tr>(.*?)<\/tr>/g)].map((row) =>
      cellTexts(row[1] ?? '')
    )
    return { head, rows }
  })
}

/** The rows of every table, header excluded, as their cells' text. */
export const cellsOf = (html: string): string[][] => tablesOf(html).flatMap(({ rows }) => rows)

/** A list: the text of each item it shows, and how many more it counts after them (0 if none). */
export interface ShownList {
  items: string[]
  more: number
}

export function listsOf(html: string): ShownList[] {
  return [...html.matchAll(/<ul>([\s\S]*?)<\/ul>/g)].map((match) => {
    const items = [...(match[1] ?? '').matchAll(/<li>(.*?)<\/li>/g)].map((item) =>
      textOf(item[1] ?? '')
    )
    const more = /^… and (\d+) more/.exec(items.at(-1) ?? '')?.[1]
    return more === undefined
      ? { items, more: 0 }
      : { items: items.slice(0, -1), more: Number(more) }
  })
}

/** What each note under a table that hides rows says: how many it shows, of how many, of what. */
export interface ShownNote {
  shown: number
  total: number
  what: string
}

export const notesOf = (html: string): ShownNote[] =>
  [...textOf(html).matchAll(/Showing (\d+) of (\d+) ([^;]*);/g)].map((match) => ({
    shown: Number(match[1]),
    total: Number(match[2]),
    what: match[3] ?? ''
  }))

/** The title of each fold, in order. */
export const foldsOf = (html: string): string[] =>
  [...html.matchAll(/<details><summary>(.*?)<\/summary>/g)].map((match) => textOf(match[1] ?? ''))

/** Where each link goes, as a browser reads its `href`. */
export const hrefsOf = (html: string): string[] =>
  [...html.matchAll(/<a href="([^"]*)">/g)].map((match) => textOf(match[1] ?? ''))

/** The markup the summary itself writes taken out; anything left that is markup was injected. */
export function withoutOwnMarkup(html: string): string {
  return html
    .replace(/<\/?(h2|h3|h4|p|code|b|br|table|tr|th|td|details|summary|ul|li)>/g, '')
    .replace(/<a href="[^"<>]*">/g, '')
    .replace(/<\/a>/g, '')
}
