/**
 * The rules of the house (CONTRIBUTING.md, "The code"): imports only run down, capabilities stand
 * side by side, only the runner door knows the runner (the command line's door, src/cli/, never does), tools/ and scripts/ stand on their own,
 * files and functions stay short (tools/code-size.ts), and src/ exports nothing only the tests
 * import. Read from the source, so a new file obeys them too.
 */
import { describe, expect, it } from '@jest/globals'
import { readdirSync, readFileSync } from 'node:fs'
import { basename, dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  MAX_FILE_LINES,
  MAX_FUNCTION_LINES,
  longFiles,
  longFunctions,
  testOnlyExports
} from '../tools/code-size.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const SRC = join(ROOT, 'src')

function sourceFiles(dir: string, name = /\.ts$/): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name), name)
      : name.test(entry.name)
        ? [join(dir, entry.name)]
        : []
  )
}

/** Every module a file imports, in any form: import, import type, export … from, import(). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8')
  const specifiers = [
    ...text.matchAll(/(?:import|export)\s[^'";]*?from\s*['"]([^'"]+)['"]/g),
    ...text.matchAll(/import\s*\(\s*['"]([^'"]+)['"]\s*\)/g),
    ...text.matchAll(/^import\s*['"]([^'"]+)['"]/gm)
  ].map((match) => match[1] ?? '')
  return specifiers.map((specifier) =>
    specifier.startsWith('.')
      ? relative(ROOT, resolve(dirname(file), specifier)).replace(/\.js$/, '.ts')
      : specifier
  )
}

const files = sourceFiles(SRC).map((file) => ({
  path: relative(ROOT, file),
  imports: importsOf(file)
}))

/** The floor a module lives on: its top folder under src/, or its own name. */
function roomOf(path: string): string {
  const [, top = '', second = ''] = path.split('/')
  if (top === 'capabilities') return `capabilities/${second.replace(/\.ts$/, '')}`
  return top.replace(/\.ts$/, '')
}

/** What each room may import from the others (rooms not listed here import nothing of ours). */
const MAY_IMPORT: Record<string, string[]> = {
  index: ['main'],
  main: [
    'runner',
    'pipeline',
    'report',
    'capabilities',
    'record',
    'clock',
    'config',
    'text',
    'log',
    'github'
  ],
  // The command line: a second door, beside the runner's, that knows nothing of the runner.
  cli: [
    'pipeline',
    'report',
    'capabilities',
    'config',
    'text',
    'record',
    'log',
    'clock',
    'github',
    'github-api',
    'git',
    'http',
    'report-kit'
  ],
  runner: [
    'config',
    'text',
    'record',
    'log',
    'github',
    'github-api',
    'http',
    'clock',
    'report-kit'
  ],
  // GitHub's calls and their bounds, for both doors: each makes its own Octokit.
  'github-api': ['github', 'http', 'text', 'clock'],
  pipeline: [
    'core',
    'capabilities',
    'record',
    'config',
    'http',
    'text',
    'clock',
    'log',
    'github',
    'git'
  ],
  core: ['record', 'config', 'http', 'text', 'clock', 'log'],
  capabilities: ['record', 'config', 'http', 'report-kit', 'text', 'clock', 'log', 'github', 'git'],
  report: ['capabilities', 'report-kit', 'record', 'config', 'text', 'log'],
  'report-kit': ['text', 'log'],
  record: ['config', 'text'],
  http: ['text', 'clock', 'log'],
  config: ['text'],
  log: [],
  clock: [],
  github: ['clock'],
  git: [],
  text: []
}

function floorOf(room: string): string {
  return room.startsWith('capabilities/') ? 'capabilities' : room
}

/** The list, and the type every capability is made to: the capabilities' floor besides their folders. */
const LIST = 'capabilities/index'
const CAPABILITY_TYPE = 'capabilities/capability'

/** Whether a room is one capability's folder. */
const isCapability = (room: string): boolean =>
  floorOf(room) === 'capabilities' && room !== LIST && room !== CAPABILITY_TYPE

/** What the tests, the demo, the bench and the scripts share, and the scripts themselves. */
const toolsAndScripts = ['tools', 'scripts'].flatMap((dir) =>
  sourceFiles(join(ROOT, dir), /\.(ts|mts|mjs)$/)
)

describe('the rules of the house', () => {
  it('finds the source files it judges', () => {
    expect(files.map((file) => file.path)).toEqual(
      expect.arrayContaining(['src/main.ts', 'src/pipeline/index.ts', 'src/record/index.ts'])
    )
  })

  it('only src/main.ts and src/runner/ know @actions/core and @actions/github', () => {
    const outside = files
      .filter(({ path }) => path !== 'src/main.ts' && !path.startsWith('src/runner/'))
      .flatMap(({ path, imports }) =>
        imports
          .filter((name) => /^@actions\/(core|github)(\/|$)/.test(name))
          .map((name) => `${path} → ${name}`)
      )
    expect(outside).toEqual([])
  })

  it('src/cli/, the command line, knows nothing of the runner: no @actions/* package', () => {
    const cli = files.filter(({ path }) => path.startsWith('src/cli/'))
    expect(cli.length).toBeGreaterThan(0)
    const wrong = cli.flatMap(({ path, imports }) =>
      imports.filter((name) => name.startsWith('@actions/')).map((name) => `${path} → ${name}`)
    )
    expect(wrong).toEqual([])
  })

  it('imports only run down, and a capability never imports another capability', () => {
    const wrong = files.flatMap(({ path, imports }) => {
      const from = roomOf(path)
      const allowed = MAY_IMPORT[floorOf(from)] ?? []
      return imports
        .filter((name) => name.startsWith('src/'))
        .map((name) => ({ name, to: roomOf(name) }))
        .filter(({ to }) => to !== from)
        .filter(({ to }) =>
          floorOf(from) === 'capabilities' && floorOf(to) === 'capabilities'
            ? from !== LIST && to !== CAPABILITY_TYPE
            : !allowed.includes(floorOf(to))
        )
        .map(({ name }) => `${path} → ${name}`)
    })
    expect(wrong).toEqual([])
  })

  it('only the list imports a capability from outside its folder: the report and the core never do', () => {
    const wrong = files.flatMap(({ path, imports }) =>
      imports
        .filter((name) => name.startsWith('src/') && isCapability(roomOf(name)))
        .filter((name) => roomOf(name) !== roomOf(path) && roomOf(path) !== LIST)
        .map((name) => `${path} → ${name}`)
    )
    expect(wrong).toEqual([])
    expect(files.filter(({ path }) => roomOf(path) === LIST).map(({ path }) => path)).toEqual([
      'src/capabilities/index.ts'
    ])
  })

  it('no two modules share a file name, but index.ts and the names capability folders share', () => {
    const named = (inCapability: boolean): string[] =>
      files
        .filter(({ path }) => isCapability(roomOf(path)) === inCapability)
        .map(({ path }) => basename(path))
        .filter((name) => name !== 'index.ts')
    const outside = named(false)
    const inside = new Set(named(true))
    const clashes = outside.filter((name, at) => outside.indexOf(name) !== at || inside.has(name))
    expect(clashes).toEqual([])
  })

  it('tools/ and scripts/ import nothing from __tests__/: what a script needs lives in tools/', () => {
    expect(toolsAndScripts.length).toBeGreaterThan(0)
    const wrong = toolsAndScripts.flatMap((file) =>
      importsOf(file)
        .filter((name) => name.startsWith('__tests__/'))
        .map((name) => `${relative(ROOT, file)} → ${name}`)
    )
    expect(wrong).toEqual([])
  })

  it('hands the pipeline nothing of the report: the report reads the record runPipeline returns', () => {
    // Only the doors' tables of contents import report/, so a hand-out could only be a callback
    // one of them gives the pipeline.
    const doors = ['src/cli/command.ts', 'src/main.ts']
    const importers = files
      .filter(({ path }) => !path.startsWith('src/report/'))
      .filter(({ imports }) => imports.some((name) => name.startsWith('src/report/')))
      .map(({ path }) => path)
      .sort()
    expect(importers).toEqual(doors)
    for (const door of doors) {
      const text = readFileSync(join(ROOT, door), 'utf8')
      const deps = /const deps: PipelineDeps = \{([^}]*)\}/.exec(text)?.[1] ?? ''
      const given = deps.split(',').map((entry) => entry.split(':')[0]?.trim())
      // The command's door also hands in the repository on its machine, a source of changed files.
      const handed = given.filter((name) => name !== '' && name !== 'localGit')
      expect(handed).toEqual(['clock', 'signal', 'log', 'guard', 'connect', 'openGitHub'])
    }
  })

  it('keeps main.ts a table of contents of at most 60 lines', () => {
    const lines = readFileSync(join(SRC, 'main.ts'), 'utf8').trimEnd().split('\n')
    expect(lines.length).toBeLessThanOrEqual(60)
  })

  it(`no file in src/ over ${MAX_FILE_LINES} lines`, () => {
    expect(longFiles(ROOT)).toEqual([])
  })

  it(`no function in src/, tools/ or scripts/ over ${MAX_FUNCTION_LINES} lines`, () => {
    expect(longFunctions(ROOT)).toEqual([])
  })

  it('no export of src/ that only the tests import', () => {
    const found = testOnlyExports(ROOT).map(({ module, name }) => `${module} › ${name}`)
    expect(found).toEqual([])
  })

  it('awaits nothing at the top level of any module the bundle loads at start', () => {
    // A top-level await makes ncc wrap the whole program in an async module, whose body V8 parses
    // a second time when it runs, on every start.
    const entry = readFileSync(join(ROOT, 'dist', 'index.js'), 'utf8')
    expect(entry).not.toContain('__webpack_handle_async_dependencies__')
  })
})
