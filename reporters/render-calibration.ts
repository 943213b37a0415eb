// Pure: a calibration record as lines under its test, as Markdown rows and as annotations.
import { calibrationTable, formatRate, formatValue } from '../src/calibrate/calibration-table'
import { escapeControls, terminalLine } from '../src/output-safety/terminal-text'
import type { CalibrationRecord, RubricateRecord } from '../src/records/records'
import { type Colors, figures } from './figures'

/** Disagreements listed under a test in the terminal; the JSON report holds the record's five. */
const LISTED = 3

/** The one-line outcome of a calibration: κ, accuracy, the two error rates, n. @internal */
export function calibrationSummary(calibration: CalibrationRecord): string {
  const { overall } = calibration
  return [
    `κ ${formatValue(overall.kappa)}`,
    `accuracy ${formatRate(overall.accuracy, false)}`,
    `false pass ${formatRate(overall.falsePass)}`,
    `false fail ${formatRate(overall.falseFail)}`,
    `${overall.n} judgement${overall.n === 1 ? '' : 's'}`,
  ].join(', ')
}

/** The heading of a calibration: which judge, against which labels. @internal */
export function calibrationTitle(calibration: CalibrationRecord): string {
  return `calibration of "${calibration.judge}" against "${calibration.labels}"`
}

/**
 * The lines under a test for one calibration record: the outcome, the thresholds missed, the
 * metrics table and the worst disagreements. An errored record gets only its heading: the caller
 * adds the error line.
 * @internal
 */
export function renderCalibration(
  record: RubricateRecord,
  style: { indent: string; colors: Colors },
  statusSymbol: string,
): string[] {
  const { colors: c, indent } = style
  const calibration = record.calibration
  if (!calibration) return [`${indent}${statusSymbol} calibration`]
  const inner = `${indent}  `
  const lines = [
    `${indent}${statusSymbol} ${terminalLine(calibrationTitle(calibration))}${c.dim(`: ${calibrationSummary(calibration)}`)}`,
  ]
  for (const failure of calibration.failures)
    lines.push(`${inner}${c.red(figures.unmet)} ${terminalLine(failure)}`)
  for (const line of calibrationTable(calibration))
    lines.push(line ? `${inner}${c.dim(escapeControls(line))}` : '')
  for (const item of calibration.disagreements.slice(0, LISTED)) {
    const symbol = item.kind === 'false pass' ? c.red(figures.unmet) : c.yellow(figures.unmet)
    lines.push(
      `${inner}${symbol} ${item.kind} ${c.dim(`${terminalLine(item.where)}`)} ${terminalLine(item.criterion)}${c.dim(`: ${terminalLine(item.reasoning)}`)}`,
    )
  }
  const more = calibration.disagreementCount - Math.min(LISTED, calibration.disagreements.length)
  if (more > 0)
    lines.push(`${inner}${c.dim(`and ${more} more disagreement${more === 1 ? '' : 's'}`)}`)
  return lines
}
