// Pure: the lines of `describeEval` suites and rows, for the terminal and the Markdown summary.
import type { EvalRowRecord } from '../src/eval-records'
import { percent } from '../src/messages'
import { terminalLine } from '../src/output-safety/terminal-text'
import type { EvalSuiteReport } from './collect-run'
import { type Colors, figures } from './figures'
import { formatScore } from './render-record'

/**
 * One `Eval` summary row per suite: rows passed, the rate against the gate, and each scorer's
 * mean score, e.g. `"refunds" 11 of 12 rows passed (91.7%) · gate 90% ✓ met · mean: rubric 0.92`.
 * @internal
 */
export function evalSummaryRows(
  evals: readonly EvalSuiteReport[],
  c: Colors,
): [title: string, text: string][] {
  const sep = c.dim(` ${figures.dot} `)
  return evals.map((suite) => {
    const rows = `${suite.passed} of ${suite.rows} row${suite.rows === 1 ? '' : 's'} passed (${percent(suite.rate)})`
    const trials = suite.trials > 1 ? ` over ${suite.trials} trials each` : ''
    const gate = suite.gatePassed
      ? c.green(`gate ${percent(suite.passRate)} ${figures.met} met`)
      : c.red(`gate ${percent(suite.passRate)} ${figures.unmet} unmet`)
    const parts = [`"${terminalLine(suite.fullName)}" ${rows}${trials}`, gate]
    if (suite.errored > 0) parts.push(c.red(`${suite.errored} errored`))
    if (suite.scorers.length > 0) {
      parts.push(
        `mean: ${suite.scorers.map((scorer) => `${terminalLine(scorer.id)} ${formatScore(scorer.mean)}`).join(', ')}`,
      )
    }
    return ['Eval', parts.join(sep)]
  })
}

/**
 * The line under a row's test: nothing for a row that passed in one trial; a tolerated failure
 * says so (Vitest lists its test as passed); several trials show each one's outcome.
 * @internal
 */
export function renderEvalRow(row: EvalRowRecord, c: Colors): string | undefined {
  const trials =
    row.trials.length > 1
      ? `trials ${row.trials.filter((trial) => trial.passed).length} of ${row.trials.length} passed (${row.trials.map((trial) => (trial.passed ? figures.met : figures.unmet)).join(' ')}), needs ${percent(row.trialPassRate)}`
      : undefined
  if (row.tolerated) {
    const text = `${figures.unmet} row failed, tolerated: the eval gates on a pass rate of ${percent(row.passRate)}`
    return c.yellow(trials ? `${text}; ${trials}` : text)
  }
  if (!trials) return undefined
  const mark = row.passed ? c.green(figures.met) : c.red(figures.unmet)
  return `${mark} ${trials}`
}
