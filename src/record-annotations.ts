/**
 * A record's verdicts as Vitest test annotations, so that reporters rubricate does not control
 * (JUnit `<property>`, TAP, github-actions, the HTML UI) carry them. Reporters cannot annotate a
 * test; the matcher can, through the test context, so it calls {@link annotateRecord} with
 * `this.task.context` after storing the record.
 */
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
    const threshold = record.threshold === undefined ? '' : `, threshold ${round(record.threshold)}`
    const reason = record.reason ? `: ${oneLine(record.reason)}` : ''
    messages.push(`${not}${name} ${outcome(record)}${score}${threshold}${reason}`)
  }
  if (record.kind === 'loop') {
    const count = record.iterations?.at(-1)?.iteration ?? record.iterations?.length ?? 0
    const state = record.status === 'pass' ? 'complete' : 'incomplete'
    messages.push(`loop ${state} after ${count} iteration${count === 1 ? '' : 's'}`)
  }
  for (const verdict of record.verdicts ?? []) messages.push(`${not}${verdictText(verdict)}`)
  return messages.map((message) => ({ type: ANNOTATION_TYPE, message }))
}

/** Anything with Vitest's `annotate(message, type)`: a test context. */
export interface Annotatable {
  annotate?: ((message: string, type?: string) => Promise<unknown>) | undefined
}

/**
 * Annotate the running test with a record's verdicts. Never throws and never fails the test:
 * Vitest refuses annotations once a soft assertion has failed the test, and outside a test there is
 * no context; the record in `task.meta` stays the source of truth either way.
 * @internal
 */
export async function annotateRecord(
  context: Annotatable | undefined,
  record: RubricateRecord,
): Promise<void> {
  const annotate = context?.annotate
  if (typeof annotate !== 'function') return
  const pending: Promise<unknown>[] = []
  for (const { type, message } of recordAnnotations(record)) {
    try {
      pending.push(annotate.call(context, message, type))
    } catch {
      return
    }
  }
  await Promise.allSettled(pending)
}

function verdictText(verdict: Verdict): string {
  const tag = verdict.required ? '[required]' : '[optional]'
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
