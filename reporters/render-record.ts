// Pure: turns the rubricate records of one test into the lines printed under it (ARCHITECTURE.md §9).
import { terminalLine } from '../src/output-safety/terminal-text'
import type { LoopIterationRecord, RubricateRecord, Verdict } from '../src/records/records'
import { type CriterionMedium, criterionLine } from '../src/records/verdict-words'
import { type Colors, figures } from './figures'
import { renderCalibration } from './render-calibration'

/** How lines are laid out. @internal */
export interface LineStyle {
  /** Put before every line (the test's own indentation plus one step). */
  indent: string
  colors: Colors
}

/**
 * The lines under one test: per rubric assertion one line per criterion (`✓` met, `✗` required
 * unmet, `○` optional unmet, the reasoning after unmet ones), per scorer assertion its score,
 * threshold and reason, per loop its iterations. Several assertions in one test each get a heading.
 * @internal
 */
export function renderRecords(records: readonly RubricateRecord[], style: LineStyle): string[] {
  const lines: string[] = []
  const headed = records.length > 1
  for (const record of records) {
    if (record.kind === 'scorer') lines.push(...renderScorer(record, style))
    else if (record.kind === 'loop') lines.push(...renderLoop(record, style))
    else if (record.kind === 'calibration') {
      lines.push(...renderCalibration(record, style, statusSymbol(record, style.colors)))
      if (record.error) lines.push(errorLine(record, { ...style, indent: `${style.indent}  ` }))
    } else lines.push(...renderRubric(record, style, headed))
  }
  return lines
}

function renderRubric(record: RubricateRecord, style: LineStyle, headed: boolean): string[] {
  const { colors: c } = style
  const verdicts = record.verdicts ?? []
  const lines: string[] = []
  let inner = style
  // Partial credit always gets the heading: the share is what decided.
  if (headed || record.negated || record.share !== undefined) {
    const required = verdicts.filter((v) => v.required)
    const met = required.filter((v) => v.satisfied).length
    const counts =
      record.status === 'error'
        ? ''
        : record.share !== undefined
          ? `: share ${formatScore(record.share, record.threshold ?? 1)}, threshold ${formatScore(record.threshold ?? 1, record.share)}${required.length > 0 ? `, ${met} of ${required.length} required met` : ''}`
          : `: ${met} of ${required.length} required met`
    lines.push(
      `${style.indent}${statusSymbol(record, c)} ${c.dim(`rubric${notTag(record)}${counts}`)}`,
    )
    inner = { ...style, indent: `${style.indent}  ` }
  }
  if (record.status === 'error') lines.push(errorLine(record, inner))
  for (const verdict of verdicts) lines.push(verdictLine(verdict, inner))
  return lines
}

/** One criterion: symbol, tag, criterion, and the reasoning when unmet. @internal */
export function verdictLine(verdict: Verdict, style: LineStyle): string {
  return `${style.indent}${criterionLine(verdict, terminalMedium(style.colors))}`
}

function terminalMedium(c: Colors): CriterionMedium {
  return {
    mark: (state) =>
      state === 'met'
        ? c.green(figures.met)
        : state === 'unmet'
          ? c.red(figures.unmet)
          : c.yellow(figures.optionalUnmet),
    tag: (tag) => c.dim(tag),
    criterion: (text, state) =>
      state === 'unmet' ? c.red(terminalLine(text)) : terminalLine(text),
    reasoning: (text) => c.dim(`: ${terminalLine(text)}`),
    samples: (samples) => c.dim(samples),
  }
}

function renderScorer(record: RubricateRecord, style: LineStyle): string[] {
  const { colors: c } = style
  const name = record.scorers
    ? `scorers (${record.aggregate ?? 'all'})`
    : record.scorerId
      ? `scorer "${terminalLine(record.scorerId)}"`
      : 'scorer'
  const head = `${style.indent}${statusSymbol(record, c)} ${name}${notTag(record)}`
  if (record.status === 'error') {
    return [head, errorLine(record, { ...style, indent: `${style.indent}  ` })]
  }
  const inner = { ...style, indent: `${style.indent}  ` }
  if (record.scorers) {
    // One line per scorer, under the aggregate's own.
    return [
      `${head}${scoreText(record, record.direction)}`,
      ...record.scorers.flatMap((part) => {
        // Under a mean no single scorer passes or fails: it only adds its score.
        const symbol =
          record.aggregate === 'mean'
            ? c.dim(figures.dot)
            : part.passed
              ? c.green(figures.met)
              : c.red(figures.unmet)
        const line = `${inner.indent}${symbol} scorer "${terminalLine(part.id)}"${scoreText(part, record.direction)}${reasonText(part, c)}`
        const deeper = { ...inner, indent: `${inner.indent}  ` }
        return [line, ...(part.verdicts ?? []).map((v) => verdictLine(v, deeper))]
      }),
    ]
  }
  return [
    `${head}${scoreText(record, record.direction)}${reasonText(record, c)}`,
    ...(record.verdicts ?? []).map((v) => verdictLine(v, inner)),
  ]
}

function scoreText(
  part: {
    score?: number | undefined
    threshold?: number | undefined
    share?: number | undefined
  },
  direction?: 'max' | undefined,
): string {
  if (part.score === undefined) return ''
  // The share decides when there is one: it is what the threshold is compared with.
  const compared = part.share ?? part.score
  const share = part.share === undefined ? '' : `, share ${formatScore(part.share, part.threshold)}`
  const threshold =
    part.threshold === undefined
      ? ''
      : `, ${direction === 'max' ? 'at most' : 'threshold'} ${formatScore(part.threshold, compared)}`
  return `: score ${formatScore(part.score, part.share === undefined ? part.threshold : undefined)}${share}${threshold}`
}

// The reason, then the metadata a scorer returned (autoevals' rationale, say), cut to one line.
// A rubric scorer's reason only sums up its criteria, which have lines of their own below.
function reasonText(
  part: {
    reason?: string | undefined
    metadata?: Record<string, unknown> | undefined
    verdicts?: Verdict[] | undefined
  },
  c: Colors,
): string {
  const summed = part.verdicts !== undefined && part.verdicts.length > 0
  const reason = part.reason && !summed ? `: ${terminalLine(part.reason)}` : ''
  const metadata = part.metadata
    ? ` ${figures.dot} metadata ${truncate(terminalLine(json(part.metadata)), 100)}`
    : ''
  return reason || metadata ? c.dim(`${reason}${metadata}`) : ''
}

function json(value: unknown): string {
  try {
    return JSON.stringify(value) ?? ''
  } catch {
    return String(value)
  }
}

function renderLoop(record: RubricateRecord, style: LineStyle): string[] {
  const { colors: c } = style
  const iterations = record.iterations ?? []
  const last = iterations.at(-1)?.iteration ?? iterations.length
  const count = `${last} iteration${last === 1 ? '' : 's'}`
  const outcome =
    record.status === 'pass'
      ? `complete after ${count}`
      : record.status === 'fail'
        ? `incomplete after ${count}`
        : `incomplete after ${count}, a scorer errored`
  const lines = [`${style.indent}${statusSymbol(record, c)} loop${notTag(record)}: ${outcome}`]
  const inner = { ...style, indent: `${style.indent}  ` }
  if (record.error) lines.push(errorLine(record, inner))
  for (const iteration of iterations) lines.push(iterationLine(iteration, inner))
  // The verdicts of the last check: for an incomplete loop, the criteria still unmet.
  for (const verdict of record.verdicts ?? []) lines.push(verdictLine(verdict, inner))
  return lines
}

function iterationLine(iteration: LoopIterationRecord, style: LineStyle): string {
  const { colors: c } = style
  const scorers = iteration.scorers.map((scorer) => {
    const symbol = scorer.errored
      ? c.red(figures.error)
      : scorer.passed
        ? c.green(figures.met)
        : c.red(figures.unmet)
    const score = scorer.score === undefined ? '' : ` ${formatScore(scorer.score)}`
    const why = scorer.passed ? '' : c.dim(iterationWhy(scorer))
    return `${symbol} ${terminalLine(scorer.id)}${score}${why}`
  })
  const body = scorers.length > 0 ? scorers.join(c.dim(` ${figures.dot} `)) : c.dim('no scorers')
  return `${style.indent}${c.dim(`${iteration.iteration}.`)} ${body}`
}

/** Why a scorer held an iteration back: the unmet criteria of a rubric, else its reason's first words. */
function iterationWhy(scorer: LoopIterationRecord['scorers'][number]): string {
  if (scorer.unmet && scorer.unmet.length > 0) {
    return `: unmet: ${truncate(terminalLine(scorer.unmet.join('; ')), 100)}`
  }
  return scorer.reason ? `: ${truncate(terminalLine(scorer.reason), 80)}` : ''
}

function errorLine(record: RubricateRecord, style: LineStyle): string {
  const { colors: c } = style
  const code = record.error?.code ?? 'error'
  const message = terminalLine(
    firstLine(record.error?.message ?? '').replace(/^\[rubricate\] /, ''),
  )
  return `${style.indent}${c.red(figures.error)} ${c.red(terminalLine(code))}${message ? c.dim(`: ${message}`) : ''}`
}

function statusSymbol(record: RubricateRecord, c: Colors): string {
  if (record.status === 'pass') return c.green(figures.met)
  if (record.status === 'fail') return c.red(figures.unmet)
  return c.red(figures.error)
}

function notTag(record: RubricateRecord): string {
  return record.negated ? ' (.not)' : ''
}

/**
 * A score or threshold: at most two decimals, no trailing zeros. Given the value it is compared
 * with, as many more decimals (up to six) as it takes for two different values not to print alike:
 * 0.998 against 1 prints `0.998`, not `1`. @internal
 */
export function formatScore(value: number, comparedWith?: number): string {
  let digits = 2
  const round = (n: number) => Math.round(n * 10 ** digits) / 10 ** digits
  if (comparedWith !== undefined && comparedWith !== value) {
    while (digits < 6 && round(value) === round(comparedWith)) digits++
  }
  return String(round(value))
}

function firstLine(text: string): string {
  return (text.split('\n').find((line) => line.trim() !== '') ?? '').trim()
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text
}
