/**
 * How big the code is, read with the TypeScript compiler API: the files in src/ over 350 lines,
 * the functions in src/, tools/ and scripts/ over 60, and the exports of src/ that only the tests
 * import. `__tests__/house-rules.test.ts` holds the code to these limits; `npm run code-size`
 * prints them (scripts/code-size.mts).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, sep } from 'node:path'
import ts from 'typescript'

export const MAX_FILE_LINES = 350
export const MAX_FUNCTION_LINES = 60

export interface FileSize {
  /** Relative to the repository root, with `/`. */
  file: string
  lines: number
}

export interface FunctionSize {
  file: string
  /** Its own name, `Class.method`, or where it sits: `<arrow in foo>`. */
  name: string
  /** 1-based: the line it starts on. */
  line: number
  /** From its first line to its last, both counted. */
  lines: number
}

export interface ExportUse {
  /** The src/ module that exports it. */
  module: string
  name: string
  /** Every other file that imports it. */
  importedBy: string[]
}

/** A path relative to root, with `/`. */
const relativePath = (root: string, path: string) => relative(root, path).split(sep).join('/')

/** Every file under root/dir (none when it is missing) ending with one of the extensions, sorted. */
export function filesUnder(root: string, dir: string, extensions: string[]): string[] {
  if (!existsSync(join(root, dir))) return []
  return readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && extensions.some((ext) => entry.name.endsWith(ext)))
    .map((entry) => relativePath(root, join(entry.parentPath, entry.name)))
    .sort()
}

/** Lines as `wc -l` counts them, and the last one too when it lacks its newline. */
export function lineCount(text: string): number {
  if (text === '') return 0
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0)
}

/** Every .ts file in src/ with its length. */
export function srcFileSizes(root: string): FileSize[] {
  return filesUnder(root, 'src', ['.ts']).map((file) => ({
    file,
    lines: lineCount(readFileSync(join(root, file), 'utf8'))
  }))
}

/** The files in src/ over MAX_FILE_LINES. */
export function longFiles(root: string): FileSize[] {
  return srcFileSizes(root).filter(({ lines }) => lines > MAX_FILE_LINES)
}

/** The .ts and .mts files whose functions are measured. */
export function measuredFiles(root: string): string[] {
  return ['src', 'tools', 'scripts'].flatMap((dir) => filesUnder(root, dir, ['.ts', '.mts']))
}

type FunctionNode =
  | ts.FunctionDeclaration
  | ts.FunctionExpression
  | ts.ArrowFunction
  | ts.MethodDeclaration
  | ts.ConstructorDeclaration
  | ts.GetAccessorDeclaration
  | ts.SetAccessorDeclaration

function isFunction(node: ts.Node): node is FunctionNode {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isFunctionExpression(node) ||
    ts.isArrowFunction(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node)
  )
}

/** What holds a member: the class's name, or the name the object literal is given. */
function ownerName(container: ts.Node): string {
  if ((ts.isClassDeclaration(container) || ts.isClassExpression(container)) && container.name) {
    return container.name.text
  }
  const holder = container.parent
  if (
    (ts.isVariableDeclaration(holder) || ts.isPropertyAssignment(holder)) &&
    holder.initializer === container
  ) {
    return holder.name.getText()
  }
  return ts.isObjectLiteralExpression(container) ? '<object>' : '<class>'
}

/** A function's name, or for one without a name, where it sits. */
function functionName(node: FunctionNode): string {
  if (ts.isFunctionDeclaration(node)) return node.name?.text ?? '<function>'
  if (ts.isConstructorDeclaration(node)) return `${ownerName(node.parent)}.constructor`
  if (ts.isMethodDeclaration(node) || ts.isGetAccessorDeclaration(node)) {
    const name = `${ownerName(node.parent)}.${node.name.getText()}`
    return ts.isGetAccessorDeclaration(node) ? `get ${name}` : name
  }
  if (ts.isSetAccessorDeclaration(node)) {
    return `set ${ownerName(node.parent)}.${node.name.getText()}`
  }
  const holder = node.parent
  if (ts.isVariableDeclaration(holder) && ts.isIdentifier(holder.name)) return holder.name.text
  if (ts.isPropertyAssignment(holder) || ts.isPropertyDeclaration(holder)) {
    return `${ownerName(holder.parent)}.${holder.name.getText()}`
  }
  if (ts.isFunctionExpression(node) && node.name) return node.name.text
  const kind = ts.isArrowFunction(node) ? 'arrow' : 'function'
  let outer = holder
  while (!ts.isSourceFile(outer) && !isFunction(outer)) outer = outer.parent
  return isFunction(outer) ? `<${kind} in ${functionName(outer)}>` : `<${kind} at top level>`
}

/** Every function in one file with its length; a second one of the same name gets ` #2`. */
export function functionSizes(file: string, text: string): FunctionSize[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
  const lineOf = (position: number) => source.getLineAndCharacterOfPosition(position).line + 1
  const sizes: FunctionSize[] = []
  const seen = new Map<string, number>()
  const visit = (node: ts.Node): void => {
    if (isFunction(node)) {
      const base = functionName(node)
      const count = (seen.get(base) ?? 0) + 1
      seen.set(base, count)
      const line = lineOf(node.getStart(source))
      const name = count === 1 ? base : `${base} #${count}`
      sizes.push({ file, name, line, lines: lineOf(node.getEnd()) - line + 1 })
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return sizes
}

/** The functions in src/, tools/ and scripts/ over MAX_FUNCTION_LINES, in file and line order. */
export function longFunctions(root: string): FunctionSize[] {
  return measuredFiles(root)
    .flatMap((file) => functionSizes(file, readFileSync(join(root, file), 'utf8')))
    .filter(({ lines }) => lines > MAX_FUNCTION_LINES)
}

/**
 * The program tsconfig.json describes (src/, __tests__/, scripts/ and tools/), without the
 * packages: what they export is never ours, and leaving them out makes the program five times
 * quicker to build. The standard library stays, for `await import(…)` to have a type.
 */
function projectProgram(root: string): ts.Program {
  const configFile = join(root, 'tsconfig.json')
  const { config, error } = ts.readConfigFile(configFile, (path) => readFileSync(path, 'utf8'))
  if (error) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, '\n'))
  const parsed = ts.parseJsonConfigFileContent(config, ts.sys, root, undefined, configFile)
  const options = { ...parsed.options, types: [], noEmit: true }
  const host = ts.createCompilerHost(options, true)
  const libraries = dirname(host.getDefaultLibFileName(options))
  const fileExists = host.fileExists.bind(host)
  host.fileExists = (path) =>
    (!path.includes('/node_modules/') || path.startsWith(libraries)) && fileExists(path)
  return ts.createProgram(parsed.fileNames, options, host)
}

/** A symbol and every symbol it is an alias of, one step at a time, down to the declaration. */
function aliasChain(checker: ts.TypeChecker, symbol: ts.Symbol | undefined): ts.Symbol[] {
  const chain: ts.Symbol[] = []
  while (symbol && !chain.includes(symbol)) {
    chain.push(symbol)
    symbol =
      symbol.flags & ts.SymbolFlags.Alias ? checker.getImmediateAliasedSymbol(symbol) : undefined
  }
  return chain
}

/**
 * What an identifier names: its symbol, and for a name destructured from an object (as from
 * `await import('./x.js')`), the property it reads.
 */
function symbolsAt(checker: ts.TypeChecker, id: ts.Identifier): ts.Symbol[] {
  const symbols = aliasChain(checker, checker.getSymbolAtLocation(id))
  const element = id.parent
  if (
    ts.isBindingElement(element) &&
    ts.isObjectBindingPattern(element.parent) &&
    (element.propertyName ?? element.name) === id
  ) {
    const property = checker.getTypeAtLocation(element.parent).getProperty(id.text)
    symbols.push(...aliasChain(checker, property))
  }
  return symbols
}

/**
 * Each export of each src/ module, found by the symbol its module exports it as, or by the
 * declaration it names (the members of `import()` in a CommonJS file are copies of the exports).
 */
function exportsOfSrc(root: string, program: ts.Program) {
  const checker = program.getTypeChecker()
  const bySymbol = new Map<ts.Symbol, ExportUse>()
  const byDeclaration = new Map<ts.Declaration, ExportUse>()
  for (const source of program.getSourceFiles()) {
    const module = relativePath(root, source.fileName)
    const moduleSymbol = checker.getSymbolAtLocation(source)
    if (!module.startsWith('src/') || !moduleSymbol) continue
    for (const symbol of checker.getExportsOfModule(moduleSymbol)) {
      const use: ExportUse = { module, name: symbol.name, importedBy: [] }
      bySymbol.set(symbol, use)
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol
      for (const declaration of target.declarations ?? []) {
        if (declaration.getSourceFile() === source) byDeclaration.set(declaration, use)
      }
    }
  }
  const usesOf = (symbol: ts.Symbol): ExportUse[] => {
    const use = bySymbol.get(symbol)
    if (use) return [use]
    return (symbol.declarations ?? []).flatMap(
      (declaration) => byDeclaration.get(declaration) ?? []
    )
  }
  return { uses: [...bySymbol.values()], usesOf }
}

/**
 * Who imports each export of each src/ module, in any form: a named import, `import type`, a
 * re-export, a namespace import's member, a member of `import()`, `import('…').Name` in a type.
 */
export function exportUses(root: string): ExportUse[] {
  const program = projectProgram(root)
  const checker = program.getTypeChecker()
  const { uses, usesOf } = exportsOfSrc(root, program)
  const names = new Set(uses.map(({ name }) => name))
  for (const source of program.getSourceFiles()) {
    const path = relativePath(root, source.fileName)
    if (path.startsWith('..') || path.includes('node_modules/')) continue
    const visit = (node: ts.Node): void => {
      if (ts.isIdentifier(node) && names.has(node.text)) {
        for (const use of symbolsAt(checker, node).flatMap(usesOf)) {
          if (use.module !== path && !use.importedBy.includes(path)) use.importedBy.push(path)
        }
      }
      ts.forEachChild(node, visit)
    }
    visit(source)
  }
  return uses.sort((a, b) => a.module.localeCompare(b.module) || a.name.localeCompare(b.name))
}

/** The exports of src/ that files under __tests__/ import and nothing else does. */
export function testOnlyExports(root: string): ExportUse[] {
  return exportUses(root).filter(
    ({ importedBy }) =>
      importedBy.length > 0 && importedBy.every((path) => path.startsWith('__tests__/'))
  )
}
