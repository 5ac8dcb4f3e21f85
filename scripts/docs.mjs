// Regenerates README.md's inputs and outputs tables from action.yml, so the two never disagree.
// Usage: node scripts/docs.mjs            rewrite the tables in place
//        node scripts/docs.mjs --check    exit 1 when a table is stale, without writing
import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import * as prettier from 'prettier'
import { parse } from 'yaml'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const ACTION_YML = join(ROOT, 'action.yml')
const README = join(ROOT, 'README.md')
const check = process.argv.includes('--check')

/** A value as one table cell: one line, pipes escaped so they do not split the row. */
function cell(text) {
  return String(text).replace(/\s+/g, ' ').trim().replace(/\|/g, '\\|')
}

/** A code span that survives backticks inside the value; empty stays blank. */
function code(value) {
  const text = cell(value)
  if (text === '') return ''
  const longestRun = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length))
  const fence = '`'.repeat(longestRun + 1)
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : ''
  return `${fence}${pad}${text}${pad}${fence}`
}

function table(header, rows) {
  const lines = [
    `| ${header.join(' | ')} |`,
    `| ${header.map(() => '---').join(' | ')} |`,
    ...rows.map((row) => `| ${row.join(' | ')} |`)
  ]
  return lines.join('\n')
}

function inputsTable(inputs) {
  return table(
    ['Input', 'Default', 'Description'],
    Object.entries(inputs).map(([name, input]) => [
      code(name),
      input?.default === undefined ? '' : code(input.default),
      cell(input?.description ?? '')
    ])
  )
}

function outputsTable(outputs) {
  return table(
    ['Output', 'Description'],
    Object.entries(outputs).map(([name, output]) => [code(name), cell(output?.description ?? '')])
  )
}

/** Formats a table as the project's prettier config would, so `format:check` agrees with it. */
async function formatted(markdown) {
  const options = (await prettier.resolveConfig(README)) ?? {}
  return (await prettier.format(markdown, { ...options, parser: 'markdown' })).trimEnd()
}

/** Replaces the text between `<!-- name:start -->` and `<!-- name:end -->`. */
function replaceBetween(text, name, content) {
  const start = `<!-- ${name}:start -->`
  const end = `<!-- ${name}:end -->`
  const from = text.indexOf(start)
  const to = text.indexOf(end)
  if (from === -1 || to === -1 || to < from) {
    throw new Error(`README.md has no ${start} ... ${end} markers (in that order)`)
  }
  return `${text.slice(0, from + start.length)}\n\n${content}\n\n${text.slice(to)}`
}

try {
  const action = parse(readFileSync(ACTION_YML, 'utf8'))
  const tables = {
    inputs: await formatted(inputsTable(action.inputs ?? {})),
    outputs: await formatted(outputsTable(action.outputs ?? {}))
  }

  const current = readFileSync(README, 'utf8')
  let next = current
  const stale = []
  for (const [name, content] of Object.entries(tables)) {
    const replaced = replaceBetween(next, name, content)
    if (replaced !== next) stale.push(name)
    next = replaced
  }

  if (stale.length === 0) {
    console.log('README.md: inputs and outputs tables match action.yml.')
  } else if (check) {
    for (const name of stale) {
      console.error(`README.md: the ${name} table does not match action.yml.`)
    }
    console.error('Run npm run docs and commit README.md.')
    process.exitCode = 1
  } else {
    writeFileSync(README, next)
    const what = stale.length === 1 ? `${stale[0]} table` : `${stale.join(' and ')} tables`
    console.log(`README.md: regenerated the ${what} from action.yml.`)
  }
} catch (error) {
  console.error(`docs: ${error instanceof Error ? error.message : String(error)}`)
  process.exitCode = 1
}
