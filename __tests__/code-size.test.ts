/** Unit tests of tools/code-size.ts, on a small repository written for them. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import {
  exportUses,
  functionSizes,
  lineCount,
  longFiles,
  longFunctions,
  testOnlyExports
} from '../tools/code-size.js'

/** `n` lines of statements, for a body of a known length. */
const filler = (n: number, indent = '  ') =>
  Array.from({ length: n }, (_, i) => `${indent}void ${i}`).join('\n')

const FILES: Record<string, string> = {
  'tsconfig.json': JSON.stringify({
    compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true },
    include: ['src', '__tests__', 'scripts', 'tools']
  }),
  'src/long.ts': `${filler(351, '')}\n`,
  'src/limit.ts': `${filler(350, '')}\n`,
  // 61 lines from `export function` to its `}`: one over.
  'src/long-function.ts': `export function tooLong(): void {\n${filler(59)}\n}\n`,
  'src/a.ts': [
    'export const used = 1',
    'export const testOnly = 2',
    'export interface TypeOnly { a: number }',
    'export const lazy = 3',
    'export const lazyProperty = 4',
    'export const inType = 5',
    'export const reexported = 6',
    'export const unused = 7',
    'export const inTools = 8',
    'export const selfOnly = 9',
    'export const viaNamespace = 10',
    'void selfOnly',
    ''
  ].join('\n'),
  'src/b.ts': [
    "import { used } from './a.js'",
    "import * as a from './a.js'",
    "const later = () => import('./a.js')",
    'export async function b(): Promise<number> {',
    "  const { lazy } = await import('./a.js')",
    '  return used + lazy + (await later()).lazyProperty + a.viaNamespace',
    '}',
    "export type Shape = typeof import('./a.js').inType",
    ''
  ].join('\n'),
  'src/c.ts': "export { reexported } from './a.js'\n",
  'tools/t.ts': "import { inTools } from '../src/a.js'\nexport const t = inTools\n",
  '__tests__/a.test.ts': [
    "import { testOnly as renamed, used, type TypeOnly } from '../src/a.js'",
    "import { reexported } from '../src/c.js'",
    "import { b } from '../src/b.js'",
    'export const all: [number, number, TypeOnly, number, unknown] = [renamed, used, { a: 1 }, reexported, b]',
    ''
  ].join('\n')
}

// No package.json: the files are CommonJS, where the members of `import()` are copies of the
// exports, not the exports themselves: the harder case.
let root = ''

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'edge-purge-code-size-'))
  for (const [path, text] of Object.entries(FILES)) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), text)
  }
})

afterAll(() => rmSync(root, { recursive: true, force: true }))

describe('lineCount', () => {
  it('counts lines as wc -l does, and a last line without its newline', () => {
    expect([
      lineCount(''),
      lineCount('a'),
      lineCount('a\n'),
      lineCount('a\nb'),
      lineCount('\n\n')
    ]).toEqual([0, 1, 1, 2, 2])
  })
})

describe('longFiles', () => {
  it('finds the files in src/ over 350 lines', () => {
    expect(longFiles(root)).toEqual([{ file: 'src/long.ts', lines: 351 }])
  })
})

describe('functionSizes', () => {
  const sizes = (text: string) =>
    functionSizes('x.ts', text).map(({ name, line, lines }) => [name, line, lines])

  it('measures each kind of function from its first line to its last, nested ones on their own', () => {
    const text = [
      '/** A doc comment is not counted. */',
      'export async function outer() {',
      '  const inner = () => {',
      '    return [1].map((n) => n)',
      '  }',
      '  setTimeout(function () {}, 1)',
      '  return inner',
      '}',
      'class Box {',
      '  constructor() {}',
      '  get size() { return 1 }',
      '  set size(_: number) {}',
      '  open() {}',
      '  close = () => {}',
      '}',
      'const handlers = { onA() {}, onB: function named() {}, onC: () => 1 }',
      'setTimeout(() => {}, 0)'
    ].join('\n')
    expect(sizes(text)).toEqual([
      ['outer', 2, 7],
      ['inner', 3, 3],
      ['<arrow in inner>', 4, 1],
      ['<function in outer>', 6, 1],
      ['Box.constructor', 10, 1],
      ['get Box.size', 11, 1],
      ['set Box.size', 12, 1],
      ['Box.open', 13, 1],
      ['Box.close', 14, 1],
      ['handlers.onA', 16, 1],
      ['handlers.onB', 16, 1],
      ['handlers.onC', 16, 1],
      ['<arrow at top level>', 17, 1]
    ])
  })

  it('tells apart two functions of one name by their order', () => {
    const text = 'function f() {\n  ;[1].map(() => 1)\n  ;[2].map(() => 2)\n}\n'
    expect(sizes(text).map(([name]) => name)).toEqual(['f', '<arrow in f>', '<arrow in f> #2'])
  })
})

describe('longFunctions', () => {
  it('finds the functions over 60 lines', () => {
    expect(longFunctions(root)).toEqual([
      { file: 'src/long-function.ts', name: 'tooLong', line: 1, lines: 61 }
    ])
  })
})

describe('exportUses and testOnlyExports', () => {
  it('sees every form of import, and who makes it', () => {
    const importers = Object.fromEntries(
      exportUses(root)
        .filter(({ module }) => module === 'src/a.ts' || module === 'src/c.ts')
        .map(({ module, name, importedBy }) => [`${module} ${name}`, importedBy.sort()])
    )
    expect(importers).toEqual({
      'src/a.ts inTools': ['tools/t.ts'],
      'src/a.ts inType': ['src/b.ts'],
      'src/a.ts lazy': ['src/b.ts'],
      'src/a.ts lazyProperty': ['src/b.ts'],
      'src/a.ts reexported': ['__tests__/a.test.ts', 'src/c.ts'],
      'src/a.ts selfOnly': [],
      'src/a.ts testOnly': ['__tests__/a.test.ts'],
      'src/a.ts TypeOnly': ['__tests__/a.test.ts'],
      'src/a.ts unused': [],
      'src/a.ts used': ['__tests__/a.test.ts', 'src/b.ts'],
      'src/a.ts viaNamespace': ['src/b.ts'],
      'src/c.ts reexported': ['__tests__/a.test.ts']
    })
  })

  it('lists the exports only the tests import', () => {
    expect(testOnlyExports(root).map(({ module, name }) => `${module} ${name}`)).toEqual([
      'src/a.ts testOnly',
      'src/a.ts TypeOnly',
      'src/b.ts b',
      'src/c.ts reexported'
    ])
  })
})
