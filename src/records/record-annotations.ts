/**
 * A record's verdicts as Vitest test annotations, so that reporters rubricate does not control
 * (JUnit `<property>`, TAP, verbose, the failure summary of dot) carry them. rubricate's reporter
 * adds them to each test in the main process when the test's result arrives, from
 * `task.meta.rubricate`; matchers do not annotate: `context.annotate` from a worker costs a round
 * trip to the main process (0.5 to 0.9 ms each, measured), more than the whole budget of a
 * replayed assertion, and a loop's record is only final when the test ends.
 */
import { redactOutput } from '../cassettes/redaction/redaction'
import { terminalLine } from '../output-safety/terminal-text'
import { verdictTag } from '../rubric/rubric-reason'
import type { RubricateRecord, Verdict } from './records'

/** The annotation type of every rubricate annotation (JUnit: `<property name="rubricate">`). @internal */
export const ANNOTATION_TYPE = 'rubricate'

/** What `annotate` is given: one per criterion, scorer, loop or error. @internal */
export interface RecordAnnotation {
  type: string
  message: string
}

/** The annotations of one record, as plain text (no colours, no symbols). @internal */
export function recordAnnotations(record: RubricateRecord): RecordAnnotation[] {
  const messages: string[] = []
  const not = record.negated ? '(.not) ' : ''
  if (record.error)
    messages.push(`${not}error ${record.error.code}: ${firstLine(record.error.message)}`)
  if (record.kind === 'scorer' && !record.error) {
    const name = record.scorerId ? `scorer "${record.scorerId}"` : 'scorer'
    const score = record.score === undefined ? '' : `, score ${round(record.score)}`
    const bound = record.direction === 'max' ? 'at most' : 'threshold'
    const threshold = record.threshold === undefined ? '' : `, ${bound} ${round(record.threshold)}`
    const reason = record.reason ? `: ${oneLine(record.reason)}` : ''
    const turn = record.turn === undefined ? '' : `turn ${record.turn}: `
    messages.push(`${turn}${not}${name} ${outcome(record)}${score}${threshold}${reason}`)
  }
  if (record.kind === 'calibration' && record.calibration) {
    const { judge, labels, overall, failures } = record.calibration
    const kappa = overall.kappa === null ? 'undefined' : round(overall.kappa)
    const rate = (value: number | null) => (value === null ? 'n/a' : round(value))
    const why = failures.length > 0 ? `: ${failures.join('; ')}` : ''
    messages.push(
      `calibration of "${judge}" against "${labels}" ${outcome(record)}: kappa ${kappa}, false pass ${rate(overall.falsePass.value)}, false fail ${rate(overall.falseFail.value)}, n ${overall.n}${why}`,
    )
  }
  if (record.kind === 'loop') {
    const count = record.iterations?.at(-1)?.iteration ?? record.iterations?.length ?? 0
    const state = record.status === 'pass' ? 'complete' : 'incomplete'
    messages.push(`loop ${state} after ${count} iteration${count === 1 ? '' : 's'}`)
  }
  for (const verdict of record.verdicts ?? []) messages.push(`${not}${verdictText(verdict)}`)
  // Through the output gate: JUnit writes these into its file and other reporters print them, where
  // rubricate cannot redact or escape them afterwards (and ESC is not even valid in XML 1.0).
  return messages.map((message) => ({
    type: ANNOTATION_TYPE,
    message: terminalLine(redactOutput(message)),
  }))
}

function verdictText(verdict: Verdict): string {
  const tag = verdictTag(verdict)
  const state = verdict.satisfied ? 'met' : 'unmet'
  const samples =
    verdict.agreement && verdict.agreement.total > 1
      ? ` (${verdict.agreement.satisfied}/${verdict.agreement.total} samples)`
      : ''
  const why = verdict.satisfied ? '' : `: ${oneLine(verdict.reasoning)}`
  return `${state} ${tag} ${oneLine(verdict.criterion)}${why}${samples}`
}

function outcome(record: RubricateRecord): string {
  return record.status === 'pass' ? 'passed' : 'failed'
}

function round(value: number): string {
  return String(Math.round(value * 100) / 100)
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}

function firstLine(text: string): string {
  return (text.split('\n').find((line) => line.trim() !== '') ?? '').trim()
}
