/**
 * A record's verdicts as one Vitest test annotation, so that reporters rubricate does not control
 * (JUnit `<property>`, TAP, verbose, the failure summary of the default reporter, a user's
 * `onTestCaseAnnotate`) and the UI carry them. The worker makes it with the test context's
 * `annotate()` as it stores the record (`matchers/record-in-test.ts`); a loop's at each of its
 * checks, since a later check's record replaces the earlier one in `task.meta`.
 *
 * One annotation per record, not one per criterion: each costs about 1.7 ms of CPU between the
 * worker and the main process (docs/guide/benchmarks.md), most of what a replayed three-criterion
 * assertion cost a suite. Its message keeps one line per criterion, scorer, loop or error, as
 * the annotations per criterion were worded.
 */
import { outputSecrets, redactOutput, type SecretSet } from '../cassettes/redaction/redaction'
import type { RubricateRecord, Verdict } from '../records/records'
import { collapseLines as oneLine, verdictWords } from '../records/verdict-words'
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

function verdictText(verdict: Verdict): string {
  const words = verdictWords(verdict)
  const state = words.state === 'met' ? 'met' : 'unmet'
  const why = words.state === 'met' ? '' : `: ${oneLine(words.reasoning)}`
  return `${state} ${words.tag} ${oneLine(words.criterion)}${why}${words.samples}`
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
