/**
 * The job summary's HTML as text for a terminal, its tables cut to their first rows: what the
 * command prints after its log, and what `npm run demo` and `npm run action` print of a run.
 */
import { convert } from 'html-to-text'

/** Rows of the summary's tables shown here in all, failures first (the summary's own order). */
const SHOWN_ROWS = 8
/** Rows each table shows even when the tables above it took all of SHOWN_ROWS. */
const MIN_SHOWN_ROWS = 3

const TABLE = /<table\b[^>]*>[\s\S]*?<\/table>/gi
const ROW = /<tr\b[^>]*>[\s\S]*?<\/tr>\n?/gi
const isDataRow = (row: string): boolean => /<td\b/i.test(row)

/**
 * The summary's HTML with each table cut to its first rows, so the log above stays on screen, and
 * under a table that lost rows, how many, and `where` the others are. A "Showing N of M" line after
 * a table is the summary's own (its file holds N of M).
 */
function cutTables(html: string, where: string): string {
  let left = SHOWN_ROWS
  return html.replace(TABLE, (table) => {
    const rows = (table.match(ROW) ?? []).filter(isDataRow).length
    const keep = Math.min(rows, Math.max(left, MIN_SHOWN_ROWS))
    left -= keep
    if (keep === rows) return table
    let seen = 0
    const cut = table.replace(ROW, (row) => (!isDataRow(row) || ++seen <= keep ? row : ''))
    const others = rows - keep === 1 ? 'the other one is' : `the other ${rows - keep} are`
    return `${cut}\n<p>(${keep} of this table’s ${rows} rows shown here; ${others} ${where}.)</p>`
  })
}

/**
 * The summary as text with aligned columns, headings as written (a service id keeps its case),
 * wrapped to `columns`; `where`: where a cut table's other rows are.
 */
export function summaryAsText(html: string, where: string, columns = 120): string {
  const heading = { format: 'heading', options: { uppercase: false } }
  return convert(cutTables(html, where), {
    wordwrap: Math.min(columns, 160),
    selectors: [
      ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((selector) => ({ selector, ...heading })),
      { selector: 'table', format: 'dataTable', options: { maxColumnWidth: 72 } }
    ]
  })
}
