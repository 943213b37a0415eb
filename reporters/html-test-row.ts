// Pure: one test of the report page as one table row: its name and outcome (a tolerated eval row
// says so), the input and the output judged, then its assertions, each labelled by kind and name,
// with every verdict's reasoning. Nothing waits behind a click but the end of a long text.

import { count, percent } from '../src/messages'
import type { EvalRowRecord } from '../src/records/eval-records'
import type { RubricateRecord } from '../src/records/records'
import type { TestReport } from './collect-run'
import { assertionItem, type RowContext } from './html-assertion'
import { toolCallItem } from './html-tool-calls'

/** A test's outcome on the page. @internal */
export type RowStatus = 'passed' | 'failed' | 'errored' | 'tolerated'

/** A text longer than this, or of more lines, is shown closed, its start as a preview. */
const SHORT_CHARS = 320
const SHORT_LINES = 6

/** The outcome of a test as the page labels it. @internal */
export function rowStatus(test: TestReport): RowStatus {
  const row = test.evalRow
  if (row?.errored || test.records.some((r) => r.status === 'error')) return 'errored'
  if (row?.tolerated) return 'tolerated'
  // An eval row passes on its share of passing trials: a failed trial does not fail it.
  const failedToolCall = test.toolCalls?.some((r) => r.status !== 'pass') ?? false
  if (
    test.state === 'fail' ||
    failedToolCall ||
    (row ? !row.passed : test.records.some((r) => r.status !== 'pass'))
  )
    return 'failed'
  return 'passed'
}

/** One test as one `<tr>`. @internal */
export function testRow(test: TestReport, context: RowContext): string {
  const { h } = context
  const status = rowStatus(test)
  const first = test.records[0]
  const trials = test.evalRow && test.evalRow.trials.length > 1 ? test.evalRow : undefined
  const items: string[] = []
  let trial: number | undefined
  // An assertion that judged another text than the one above it (another trial's output, a
  // turn's reply, a second reply in the same test) shows that text itself; a trial starts again
  // from the row's texts, so one that answered as the first did shows nothing twice.
  let above = first
  test.records.forEach((record, index) => {
    if (trials && record.trial !== undefined && record.trial !== trial) {
      trial = record.trial
      above = first
      const passed = trials.trials[trial - 1]?.passed
      const mark = passed === undefined ? '' : passed ? ' ✓ passed' : ' ✗ failed'
      items.push(`<li class="group">Trial ${trial} of ${trials.trials.length}${mark}</li>`)
    }
    const own = above ? ioBlocks(record, h, above) : ''
    above = record
    items.push(assertionItem(record, index, test, context, own))
  })
  for (const record of test.toolCalls ?? []) items.push(toolCallItem(record, context.h))
  return `<tr class="test" data-failed="${status !== 'passed'}" data-status="${status}"><th scope="row"><span class="test-name">${h(test.fullName)}</span><span class="status ${status}">${statusText(status)}</span>${rowNote(test.evalRow, status, h)}${context.testCharts?.get(`${context.file}\0${test.fullName}`) ?? ''}</th><td class="io">${first ? ioBlocks(first, h) : ''}</td><td><ol class="assertions">${items.join('')}</ol></td></tr>`
}

function statusText(status: RowStatus): string {
  return status === 'passed'
    ? '✓ passed'
    : status === 'failed'
      ? '✗ failed'
      : status === 'errored'
        ? '! errored'
        : '✗ tolerated'
}

// Under the status: why a failed row is tolerated, and how its trials went.
function rowNote(row: EvalRowRecord | undefined, status: RowStatus, h: RowContext['h']): string {
  if (!row) return ''
  const notes: string[] = []
  if (status === 'tolerated') {
    notes.push(
      `The row failed; its test passes: the eval gates on a pass rate of ${percent(row.passRate)}.`,
    )
  }
  if (row.trials.length > 1) {
    const passed = row.trials.filter((t) => t.passed).length
    notes.push(
      `Trials: ${passed} of ${row.trials.length} passed, needs ${percent(row.trialPassRate)}.`,
    )
  }
  return notes.map((note) => `<span class="note">${h(note)}</span>`).join('')
}

function outputOf(record: RubricateRecord): string {
  return record.output ?? record.outputPreview
}

// The input (when one was given) and the output judged, each open when short, else closed with
// its start showing. Given the record above, only what differs from it.
function ioBlocks(record: RubricateRecord, h: RowContext['h'], above?: RubricateRecord): string {
  const output = outputOf(record)
  const sameOutput = above !== undefined && outputOf(above) === output
  const sameInput = above !== undefined && above.input === record.input
  if (sameOutput && sameInput) return ''
  const input =
    record.input === undefined || sameInput
      ? ''
      : textBlock('Input', record.input, record.inputLength, h)
  if (sameOutput) return input
  // A record of an older run holds only the preview: say that it is one.
  const length =
    record.output === undefined && output.length >= 200 ? Number.POSITIVE_INFINITY : undefined
  return `${input}${textBlock('Output judged', output, record.outputLength ?? length, h)}`
}

function textBlock(
  label: string,
  text: string,
  wholeLength: number | undefined,
  h: RowContext['h'],
): string {
  if (text === '') {
    return `<details class="text" open><summary>${label}</summary><pre class="dim">(empty)</pre></details>`
  }
  const cut =
    wholeLength === undefined
      ? ''
      : Number.isFinite(wholeLength)
        ? ` · first ${count(text.length)} of ${count(wholeLength)} characters`
        : ' · its first 200 characters'
  const short = text.length <= SHORT_CHARS && text.split('\n').length <= SHORT_LINES
  if (short) {
    return `<details class="text" open><summary>${label}${cut}</summary><pre>${h(text)}</pre></details>`
  }
  const size = ` · ${count(wholeLength !== undefined && Number.isFinite(wholeLength) ? wholeLength : text.length)} characters`
  const preview = `${text.slice(0, 160).replace(/\s+/g, ' ').trim()}…`
  return `<details class="text"><summary>${label}${cut || size}<span class="preview">${h(preview)}</span></summary><pre>${h(text)}</pre></details>`
}
