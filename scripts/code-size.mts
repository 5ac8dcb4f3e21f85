/**
 * npm run code-size
 *
 * Prints what the size rules of __tests__/house-rules.test.ts measure (tools/code-size.ts): the
 * files in src/ over 350 lines, the functions in src/, tools/ and scripts/ over 60, the exports of
 * src/ that only the tests import, each with its count, then the lines and .ts files in src/. Run
 * it before and after a change for the figures of both.
 */
import { fileURLToPath } from 'node:url'
import {
  MAX_FILE_LINES,
  MAX_FUNCTION_LINES,
  longFiles,
  longFunctions,
  srcFileSizes,
  testOnlyExports
} from '../tools/code-size.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))

/** A heading with its count, then one line per row, its columns lined up. */
function section(title: string, rows: string[][]): string {
  const widths = rows[0]?.map((_, column) =>
    Math.max(...rows.map((row) => (row[column] ?? '').length))
  )
  const lines = rows.map((row) =>
    row
      .map((cell, column) => cell.padEnd(widths?.[column] ?? 0))
      .join('  ')
      .trimEnd()
  )
  return [`${title}: ${rows.length}`, ...lines.map((line) => `  ${line}`)].join('\n')
}

const files = srcFileSizes(ROOT)
console.log(
  [
    section(
      `Files in src/ over ${MAX_FILE_LINES} lines`,
      longFiles(ROOT).map(({ file, lines }) => [file, String(lines)])
    ),
    section(
      `Functions in src/, tools/ and scripts/ over ${MAX_FUNCTION_LINES} lines`,
      longFunctions(ROOT).map(({ file, name, line, lines }) => [
        `${file}:${line}`,
        name,
        String(lines)
      ])
    ),
    section(
      'Exports of src/ that only __tests__/ imports',
      testOnlyExports(ROOT).map(({ module, name, importedBy }) => [
        module,
        name,
        importedBy.join(', ')
      ])
    ),
    `src/: ${files.reduce((sum, { lines }) => sum + lines, 0)} lines in ${files.length} .ts files`
  ].join('\n\n')
)
