// Pure: the lines rubricate prints for one test of a finished module, beside Vitest's own list of
// it (ARCHITECTURE.md §9): the test's name and state, then its verdicts, eval row or conversation.
import type { EvalRowRecord } from '../src/eval-records'
import type { RubricateRecord } from '../src/records'
import { type Colors, figures } from './figures'
import { renderConversation, renderEvalRow } from './render-eval'
import { renderRecords } from './render-record'

/** One finished test with rubricate records, as the block renderer reads it. @internal */
export interface TestWithRecords {
  /** The test's name under its suites (`suite > test`). */
  name: string
  state: 'passed' | 'failed' | 'skipped' | 'pending'
  records: readonly RubricateRecord[]
  /** A `describeEval` row's outcome over its trials, when the test is one. */
  row?: EvalRowRecord | undefined
}

// Where Vitest puts a test of a module's top level and what goes under it: the block reads as
// the rest of the module's list, whichever of its tests Vitest printed.
const TEST_INDENT = '   '
const UNDER_TEST = '     '

/**
 * The lines of one test: `✓`/`×`/`↓` and its full name, then the lines under it.
 * @internal
 */
export function renderTestBlock(test: TestWithRecords, colors: Colors): string[] {
  const lines = [`${TEST_INDENT}${stateSymbol(test.state, colors)} ${test.name}`]
  const rowLine = test.row ? renderEvalRow(test.row, colors) : undefined
  if (rowLine) lines.push(`${UNDER_TEST}${rowLine}`)
  const conversation = test.row?.trials.at(-1)?.conversation
  const style = { indent: UNDER_TEST, colors }
  lines.push(
    ...(conversation
      ? renderConversation(conversation, test.records, style)
      : renderRecords(test.records, style)),
  )
  return lines
}

function stateSymbol(state: TestWithRecords['state'], c: Colors): string {
  if (state === 'passed') return c.green(figures.testPassed)
  if (state === 'failed') return c.red(figures.testFailed)
  return c.yellow(figures.testSkipped)
}
