// Pure: the lines rubricate prints for a finished test module, beside Vitest's own list of it
// (ARCHITECTURE.md §9): the tests that hold rubricate records, under their suites, each followed by
// its verdicts, eval row or conversation.
import type { EvalRowRecord } from '../src/records/eval-records'
import type { RubricateRecord } from '../src/records/records'
import { type Colors, figures } from './figures'
import { renderConversation, renderEvalRow } from './render-eval'
import { renderRecords } from './render-record'

type State = 'passed' | 'failed' | 'skipped' | 'pending'

/** A finished test with rubricate records, as the block renderer reads it. @internal */
export interface TestWithRecords {
  type: 'test'
  name: string
  state: State
  records: readonly RubricateRecord[]
  /** A `describeEval` row's outcome over its trials, when the test is one. */
  row?: EvalRowRecord | undefined
}

/** A suite that holds such tests, with only those of its children that do. @internal */
export interface SuiteWithRecords {
  type: 'suite'
  name: string
  state: State
  children: readonly (TestWithRecords | SuiteWithRecords)[]
}

/**
 * The lines of a module's tests that hold records: each suite and test named as Vitest names
 * them, indented as Vitest indents its list (`✓`/`×`/`↓`), and under each test its lines.
 * @internal
 */
export function renderTestBlock(
  nodes: readonly (TestWithRecords | SuiteWithRecords)[],
  colors: Colors,
  depth = 1,
): string[] {
  const lines: string[] = []
  appendTestBlock(lines, nodes, colors, depth)
  return lines
}

// Lines are pushed one by one into one list: a suite of 100,000 rows spread into `push` (or a
// list returned per level and spread into its parent's) overflows the call stack.
function appendTestBlock(
  lines: string[],
  nodes: readonly (TestWithRecords | SuiteWithRecords)[],
  colors: Colors,
  depth: number,
): void {
  const indent = ` ${'  '.repeat(depth)}`
  for (const node of nodes) {
    lines.push(`${indent}${stateSymbol(node.state, colors)} ${node.name}`)
    if (node.type === 'suite') {
      appendTestBlock(lines, node.children, colors, depth + 1)
      continue
    }
    const under = `${indent}  `
    const rowLine = node.row ? renderEvalRow(node.row, colors) : undefined
    if (rowLine) lines.push(`${under}${rowLine}`)
    const conversation = node.row?.trials.at(-1)?.conversation
    const style = { indent: under, colors }
    const own = conversation
      ? renderConversation(conversation, node.records, style)
      : renderRecords(node.records, style)
    for (const line of own) lines.push(line)
  }
}

function stateSymbol(state: State, c: Colors): string {
  if (state === 'passed') return c.green(figures.testPassed)
  if (state === 'failed') return c.red(figures.testFailed)
  return c.yellow(figures.testSkipped)
}
