/** Unit tests of the one guard for text from outside: one line, never a runner command, never markup. */
import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { guardAgainst, type Guard } from '../src/text/guard.js'
import { elementCounts, renderMarkdown, textOf } from './support/rendered-markdown.js'
import { plainLine, quoted, shorten, shownUrl } from '../src/text/shown.js'
import { NO_SECRETS } from './support/guard.js'

const { oneLine, summaryText } = NO_SECRETS

/** How the runner finds a command in a line: `::` after leading spaces, or the legacy `##[` form. */
const COMMAND_START = /^\s*(::|##\[)/
/** Every line break a runner, a terminal or a log viewer could split on. */
const LINE_BREAK = /[\n\r\v\f\u0085\u2028\u2029]/
const HIDDEN = /[\p{Cc}\p{Bidi_Control}\p{Cs}]/u

/** The file name from issue 9: git allows line breaks in names. */
const INJECTING_FILE = 'public/a\n::set-output name=x::1\n::add-mask::a\nb.html'

/** Pieces an attacker would combine, and any code point at all. */
const hostileText = fc.string({
  unit: fc.oneof(
    fc.constantFrom(
      ...[':', '::', '#', '##', '##[', '[', ']', ' ', '\t', '\u00a0', '\u3000', '\ufeff'],
      ...['\n', '\r', '\r\n', '\v', '\f', '\u0085', '\u2028', '\u2029', '\u0000', '\u001b'],
      ...['\u009b', '\u202e', '\u2066', '\u200f', '\ud800', '\udfff', '\\', '`', '*', '_'],
      ...['~', '(', ')', '!', '<', '>', '&', '"', "'", '|', '@', '$', '-', '+', '=', '.'],
      ...['1', 'www.', 'https://', 'add-mask', 'a']
    ),
    fc.string({ unit: 'binary', maxLength: 3 })
  ),
  maxLength: 40
})

describe('oneLine', () => {
  it('property: the shortcut for plain lines gives what the character-by-character walk gives', () => {
    const tricky = fc.constantFrom(
      ' ',
      '  ',
      '\t',
      ':',
      '#',
      '##[',
      '[',
      '\n',
      '\u2028',
      '\u202e',
      '\ud800',
      'é',
      '𝄞',
      'a'
    )
    const text = fc
      .array(fc.oneof(tricky, fc.string()), { maxLength: 12 })
      .map((parts) => parts.join(''))
    fc.assert(
      fc.property(text, fc.integer({ min: 1, max: 40 }), (line, maxChars) => {
        // Trailing spaces make any line not plain, so the second takes the walk, which drops them.
        expect(oneLine(line, maxChars)).toBe(oneLine(`${line}  `, maxChars))
      }),
      { numRuns: 5000 }
    )
  })

  it('shows every kind of line break as an escape, so the text stays on one line', () => {
    const text = 'a\nb\rc\r\nd\ve\ff\u0085g\u2028h\u2029i'
    const line = oneLine(text)
    expect(line).not.toMatch(LINE_BREAK)
    expect(line).toBe('a\\nb\\rc\\r\\nd\\u000be\\u000cf\\u0085g\\u2028h\\u2029i')
  })

  it('shows other controls and bidi overrides as escapes', () => {
    expect(oneLine('a\u0000b\u001b[31mc\u009bd')).toBe('a\\u0000b\\u001b[31mc\\u009bd')
    expect(oneLine('invoice\u202egnp.exe')).toBe('invoice\\u202egnp.exe')
    expect(oneLine('x\u2066y\u2069z\u200f')).toBe('x\\u2066y\\u2069z\\u200f')
    expect(oneLine('lone \ud800 surrogate')).toBe('lone \\ud800 surrogate')
  })

  it('collapses runs of whitespace to one space and drops it at the ends', () => {
    expect(oneLine('  a \t\t b\u00a0\u3000c  ')).toBe('a b c')
  })

  it('leaves ordinary keys, URLs, paths and names as they are', () => {
    for (const text of [
      'product-42',
      'https://www.example.com/docs/?page=2#top',
      'content/blog/2024 review.md',
      'café/日本語/😀.html',
      'HTTP 503 (Service Unavailable): upstream overloaded'
    ]) {
      expect(oneLine(text)).toBe(text)
    }
  })

  it('never starts a runner command, even after leading spaces', () => {
    const line = oneLine('  ::add-mask::secret')
    expect(line).not.toMatch(COMMAND_START)
    expect(line).toBe('\\u003a:add-mask::secret')
  })

  it('breaks the legacy ##[command] form wherever it stands, since the runner finds it anywhere', () => {
    expect(oneLine('x ##[add-mask]y')).toBe('x ##\\u005badd-mask]y')
    expect(oneLine('###[stop-commands]t')).not.toContain('##[')
    expect(oneLine('# #[a] ## [b]')).toBe('# #[a] ## [b]')
  })

  it('turns the injecting file name of issue 9 into one inert line', () => {
    const line = oneLine(INJECTING_FILE)
    expect(line).toBe('public/a\\n::set-output name=x::1\\n::add-mask::a\\nb.html')
    for (const placed of [line, `  ${line}`, `${line} → url x`]) {
      expect(placed).not.toMatch(COMMAND_START)
    }
  })

  it('cuts to maxChars with an ellipsis, never inside an escape or a surrogate pair', () => {
    expect(oneLine('abcdefgh', 5)).toBe('abcde…')
    expect(oneLine('abcde', 5)).toBe('abcde')
    expect(oneLine('\n\n\n', 5)).toBe('\\n\\n…')
    expect(oneLine('ab😀c', 3)).toBe('ab…')
    expect(oneLine('x'.repeat(10_000))).toHaveLength(301)
  })

  it('for any text: one line, no hidden character, no command start, within maxChars', () => {
    fc.assert(
      fc.property(hostileText, fc.integer({ min: 1, max: 60 }), (text, maxChars) => {
        const line = oneLine(text, maxChars)
        expect(line).not.toMatch(LINE_BREAK)
        expect(line).not.toMatch(HIDDEN)
        expect(line).not.toMatch(COMMAND_START)
        expect(line).not.toContain('##[')
        expect(line.length).toBeLessThanOrEqual(maxChars + 1)
      }),
      { numRuns: 2000 }
    )
  })

  it('for any text: guarding twice changes nothing', () => {
    fc.assert(
      fc.property(hostileText, (text) => {
        const line = oneLine(text, 1000)
        expect(oneLine(line, 1000)).toBe(line)
      }),
      { numRuns: 1000 }
    )
  })
})

describe('summaryText', () => {
  it('escapes HTML', () => {
    expect(summaryText(`<img src=x onerror="a">&'`)).toBe(
      '&lt;img src=x onerror=&quot;a&quot;&gt;&amp;&#39;'
    )
  })

  it('writes what GFM reads as syntax as character references', () => {
    const html = summaryText('![x](https://evil.example/i.png) **b** _e_ `c` ~~s~~ a|b # \\ $m$')
    expect(html.replace(/&#\d+;/g, '')).not.toMatch(/[!*_`~|#\\$[\]():]/)
  })

  it('breaks autolinks: scheme:, www. in any case, and e-mail addresses', () => {
    expect(summaryText('https://evil.example')).toBe('https&#58;//evil.example')
    expect(summaryText('see www.evil.example or WWW.Evil.example')).toBe(
      'see www&#46;evil.example or WWW&#46;Evil.example'
    )
    expect(summaryText('a@evil.example')).toBe('a&#64;evil.example')
  })

  it('escapes what starts a block only at the start: list items, setext lines, ordered lists', () => {
    expect(summaryText('- item')).toBe('&#45; item')
    expect(summaryText('+ item')).toBe('&#43; item')
    expect(summaryText('===')).toBe('&#61;==')
    expect(summaryText('12. item')).toBe('12&#46; item')
    expect(summaryText('1740093-1756794994-1')).toBe('1740093-1756794994-1')
  })

  it('renders hostile text as the same text, with no element, in a paragraph', () => {
    const text =
      'a\n\n# Heading\n\n[link](https://evil.example) <img src=x> **bold** www.evil.example'
    const html = renderMarkdown(summaryText(text))
    expect(elementCounts(html)).toEqual({ p: 1 })
    expect(textOf(html).trim()).toBe(oneLine(text))
  })

  it('for any text: renders as exactly its one-line form, in a paragraph and in a table cell', () => {
    fc.assert(
      fc.property(hostileText, (text) => {
        const line = oneLine(text)
        fc.pre(line !== '')
        const paragraph = renderMarkdown(summaryText(text))
        expect(elementCounts(paragraph)).toEqual({ p: 1 })
        expect(textOf(paragraph).trim()).toBe(line)

        const table = renderMarkdown(`| h |\n| - |\n| ${summaryText(text)} |`)
        expect(elementCounts(table)).toEqual({ table: 1, thead: 1, tbody: 1, tr: 2, th: 1, td: 1 })
        expect(/<td>(.*)<\/td>/.exec(table)?.[1]).toBeDefined()
        expect(textOf(/<td>(.*)<\/td>/.exec(table)?.[1] ?? '')).toBe(line)
      }),
      { numRuns: 1000 }
    )
  })
})

describe('secrets are hidden before anything is cut or escaped', () => {
  const TOKEN = 'EDGEtok0123456789abcdefSECRET'

  /** The token or any piece of it at least 6 characters long. */
  const leaks = (text: string, token = TOKEN): boolean =>
    Array.from({ length: token.length - 5 }, (_, start) => token.slice(start, start + 6)).some(
      (piece) => text.includes(piece)
    )

  it('by every helper that cuts: a token at the cut leaves no prefix in view', () => {
    // Each cut falls 10 characters into the token.
    const cutters: [string, number, (guard: Guard, text: string) => string][] = [
      ['oneLine', 80, (guard, text) => guard.oneLine(text, 80)],
      ['summaryText', 80, (guard, text) => guard.summaryText(text, 80)],
      ['shorten', 60, shorten],
      ['plainLine', 80, (guard, text) => plainLine(guard, text, 80)],
      ['shownUrl', 200, shownUrl],
      ['quoted', 80, quoted]
    ]
    for (const [name, at, cutter] of cutters) {
      const text = `${'x'.repeat(at - 10)}${TOKEN}`
      expect([name, leaks(cutter(guardAgainst([TOKEN]), text))]).toEqual([name, false])
      // With a guard that knows no secret, the same cut shows its start: the test can tell.
      expect([name, leaks(cutter(NO_SECRETS, text))]).toEqual([name, true])
    }
  })

  /** Every printable ASCII character (what a token may hold) the summary writes another way. */
  const ESCAPED = Array.from({ length: 0x7f - 0x20 }, (_, index) =>
    String.fromCharCode(0x20 + index)
  ).filter((char) => summaryText(`a${char}b`) !== `a${char}b`)

  it('finds the characters the summary escapes from the guard itself', () => {
    expect(ESCAPED.join('')).toBe('!"#$&\'()*:<>@[\\]_`|~')
  })

  // Each escaped character inside a token, and the spellings escaped only where they stand.
  const tokens = [
    ...ESCAPED.map((char) => `EDGE${char}tok0123456789`),
    '-EDGEtok0123456789',
    '+EDGEtok0123456789',
    '=EDGEtok0123456789',
    '1.EDGEtok0123456789',
    'EDGEwww.tok0123456789',
    'EDGE##[tok0123456789',
    'EDGE  tok0123456789'
  ]

  it.each(tokens)('the rendered summary never shows the token %j', (token) => {
    const guard = guardAgainst([token])
    for (const text of [token, `said: ${token} (at the start of a line too)`]) {
      const rendered = textOf(renderMarkdown(`<p>${guard.summaryText(text)}</p>`))
      expect(rendered).not.toContain(token)
      expect(rendered).toContain('***')
    }
  })
})
