// Pure: the lines of `describeEval` suites and rows, for the terminal and the Markdown summary.

import { percent } from '../src/messages'
import { terminalLine } from '../src/output-safety/terminal-text'
import type {
  EvalConversationRecord,
  EvalMeanGate,
  EvalRowRecord,
  EvalScorerMean,
  EvalSuiteRecord,
} from '../src/records/eval-records'
import type { RubricateRecord } from '../src/records/records'
import type { EvalSuiteReport } from './collect-run'
import { type Colors, figures, plain } from './figures'
import { formatScore, type LineStyle, renderRecords } from './render-record'

/**
 * One `Eval` summary row per suite: rows passed, the rate against the gate, and each scorer's
 * mean score, e.g. `"refunds" 11 of 12 rows passed (91.7%) · gate 90% ✓ met · mean: rubric 0.92`;
 * a scorer with a mean gate shows it after its mean (`hallucination 0.1 (≤ 0.2 ✓)`), and the
 * weighted mean gate comes last (`weighted mean 0.9 (≥ 0.85 ✓)`).
 * @internal
 */
export function evalSummaryRows(
  evals: readonly EvalSuiteReport[],
  c: Colors,
): [title: string, text: string][] {
  return evals.map((suite) => ['Eval', evalLine(suite, c, ' ')])
}

/**
 * A suite's gates as one plain line for a test annotation, which JUnit writes as a `<property>`:
 * `eval "refunds": 11 of 12 rows passed (91.7%) · gate 90% ✓ met · mean: rubric 0.92`.
 * @internal
 */
export function evalGateAnnotation(suite: EvalSuiteRecord & { fullName: string }): string {
  return `eval ${evalLine(suite, plain, ': ')}`
}

function evalLine(
  suite: EvalSuiteRecord & { fullName: string },
  c: Colors,
  afterName: string,
): string {
  const sep = c.dim(` ${figures.dot} `)
  const rows = `${suite.passed} of ${suite.rows} row${suite.rows === 1 ? '' : 's'} passed (${percent(suite.rate)})`
  const trials = suite.trials > 1 ? ` over ${suite.trials} trials each` : ''
  const gate =
    (suite.rateGatePassed ?? suite.gatePassed)
      ? c.green(`gate ${percent(suite.passRate)} ${figures.met} met`)
      : c.red(`gate ${percent(suite.passRate)} ${figures.unmet} unmet`)
  const parts = [`"${terminalLine(suite.fullName)}"${afterName}${rows}${trials}`, gate]
  if (suite.errored > 0) parts.push(c.red(`${suite.errored} errored`))
  if (suite.scorers.length > 0) {
    parts.push(
      `mean: ${suite.scorers.map((scorer) => scorerMeanText(scorer, suite.meanGates, suite.trials, c)).join(', ')}`,
    )
  }
  const weighted = suite.meanGates?.find((gate) => gate.scorer === undefined)
  if (weighted) {
    const mean = weighted.mean === null ? 'none' : formatScore(weighted.mean, weighted.threshold)
    parts.push(`weighted mean ${mean} ${meanGateText(weighted, suite.trials, c)}`)
  }
  return parts.join(sep)
}

// One scorer's mean, with `↓` for lower-is-better and its own gate when it has one.
function scorerMeanText(
  scorer: EvalScorerMean,
  gates: readonly EvalMeanGate[] | undefined,
  trials: number,
  c: Colors,
): string {
  const gate = gates?.find((one) => one.scorer === scorer.id)
  const lower = scorer.direction === 'max' ? ' ↓' : ''
  const weight = scorer.weight !== undefined ? ` ×${scorer.weight}` : ''
  const mean = formatScore(scorer.mean, gate?.threshold)
  return `${terminalLine(scorer.id)}${lower}${weight} ${mean}${gate ? ` ${meanGateText(gate, trials, c)}` : ''}`
}

// A gate and its outcome; its coverage too when some trials were not scored, so that a mean over
// 1 row of 10 never reads as the dataset's (`(≥ 0.9 ✗, mean over 1 of 10 rows scored)`). With
// every trial scored, the default floor, the line stays as short as before.
function meanGateText(gate: EvalMeanGate, trials: number, c: Colors): string {
  const bound = `${gate.direction === 'max' ? '≤' : '≥'} ${formatScore(gate.threshold, gate.mean ?? undefined)}`
  const unit = trials > 1 ? 'trials' : 'rows'
  const coverage =
    gate.scored !== undefined && gate.total !== undefined && gate.scored < gate.total
      ? `, mean over ${gate.scored} of ${gate.total} ${unit} scored${gate.passed ? '' : `, needs ${percent(gate.minCoverage ?? 1)}`}`
      : ''
  const text = `(${bound} ${gate.passed ? figures.met : figures.unmet}${coverage})`
  return gate.passed ? c.green(text) : c.red(text)
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

const ENDED: Record<EvalConversationRecord['ended'], string> = {
  script: 'its turns ran out',
  goal: 'the simulated user reached its goal',
  stop: 'the stop rule ended it',
  'max-turns': 'the turn limit',
  limit: "the simulated user's cap on calls and bytes per row",
}

/**
 * The lines under a multi-turn row's test: each turn (the user's message, the reply, its own
 * verdicts), then the whole conversation's verdicts. Records carry the turn they judged.
 * @internal
 */
export function renderConversation(
  conversation: EvalConversationRecord,
  records: readonly RubricateRecord[],
  style: LineStyle,
): string[] {
  const { colors: c } = style
  const inner = { ...style, indent: `${style.indent}  ` }
  const lines: string[] = []
  for (const turn of conversation.turns) {
    const mark =
      turn.passed === undefined
        ? c.dim(figures.dot)
        : turn.passed
          ? c.green(figures.met)
          : c.red(figures.unmet)
    const who = turn.simulated ? 'simulated user' : 'user'
    lines.push(
      `${style.indent}${mark} turn ${turn.turn} ${c.dim(`${who}: "${clip(turn.user)}" → "${clip(turn.reply)}"`)}`,
    )
    lines.push(
      ...renderRecords(
        records.filter((record) => record.turn === turn.turn),
        inner,
      ),
    )
  }
  const whole = records.filter((record) => record.turn === undefined)
  const count = conversation.turns.length
  lines.push(
    `${style.indent}${c.dim(`conversation: ${count} turn${count === 1 ? '' : 's'}, ended: ${ENDED[conversation.ended]}`)}`,
  )
  lines.push(...renderRecords(whole, inner))
  return lines
}

function clip(text: string): string {
  const line = terminalLine(text)
  return line.length > 60 ? `${line.slice(0, 59)}…` : line
}
