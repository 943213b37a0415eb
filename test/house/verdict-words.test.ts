// One place for each word (ARCHITECTURE.md §9): a verdict's labels, its tag, its samples and a
// rubric's outcome are worded in src/records/verdict-words.ts only; every medium renders from it.
// Read from the string literals of the shipped code with the TypeScript compiler, so a comment or
// an identifier that names a word is not a wording.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import ts from 'typescript'
import { expect, test } from 'vitest'

const root = resolve(import.meta.dirname, '../..')
const HOME = 'src/records/verdict-words.ts'

// A word, and the pattern that finds it in one piece of a literal (a template's parts apart).
const WORDS: Record<string, RegExp> = {
  'the tag': /\[(required|optional|weight)\b/,
  'a state label': /\b(required|optional), unmet\b/i,
  "a rubric's outcome": /\bRubric (not )?satisfied\b/,
  'the samples count': /^ samples\)?$|\bsamples met\b/,
}

// The judge's prompt lists the criteria with their tags: text for the judge, under its prompt
// version, not a verdict a reader sees.
const NOT_A_VERDICT = new Set(['src/rubric/rubric-prompt.ts'])

function sourceFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name)
    if (statSync(path).isDirectory()) return sourceFiles(path)
    return /\.(ts|mts)$/.test(name) && !name.endsWith('.d.ts') ? [path] : []
  })
}

function literals(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest)
  const out: string[] = []
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) out.push(node.text)
    node.forEachChild(visit)
  }
  visit(source)
  return out
}

const files = ['src', 'matchers', 'evals', 'reporters']
  .flatMap((folder) => sourceFiles(join(root, folder)))
  .map((file) => relative(root, file))

test('a verdict is worded only in src/records/verdict-words.ts', () => {
  const found: string[] = []
  for (const file of files) {
    if (file === HOME || NOT_A_VERDICT.has(file)) continue
    for (const text of literals(join(root, file))) {
      for (const [word, pattern] of Object.entries(WORDS)) {
        if (pattern.test(text)) found.push(`${file}: ${word} in ${JSON.stringify(text)}`)
      }
    }
  }
  expect(found).toEqual([])
})

test('src/records/verdict-words.ts holds every word the house test looks for', () => {
  const home = literals(join(root, HOME))
  const missing = Object.entries(WORDS)
    .filter(([, pattern]) => !home.some((text) => pattern.test(text)))
    .map(([word]) => word)
  expect(missing).toEqual([])
})
