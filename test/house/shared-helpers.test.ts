// Shared helpers once: a text collapsed to one line and a copy-on-write walk over JSON are each
// defined in one module, so a fix to one reaches every caller.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import ts from 'typescript'
import { expect, test } from 'vitest'

const root = resolve(import.meta.dirname, '../..')

function sourceFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name)
    if (statSync(path).isDirectory()) return sourceFiles(path)
    return /\.(ts|mts)$/.test(name) && !name.endsWith('.d.ts') ? [path] : []
  })
}

const files = ['src', 'matchers', 'evals', 'reporters'].flatMap((folder) =>
  sourceFiles(join(root, folder)),
)

/** Where a function or a constant named `name` is declared, as `file: name`. */
function declarations(names: readonly string[]): string[] {
  const found: string[] = []
  for (const file of files) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest)
    const visit = (node: ts.Node): void => {
      const named =
        (ts.isFunctionDeclaration(node) || ts.isVariableDeclaration(node)) &&
        node.name !== undefined &&
        ts.isIdentifier(node.name)
          ? node.name.text
          : undefined
      if (named && names.includes(named)) found.push(`${relative(root, file)}: ${named}`)
      node.forEachChild(visit)
    }
    visit(source)
  }
  return found
}

test('a text is collapsed to one line by one function, src/records/one-line.ts', () => {
  expect(declarations(['oneLine', 'collapseLines'])).toEqual(['src/records/one-line.ts: oneLine'])
})

// The walk copies along a changed path only; the record gate and the cassette redaction share it.
test('one copy-on-write walk over JSON, mapJsonStrings in redaction.ts', () => {
  const walks = files.filter((file) =>
    /copy \?\?= \{ \.\.\.source \}/.test(readFileSync(file, 'utf8')),
  )
  expect(walks.map((file) => relative(root, file))).toEqual([
    'src/cassettes/redaction/redaction.ts',
  ])
})
