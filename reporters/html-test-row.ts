// Pure: one test of the report page as one table row: its name and outcome (a tolerated eval row
// says so), the input and the output judged, then its assertions, each labelled by kind and name,
// with every verdict's reasoning. Nothing waits behind a click but the end of a long text.
import { join, relative } from 'node:path'
import type { EvalRowRecord } from '../src/eval-records'
import { percent } from '../src/messages'
import type { RubricateRecord, Verdict } from '../src/records'
import type { TestReport } from './collect-run'
import { formatScore } from './render-record'
import { assertionName, stateOf, type VerdictState, verdictKey } from './report-diff'

/** What a row needs beyond its test. @internal */
export interface RowContext {
  file: string
  root?: string | undefined
  cassetteDir?: string | undefined
  /** The verdicts changed against a previous report, by `verdictKey`: what each was. */
  changed: ReadonlyMap<string, VerdictState | 'none'>
  /** The page's HTML gate (`htmlGate`): every untrusted text goes through it. */
  h: (text: string) => string
}

/** A test's outcome on the page. @internal */
export type RowStatus = 'passed' | 'failed' | 'errored' | 'tolerated'

const MARK: Record<VerdictState | 'error', string> = {
  met: '✓',
  unmet: '✗',
  optional: '○',
  error: '!',
}

/** A text longer than this, or of more lines, is shown closed, its start as a preview. */
const SHORT_CHARS = 320
const SHORT_LINES = 6

/** The outcome of a test as the page labels it. @internal */
export function rowStatus(test: TestReport): RowStatus {
  const row = test.evalRow
  if (row?.errored || test.records.some((r) => r.status === 'error')) return 'errored'
  if (row?.tolerated) return 'tolerated'
  // An eval row passes on its share of passing trials: a failed trial does not fail it.
  if (test.state === 'fail' || (row ? !row.passed : test.records.some((r) => r.status !== 'pass')))
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
  return `<tr class="test" data-failed="${status !== 'passed'}" data-status="${status}"><th scope="row"><span class="test-name">${h(test.fullName)}</span><span class="status ${status}">${statusText(status)}</span>${rowNote(test.evalRow, status, h)}</th><td class="io">${first ? ioBlocks(first, h) : ''}</td><td><ol class="assertions">${items.join('')}</ol></td></tr>`
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
        ? ` · first ${text.length.toLocaleString('en-US')} of ${wholeLength.toLocaleString('en-US')} characters`
        : ' · its first 200 characters'
  const short = text.length <= SHORT_CHARS && text.split('\n').length <= SHORT_LINES
  if (short) {
    return `<details class="text" open><summary>${label}${cut}</summary><pre>${h(text)}</pre></details>`
  }
  const size = ` · ${(wholeLength !== undefined && Number.isFinite(wholeLength) ? wholeLength : text.length).toLocaleString('en-US')} characters`
  const preview = `${text.slice(0, 160).replace(/\s+/g, ' ').trim()}…`
  return `<details class="text"><summary>${label}${cut || size}<span class="preview">${h(preview)}</span></summary><pre>${h(text)}</pre></details>`
}

function assertionItem(
  record: RubricateRecord,
  index: number,
  test: TestReport,
  context: RowContext,
  ownTexts: string,
): string {
  const { h } = context
  const state = record.status === 'pass' ? 'met' : record.status === 'fail' ? 'unmet' : 'error'
  const tags: string[] = []
  if (record.turn !== undefined) tags.push(`turn ${record.turn}`)
  const compared = record.share ?? (record.kind === 'rubric' ? undefined : record.score)
  if (compared !== undefined) {
    const bound =
      record.threshold === undefined
        ? ''
        : ` / ${record.direction === 'max' ? '≤ ' : ''}${formatScore(record.threshold, compared)}`
    tags.push(`score ${formatScore(compared, record.threshold)}${bound}`)
  }
  const [kind, ...name] = assertionName(record).split(' ')
  const head = `<div class="a-head"><b class="${state}">${MARK[state]}</b> <span class="kind">${h(kind ?? '')}</span> ${h(name.join(' '))}${tags.map((t) => `<span class="tag">${h(t)}</span>`).join('')}</div>`
  const parts: string[] = [head, ownTexts]
  if (record.error) {
    parts.push(
      `<p class="reason error">${h(`Error ${record.error.code}: ${record.error.message}`)}</p>`,
    )
  }
  const verdicts = record.verdicts ?? []
  if (verdicts.length > 0) parts.push(verdictList(verdicts, context, test, index))
  // A rubric's reason restates its verdicts; a scorer's or a loop's says what they cannot.
  if (record.reason && verdicts.length === 0) {
    parts.push(`<p class="reason"><span class="dim">Reason:</span> ${h(record.reason)}</p>`)
  }
  if (record.scorers?.length) {
    const items = record.scorers.map((part) => {
      const mark = part.passed ? '<b class="met">✓</b>' : '<b class="unmet">✗</b>'
      const score = part.score === undefined ? '' : ` ${formatScore(part.score, part.threshold)}`
      const reason = part.reason ? `: <span class="why">${h(part.reason)}</span>` : ''
      const inner = part.verdicts?.length ? verdictList(part.verdicts, context, test, index) : ''
      return `<li>${mark} scorer "${h(part.id)}"${h(score)}${reason}${inner}</li>`
    })
    parts.push(`<ul class="parts">${items.join('')}</ul>`)
  }
  if (record.iterations?.length) parts.push(iterationList(record, h))
  if (record.calibration) {
    const failures = record.calibration.failures
    parts.push(
      `<p class="reason">${h(failures.length > 0 ? failures.join(' ') : 'Every threshold met.')} <span class="dim">Metrics under Calibration below.</span></p>`,
    )
  }
  parts.push(judgeDetails(record, context))
  return `<li class="assertion">${parts.join('')}</li>`
}

function verdictList(
  verdicts: readonly Verdict[],
  context: RowContext,
  test: TestReport,
  index: number,
): string {
  const { h } = context
  const items = verdicts.map((verdict) => {
    const state = stateOf(verdict)
    const was = context.changed.get(
      verdictKey(context.file, test.fullName, index, verdict.criterion),
    )
    const change =
      was === undefined
        ? ''
        : ` <span class="tag changed">changed: ${was === 'none' ? 'new' : `was ${stateName(was)}`}</span>`
    const agreement = verdict.agreement
      ? ` <span class="tag">${verdict.agreement.satisfied} of ${verdict.agreement.total} samples met</span>`
      : ''
    const required = verdict.required ? 'required' : 'optional'
    return `<li class="verdict" data-state="${state}" title="${stateName(state)}"><b class="${state}">${MARK[state]}</b> <span class="crit">${h(verdict.criterion)}</span> <span class="tag">${required}</span>${agreement}${change}<br><span class="why">${h(verdict.reasoning || '(no reasoning given)')}</span></li>`
  })
  return `<ul class="verdicts">${items.join('')}</ul>`
}

function iterationList(record: RubricateRecord, h: RowContext['h']): string {
  const items = (record.iterations ?? []).map((iteration) => {
    const scorers = iteration.scorers
      .map((s) => {
        const mark = s.errored ? '!' : s.passed ? '✓' : '✗'
        const score = s.score === undefined ? '' : ` ${formatScore(s.score)}`
        return `${mark} ${s.id}${score}${s.passed || !s.reason ? '' : `: ${s.reason}`}`
      })
      .join(' · ')
    const mark = iteration.complete ? '<b class="met">✓</b>' : '<b class="unmet">✗</b>'
    return `<li>${mark} iteration ${iteration.iteration}: ${h(scorers)}<br><span class="dim">output: ${h(iteration.outputPreview || '(empty)')}</span></li>`
  })
  return `<ol class="iterations">${items.join('')}</ol>`
}

// The judge calls in one line, and the cassette entries that served them behind a click: where
// they are stored matters when re-recording, not when reading the verdicts.
function judgeDetails(record: RubricateRecord, context: RowContext): string {
  const { h } = context
  const calls = record.judgeCalls
  if (calls.length === 0) return ''
  const tokens = calls.reduce((sum, call) => sum + (call.usage?.totalTokens ?? 0), 0)
  const sources = [...new Set(calls.map((call) => call.source))].join(', ')
  const models = [...new Set(calls.map((call) => call.model))].join(', ')
  const summary = `Judge: ${models} · ${calls.length} call${calls.length === 1 ? '' : 's'} (${sources}) · ${tokens.toLocaleString('en-US')} tokens`
  const paths = cassettePaths(record, context.cassetteDir, context.root)
  const list = (paths.length > 0 ? paths : ['(none: cassettes off)'])
    .map((path) => `<li>${h(path)}</li>`)
    .join('')
  return `<details class="judge"><summary>${h(summary)}</summary><ul class="cassettes">${list}</ul></details>`
}

function stateName(state: VerdictState | 'error'): string {
  return state === 'met'
    ? 'met'
    : state === 'unmet'
      ? 'required, unmet'
      : state === 'optional'
        ? 'optional, unmet'
        : 'error'
}

// Where the assertion's judge replies are stored, relative to the root: the entry file each call
// used (a record made before files were recorded names its key only).
function cassettePaths(
  record: RubricateRecord,
  dir: string | undefined,
  root: string | undefined,
): string[] {
  const paths = record.judgeCalls.flatMap((call) => {
    if (call.cassetteFile === undefined || !dir) return call.cassetteKey ? [call.cassetteKey] : []
    const path = join(dir, call.cassetteFile)
    return [(root ? relative(root, path) : path).split('\\').join('/')]
  })
  return [...new Set(paths)]
}
