// Pure: a calibration as text, for the matcher's failure, the CLI and the reporter.
import { messages } from '../messages'
import { oneLine } from '../records/one-line'
import { samplesCount } from '../records/verdict-words'
import type { AgreementMetrics, Rate } from './agreement-metrics'

/** What the table needs of a calibration: its rows. @internal */
export interface CalibrationRows {
  overall: AgreementMetrics
  criteria: readonly { criterion: string; required: boolean; metrics: AgreementMetrics }[]
}

/** What the disagreement lines need of one disagreement. @internal */
export interface DisagreementLike {
  where: string
  criterion: string
  kind: 'false pass' | 'false fail'
  reasoning: string
  output: string
  note?: string | undefined
  agreement?: { satisfied: number; total: number } | undefined
}

const CRITERION_WIDTH = 48

/** Two decimals, or `–` for a value that is undefined. @internal */
export function formatValue(value: number | null): string {
  return value === null ? '–' : value.toFixed(2)
}

/** `0.25 (5/20) [0.11, 0.47]`, or `– (0/0)` when there is no denominator. @internal */
export function formatRate(rate: Rate, withCounts = true): string {
  const counts = withCounts ? ` (${rate.count}/${rate.n})` : ''
  const interval = rate.interval
    ? ` [${rate.interval.low.toFixed(2)}, ${rate.interval.high.toFixed(2)}]`
    : ''
  return `${formatValue(rate.value)}${counts}${interval}`
}

/**
 * The metrics table: one row per criterion and one for all of them, with n, accuracy, κ and the
 * false-pass and false-fail rates (Wilson 95% intervals in brackets), then a note for every κ
 * that is undefined.
 * @internal
 */
export function calibrationTable(rows: CalibrationRows): string[] {
  const body = [
    ['criterion', 'n', 'accuracy', 'κ', 'false pass', 'false fail'],
    ...rows.criteria.map(({ criterion, required, metrics }) =>
      row(`${required ? '' : '(optional) '}${criterion}`, metrics),
    ),
  ]
  if (rows.criteria.length !== 1) body.push(row('all criteria', rows.overall))
  const widths = (body[0] as string[]).map((_, column) =>
    Math.max(...body.map((cells) => (cells[column] as string).length)),
  )
  const lines = body.map((cells) =>
    cells
      .map((cell, column) =>
        column === 1
          ? cell.padStart(widths[column] as number)
          : cell.padEnd(widths[column] as number),
      )
      .join('  ')
      .trimEnd(),
  )
  const notes = [
    ...rows.criteria.map(({ criterion, metrics }) => [`"${criterion}"`, metrics] as const),
    ...(rows.criteria.length === 1 ? [] : [['all criteria', rows.overall] as const]),
  ]
    .filter(([, metrics]) => metrics.kappaUndefined !== undefined)
    .map(([name, metrics]) => messages.calibrationKappaNote(name, metrics.kappaUndefined as string))
  return notes.length > 0 ? [...lines, '', ...notes] : lines
}

function row(name: string, metrics: AgreementMetrics): string[] {
  const shown = name.length > CRITERION_WIDTH ? `${name.slice(0, CRITERION_WIDTH - 1)}…` : name
  return [
    shown,
    String(metrics.n),
    formatRate(metrics.accuracy, false),
    formatValue(metrics.kappa),
    formatRate(metrics.falsePass),
    formatRate(metrics.falseFail),
  ]
}

/** The worst disagreements, `limit` at most, under a heading that says how many there are. @internal */
export function disagreementLines(
  disagreements: readonly DisagreementLike[],
  total: number,
  limit: number,
): string[] {
  const shown = disagreements.slice(0, limit)
  const lines = [messages.calibrationDisagreements(shown.length, total)]
  for (const item of shown) {
    const count = samplesCount(item)
    const samples = count ? ` (${count})` : ''
    const labelled =
      item.kind === 'false pass' ? 'labelled unmet, judged met' : 'labelled met, judged unmet'
    lines.push(`  ✗ ${item.kind} · ${item.where} · ${item.criterion}`)
    lines.push(`      ${labelled}${samples}: ${oneLine(item.reasoning)}`)
    lines.push(`      output: ${JSON.stringify(item.output)}`)
    if (item.note) lines.push(`      note: ${oneLine(item.note)}`)
  }
  return lines
}
