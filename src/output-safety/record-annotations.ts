/**
 * A record's verdicts as one Vitest test annotation, so that reporters rubricate does not control
 * (JUnit, TAP, the default reporter, `onTestCaseAnnotate`) and the UI carry them. One per record,
 * a line per criterion, scorer, loop or error: each annotation is a round trip to the main process
 * (docs/guide/benchmarks.md).
 */
import { outputSecrets, redactOutput, type SecretSet } from '../cassettes/redaction/redaction'
import { oneLine } from '../records/one-line'
import type { RubricateRecord, Verdict } from '../records/records'
import { type CriterionMedium, criterionLine, STATE_WORD } from '../records/verdict-words'
import { terminalLine } from './terminal-text'

/** The annotation type of every rubricate annotation (JUnit: `<property name="rubricate">`). @internal */
export const ANNOTATION_TYPE = 'rubricate'

/** What `annotate` is given for one record. @internal */
export interface RecordAnnotation {
  type: string
  message: string
}

/**
 * Between two lines of a message: CR LF, then the indent that puts the line under the first one's
 * text in the failure summary of Vitest's default reporter (`   ↳ `). CR LF, not LF alone: the UI
 * shows an annotation beside its line in the code with `message.replace(/[^\r]\n/, '\r\n')`,
 * which eats the character before a bare LF. Where the lines are joined into one (a JUnit
 * attribute, once an XML parser normalises it; the UI's list of annotations), each still starts
 * with its own word (`met`, `unmet`, `scorer`...).
 * @internal
 */
export const ANNOTATION_LINE_BREAK = '\r\n     '

/**
 * The annotation of one record, as plain text (no colours, no symbols): one line per criterion,
 * scorer, loop or error. `undefined` when the record has nothing to say.
 * @internal
 */
export function recordAnnotation(
  record: RubricateRecord,
  secrets: SecretSet = outputSecrets(),
): RecordAnnotation | undefined {
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
  if (messages.length === 0) return undefined
  // Each line through the output gate: JUnit writes the message into its file and other reporters
  // print it, where rubricate cannot redact or escape it afterwards (and ESC is not even valid in
  // XML 1.0). The gate makes each line one line; only the breaks joined here are left.
  const lines = messages.map((message) => terminalLine(redactOutput(message, secrets)))
  return { type: ANNOTATION_TYPE, message: lines.join(ANNOTATION_LINE_BREAK) }
}

// Plain words, one line each part: the gate runs on the joined line.
const ANNOTATION: CriterionMedium = {
  mark: (state) => STATE_WORD[state],
  tag: (tag) => tag,
  criterion: (text) => oneLine(text),
  reasoning: (text) => `: ${oneLine(text)}`,
  samples: (samples) => samples,
}

function verdictText(verdict: Verdict): string {
  return criterionLine(verdict, ANNOTATION)
}

function outcome(record: RubricateRecord): string {
  return record.status === 'pass' ? 'passed' : 'failed'
}

function round(value: number): string {
  return String(Math.round(value * 100) / 100)
}

function firstLine(text: string): string {
  return (text.split('\n').find((line) => line.trim() !== '') ?? '').trim()
}
