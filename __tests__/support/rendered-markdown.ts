/** What GitHub would show for summary text: rendered by a CommonMark/GFM renderer, then read back. */
import { marked } from 'marked'

export function renderMarkdown(markdown: string): string {
  return marked.parse(markdown, { async: false, gfm: true })
}

/** How many of each element the HTML holds, by tag name. */
export function elementCounts(html: string): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const [, tag] of html.matchAll(/<([a-z][a-z0-9-]*)/gi)) {
    const name = (tag ?? '').toLowerCase()
    counts[name] = (counts[name] ?? 0) + 1
  }
  return counts
}

const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0'
}

/** The text a browser shows for HTML: tags dropped, character references decoded. */
export function textOf(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/&(?:#(\d+)|#x([0-9a-f]+)|([a-z]+));/gi, (reference, decimal, hex, name) => {
      if (decimal !== undefined) return String.fromCodePoint(Number(decimal))
      if (hex !== undefined) return String.fromCodePoint(parseInt(hex, 16))
      return NAMED[String(name).toLowerCase()] ?? reference
    })
}
