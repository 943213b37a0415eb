#!/usr/bin/env node
// The functions longer than a limit (default 60 lines) in the files of one assertion's path
// (ARCHITECTURE.md, "The path of one assertion"), counted with the TypeScript compiler from a
// function's first line to its last, nested functions included.
//
//   node scripts/long-functions.mjs [--max 60] [file ...]   without files: the path's
//
// `test/house/function-length.test.ts` holds the path to the limit.
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import ts from 'typescript'

/** The files a criterion passes through, from `toSatisfyRubric` to the annotation. */
export const ASSERTION_PATH = [
  'matchers/to-satisfy-rubric.ts',
  'matchers/run-assertion.ts',
  'matchers/rubric-scorer-for.ts',
  'matchers/failure-message.ts',
  'src/scorer/run-pipeline.ts',
  'src/rubric/criteria.ts',
  'src/rubric/majority.ts',
  'src/rubric/reply-schema.ts',
  'src/rubric/resolve-rubric.ts',
  'src/rubric/rubric-prompt.ts',
  'src/rubric/rubric-reason.ts',
  'src/rubric/rubric-scorer.ts',
  'src/rubric/rubric-analysis.ts',
  'src/judge/judge-call.ts',
  'src/judge/judge-call-scope.ts',
  'src/judge/judge-input.ts',
  'src/judge/processors.ts',
  'src/judge/openai-judge.ts',
  'src/judge/cassette-bridge.ts',
  'src/judge/endpoint-replies.ts',
  'src/judge/retries.ts',
  'src/cassettes/exchange/exchange.ts',
  'src/cassettes/exchange/prepared-request.ts',
  'src/cassettes/exchange/replay.ts',
  'src/cassettes/exchange/live-and-record.ts',
  'src/cassettes/exchange/record-entry.ts',
  'src/cassettes/exchange/cassette-miss.ts',
  'src/cassettes/exchange/record-command.ts',
  'src/cassettes/store/cassette-entry.ts',
  'src/cassettes/store/cassette-store.ts',
  'src/cassettes/redaction/redaction.ts',
  'src/records/verdict-words.ts',
  'matchers/record-in-test.ts',
  'matchers/setup-file.ts',
  'src/output-safety/record-annotations.ts',
]

/**
 * Every function of `files` (paths from `root`) longer than `max` lines, longest first:
 * `{ file, name, line, lines }`.
 */
export function longFunctions(files, { root = process.cwd(), max = 60 } = {}) {
  const found = []
  for (const file of files) {
    const text = readFileSync(resolve(root, file), 'utf8')
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
    const visit = (node) => {
      if (ts.isFunctionLike(node) && 'body' in node && node.body) {
        const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line
        const last = source.getLineAndCharacterOfPosition(node.getEnd()).line
        const lines = last - first + 1
        if (lines > max) found.push({ file, name: nameOf(node), line: first + 1, lines })
      }
      ts.forEachChild(node, visit)
    }
    visit(source)
  }
  return found.sort((a, b) => b.lines - a.lines)
}

function nameOf(node) {
  if (node.name && ts.isIdentifier(node.name)) return node.name.text
  const parent = node.parent
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent))) {
    if (ts.isIdentifier(parent.name)) return parent.name.text
  }
  if (ts.isConstructorDeclaration(node)) return 'constructor'
  return '(anonymous)'
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2)
  const at = args.indexOf('--max')
  const max = at >= 0 ? Number(args.splice(at, 2)[1]) : 60
  const files = args.length > 0 ? args : ASSERTION_PATH
  const found = longFunctions(files, { max })
  for (const { file, name, line, lines } of found) console.log(`${lines}\t${file}:${line}\t${name}`)
  if (found.length === 0) console.log(`No function over ${max} lines.`)
}
