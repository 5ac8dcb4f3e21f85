// Regenerates README.md's inputs and outputs from action.yml, so the two never disagree.
// Inputs are one commented usage block, as actions/checkout shows them, in groups by purpose (a
// reader looking for the wait's inputs finds them together), and outputs a list: unlike prettier's
// padded tables, both grow by the length of the descriptions alone.
// It also writes src/cli/action-inputs.ts, the inputs' defaults the command line embeds at build
// time (the bundle cannot read action.yml where it is installed).
// Usage: node scripts/docs.mjs            rewrite the sections in place
//        node scripts/docs.mjs --check    exit 1 when a section is stale, without writing
import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import * as prettier from 'prettier'
import { parse } from 'yaml'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const ACTION_YML = join(ROOT, 'action.yml')
const README = join(ROOT, 'README.md')
const CLI_INPUTS = join(ROOT, 'src', 'cli', 'action-inputs.ts')
const WIDTH = 100
const check = process.argv.includes('--check')

/** Words of `text` in lines of at most `width` characters (a longer word gets a line of its own). */
function wrap(text, width) {
  const lines = []
  let line = ''
  for (const word of String(text).trim().split(/\s+/)) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line)
      line = word
    } else {
      line = line === '' ? word : `${line} ${word}`
    }
  }
  if (line !== '') lines.push(line)
  return lines
}

/** A default as a YAML value: as written when YAML reads it back as the same text, else quoted. */
function yamlValue(value) {
  if (value === undefined || value === '') return "''"
  const text = String(value)
  try {
    if (String(parse(text)) === text) return text
  } catch {
    // Not a plain scalar: quoted below.
  }
  return JSON.stringify(text)
}

/**
 * The README's groups of inputs, in order, each input in exactly one: an input action.yml adds or
 * drops fails the generator until it is placed here.
 */
const INPUT_GROUPS = [
  ['What to purge', ['mode', 'keys', 'keys-file', 'urls', 'urls-file', 'soft']],
  [
    'The purge API',
    [
      'api-token',
      'base-url',
      'service-id',
      'url-purge-auth',
      'batch-format',
      'batch-size',
      'concurrency',
      'max-attempts',
      'timeout'
    ]
  ],
  ['Changed files', ['changed-files', 'changed-since', 'url-map', 'key-map', 'github-token']],
  ['Wait for the origin', ['wait-for-url', 'wait-for-text', 'wait-passes', 'wait-timeout']],
  ['Edge check', ['verify', 'verify-urls', 'verify-text', 'verify-timeout', 'verify-assets']],
  ['Behaviour', ['dry-run', 'summary', 'fail-on-error', 'repeat-after']]
]

function groupedInputs(inputs) {
  const grouped = INPUT_GROUPS.flatMap(([, names]) => names)
  const declared = Object.keys(inputs)
  const unplaced = declared.filter((name) => !grouped.includes(name))
  const unknown = grouped.filter((name) => !declared.includes(name))
  const twice = grouped.filter((name, index) => grouped.indexOf(name) !== index)
  if (unplaced.length + unknown.length + twice.length > 0) {
    throw new Error(
      `INPUT_GROUPS in scripts/docs.mjs must hold each input of action.yml once: ` +
        `not in a group: ${unplaced.join(', ') || 'none'}; not in action.yml: ` +
        `${unknown.join(', ') || 'none'}; in two places: ${twice.join(', ') || 'none'}`
    )
  }
  return INPUT_GROUPS.map(([title, names]) => [title, names.map((name) => [name, inputs[name]])])
}

function inputsBlock(inputs) {
  const indent = '    '
  const entry = ([name, input]) => {
    const comment = wrap(input?.description ?? '', WIDTH - indent.length - 2).map(
      (line) => `${indent}# ${line}`
    )
    return [...comment, `${indent}${name}: ${yamlValue(input?.default)}`].join('\n')
  }
  const groups = groupedInputs(inputs).map(([title, entries]) =>
    [`${indent}# --- ${title} ---`, ...entries.map(entry)].join('\n\n')
  )
  return [
    '```yaml',
    '- uses: edge-purge/edge-purge@v1',
    '  with:',
    groups.join('\n\n'),
    '```'
  ].join('\n')
}

/**
 * Text that Markdown shows as written: emphasis, link, code and HTML characters escaped. An
 * underscore inside a word (`http_status`) emphasises nothing, so it is left as it reads.
 */
function plain(text) {
  return String(text).replace(/[\\`*[\]<>]|(?<!\w)_|_(?!\w)/g, (char) => `\\${char}`)
}

function outputsList(outputs) {
  return Object.entries(outputs)
    .map(([name, output]) => {
      const [first = '', ...rest] = wrap(
        `\`${name}\`: ${plain(output?.description ?? '')}`,
        WIDTH - 2
      )
      return [`- ${first}`, ...rest.map((line) => `  ${line}`)].join('\n')
    })
    .join('\n')
}

/** Formats generated Markdown as the project's prettier config would, so `format:check` agrees. */
async function formatted(markdown) {
  const options = (await prettier.resolveConfig(README)) ?? {}
  return (await prettier.format(markdown, { ...options, parser: 'markdown' })).trimEnd()
}

/** src/cli/action-inputs.ts: every input's default, in action.yml's order, formatted as prettier would. */
async function cliInputsModule(inputs) {
  const entries = Object.entries(inputs).map(
    ([name, input]) => `  ${JSON.stringify(name)}: ${JSON.stringify(String(input?.default ?? ''))},`
  )
  const text = [
    '// Generated by scripts/docs.mjs from action.yml: `npm run docs` rewrites it, `npm run docs:check`',
    '// fails when it is stale. The command line embeds it, as it cannot read action.yml at run time.',
    "import type { InputName } from '../config/parse-settings.js'",
    '',
    "/** Every input of action.yml and its default (`''` when it has none), in action.yml's order. */",
    'export const ACTION_DEFAULTS: Readonly<Record<InputName, string>> = {',
    ...entries,
    '}',
    ''
  ].join('\n')
  const options = (await prettier.resolveConfig(CLI_INPUTS)) ?? {}
  return prettier.format(text, { ...options, parser: 'typescript' })
}

/** Writes the command line's defaults, or says they are stale with --check: whether they were. */
async function syncCliInputs(inputs) {
  const next = await cliInputsModule(inputs)
  let current = ''
  try {
    current = readFileSync(CLI_INPUTS, 'utf8')
  } catch {
    // Not written yet: stale.
  }
  if (current === next) return false
  if (check) {
    console.error('src/cli/action-inputs.ts does not match action.yml. Run npm run docs.')
    process.exitCode = 1
  } else {
    writeFileSync(CLI_INPUTS, next)
    console.log('src/cli/action-inputs.ts: regenerated from action.yml.')
  }
  return true
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
  const sections = {
    inputs: await formatted(inputsBlock(action.inputs ?? {})),
    outputs: await formatted(outputsList(action.outputs ?? {}))
  }

  await syncCliInputs(action.inputs ?? {})
  const current = readFileSync(README, 'utf8')
  let next = current
  const stale = []
  for (const [name, content] of Object.entries(sections)) {
    const replaced = replaceBetween(next, name, content)
    if (replaced !== next) stale.push(name)
    next = replaced
  }

  if (stale.length === 0) {
    console.log('README.md: inputs and outputs match action.yml.')
  } else if (check) {
    for (const name of stale) console.error(`README.md: the ${name} do not match action.yml.`)
    console.error('Run npm run docs and commit README.md.')
    process.exitCode = 1
  } else {
    writeFileSync(README, next)
    console.log(`README.md: regenerated the ${stale.join(' and ')} from action.yml.`)
  }
} catch (error) {
  console.error(`docs: ${error instanceof Error ? error.message : String(error)}`)
  process.exitCode = 1
}
