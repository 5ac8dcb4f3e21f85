/**
 * `edge-purge --help`: every input by the README's groups (src/cli/input-groups.ts), each with its
 * default and its description from action.yml (embedded: src/cli/action-inputs.ts), then the
 * command's own options, the token variables and the exit codes.
 */
import type { InputName } from '../config/parse-settings.js'
import { ACTION_DEFAULTS, ACTION_DESCRIPTIONS } from './action-inputs.js'
import { INPUT_GROUPS } from './input-groups.js'
import { isSecret, variableOf } from './options.js'

/** The widest the help is wrapped to, whatever the terminal. */
const MAX_COLUMNS = 100
const INDENT = '      '

/** `text`'s words in lines of at most `width` characters, each after `indent`. */
function wrapped(text: string, width: number, indent = INDENT): string[] {
  const lines: string[] = []
  let line = ''
  for (const word of text.split(/\s+/).filter((part) => part !== '')) {
    if (line !== '' && indent.length + line.length + 1 + word.length > width) {
      lines.push(`${indent}${line}`)
      line = word
    } else {
      line = line === '' ? word : `${line} ${word}`
    }
  }
  return line === '' ? lines : [...lines, `${indent}${line}`]
}

const isBoolean = (name: InputName): boolean => ['true', 'false'].includes(ACTION_DEFAULTS[name])

/** How an input is given: its options (a token: its variable or its file), then its words. */
function inputEntry(name: InputName, width: number): string[] {
  const given = isSecret(name)
    ? `${variableOf(name)} or --${name}-file PATH (never --${name})`
    : isBoolean(name)
      ? `--${name}, --no-${name}, --${name}=true|false`
      : `--${name} ${name.endsWith('-file') ? 'PATH' : 'VALUE'}`
  // A token's default (github-token's is an expression) is the runner's alone.
  const fallback = isSecret(name) ? '' : ACTION_DEFAULTS[name]
  const byDefault = fallback === '' ? [] : [`Default: ${fallback}`]
  return [
    `  ${given}`,
    ...wrapped(ACTION_DESCRIPTIONS[name], width),
    ...byDefault.map((line) => `${INDENT}${line}`)
  ]
}

const OWN_OPTIONS: readonly (readonly [string, string])[] = [
  [
    '--api-token-file PATH',
    'The API token, read from a file (surrounding spaces and newline trimmed).'
  ],
  ['--github-token-file PATH', 'The GitHub token, read from a file (trimmed the same way).'],
  ['--json', "The outputs as one JSON object on stdout, by the action's output names."],
  [
    '--results-file PATH',
    "Where the results file is written (default: a new file in the system's temporary folder, TMPDIR honoured); the verification file goes beside it."
  ],
  ['--help, -h', 'This help, on stdout.']
]

const TOKENS: readonly (readonly [string, string])[] = [
  ['EDGE_PURGE_API_TOKEN', 'The API token, or --api-token-file PATH; never on the command line.'],
  [
    'EDGE_PURGE_GITHUB_TOKEN',
    'The GitHub token, or --github-token-file PATH; never on the command line.'
  ]
]

const EXIT_CODES: readonly (readonly [string, string])[] = [
  ['0', 'Every target purged (and fresh and whole, when checked).'],
  ['1', 'A target failed, or a page is not known to be fresh or loads a broken file.'],
  ['2', 'The inputs were refused: nothing was sent.'],
  [
    '130',
    'Cancelled by SIGINT: nothing new sent, what was sent reported, the results file written.'
  ],
  ['143', 'Cancelled by SIGTERM, the same way.'],
  ['129', 'Cancelled by SIGHUP (the terminal closed), the same way.']
]

/** A list of terms and their words, the words aligned after the longest term. */
function table(rows: readonly (readonly [string, string])[], width: number): string[] {
  const column = Math.max(...rows.map(([term]) => term.length)) + 4
  return rows.flatMap(([term, words]) => {
    const [first = '', ...rest] = wrapped(words, width, ' '.repeat(column))
    return [`  ${term.padEnd(column - 2)}${first.trimStart()}`, ...rest]
  })
}

/** The help, wrapped to `columns` (at most 100). */
export function helpText(columns = MAX_COLUMNS): string {
  const width = Math.max(40, Math.min(columns, MAX_COLUMNS))
  const intro = wrapped(
    "Purges CDN caches with the edge-purge action's engine, outside GitHub Actions. Every input of " +
      'action.yml is an option of the same name (--name value or --name=value), or a variable ' +
      'EDGE_PURGE_<NAME> (upper case, - as _); an option wins over its variable. For people, ' +
      'everything goes to stderr; stdout carries only --json.',
    width,
    ''
  )
  // action.yml's words speak of GitHub's events; the command reads its changed files elsewhere.
  const changedFiles = wrapped(
    'Changed files (--changed-files) are read from the git repository the command runs in: ' +
      'git diff --name-status -M from --changed-since to HEAD, or in a GitLab push pipeline from ' +
      'CI_COMMIT_BEFORE_SHA to CI_COMMIT_SHA; no GitHub token is needed. changed-since: ' +
      "last-purge keeps its record through GitHub's API: it needs GITHUB_API_URL, " +
      'GITHUB_REPOSITORY and a GitHub token (the commit deployed: GITHUB_SHA, else ' +
      'CI_COMMIT_SHA, else HEAD).',
    width,
    ''
  )
  const groups = INPUT_GROUPS.flatMap(([title, names]) => [
    '',
    `${title}:`,
    ...names.flatMap((name) => inputEntry(name, width))
  ])
  return [
    'Usage: edge-purge [--input value]... [--json] [--results-file PATH]',
    '',
    ...intro,
    ...groups,
    '',
    ...changedFiles,
    '',
    "The command's own options:",
    ...table(OWN_OPTIONS, width),
    '',
    'Tokens (never on the command line, which ends up in shell history and process lists):',
    ...table(TOKENS, width),
    '',
    'Exit codes:',
    ...table(EXIT_CODES, width),
    ''
  ].join('\n')
}
