// Pure: one assertion of the report page, under its test's row: its kind and name, outcome and
// score, every verdict with the judge's reasoning, a scorer's reason, a loop's iterations, and
// the judge calls with their cassette entries behind a click.
import { join, relative } from 'node:path'
import { count } from '../src/messages'
import type { RubricateRecord, Verdict } from '../src/records/records'
import {
  requirement,
  STATE_LABEL,
  samplesCount,
  type VerdictState,
  verdictState,
} from '../src/records/verdict-words'
import type { TestReport } from './collect-run'
import type { ReviewCollector } from './html-review'
import { formatScore } from './render-record'
import { assertionName, verdictKey } from './report-diff'

/** What a row needs beyond its test. @internal */
export interface RowContext {
  file: string
  root?: string | undefined
  cassetteDir?: string | undefined
  /** The verdicts changed against a previous report, by `verdictKey`: what each was. */
  changed: ReadonlyMap<string, VerdictState | 'none'>
  /** The page's HTML gate (`htmlGate`): every untrusted text goes through it. */
  h: (text: string) => string
  /** Each test's chart over the history's last runs, by `file\0test` (already gated). */
  testCharts?: ReadonlyMap<string, string> | undefined
  /** The page's reviewable verdicts: each verdict's review control comes from it. */
  review?: ReviewCollector | undefined
}

/** A verdict state's mark on the page. @internal */
export const STATE_MARK: Readonly<Record<VerdictState, string>> = {
  met: '✓',
  unmet: '✗',
  'optional-unmet': '○',
}

/** A verdict state's class (and `data-state`) on the page, which the style colours. @internal */
export const STATE_CLASS: Readonly<Record<VerdictState, string>> = {
  met: 'met',
  unmet: 'unmet',
  'optional-unmet': 'optional',
}

const OUTCOME_MARK = { met: '✓', unmet: '✗', error: '!' } as const

/**
 * One assertion as an `<li>`; `ownTexts` shows the input and output it judged when they differ
 * from those above it.
 * @internal
 */
export function assertionItem(
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
  const head = `<div class="a-head"><b class="${state}">${OUTCOME_MARK[state]}</b> <span class="kind">${h(kind ?? '')}</span> ${h(name.join(' '))}${tags.map((t) => `<span class="tag">${h(t)}</span>`).join('')}</div>`
  const parts: string[] = [head, ownTexts]
  if (record.error) {
    parts.push(
      `<p class="reason error">${h(`Error ${record.error.code}: ${record.error.message}`)}</p>`,
    )
  }
  const verdicts = record.verdicts ?? []
  if (verdicts.length > 0) parts.push(verdictList(verdicts, context, test, index, record))
  // A rubric's reason restates its verdicts; a scorer's or a loop's says what they cannot.
  if (record.reason && verdicts.length === 0) {
    parts.push(`<p class="reason"><span class="dim">Reason:</span> ${h(record.reason)}</p>`)
  }
  if (record.scorers?.length) {
    const items = record.scorers.map((part) => {
      const mark = part.passed ? '<b class="met">✓</b>' : '<b class="unmet">✗</b>'
      const score = part.score === undefined ? '' : ` ${formatScore(part.score, part.threshold)}`
      const reason = part.reason ? `: <span class="why">${h(part.reason)}</span>` : ''
      const inner = part.verdicts?.length
        ? verdictList(part.verdicts, context, test, index, record)
        : ''
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
  record: RubricateRecord,
): string {
  const { h } = context
  const items = verdicts.map((verdict) => {
    const review = context.review
      ? ` data-review="${context.review.add(record, verdict, `${context.file} › ${test.fullName}`)}"`
      : ''
    const state = verdictState(verdict)
    const was = context.changed.get(
      verdictKey(context.file, test.fullName, index, verdict.criterion),
    )
    const change =
      was === undefined
        ? ''
        : ` <span class="tag changed">changed: ${was === 'none' ? 'new' : `was ${STATE_LABEL[was]}`}</span>`
    const samples = samplesCount(verdict)
    const agreement = samples ? ` <span class="tag">${samples}</span>` : ''
    const mark = `<b class="${STATE_CLASS[state]}">${STATE_MARK[state]}</b>`
    return `<li class="verdict" data-state="${STATE_CLASS[state]}"${review} title="${STATE_LABEL[state]}">${mark} <span class="crit">${h(verdict.criterion)}</span> <span class="tag">${h(requirement(verdict))}</span>${agreement}${change}<br><span class="why">${h(verdict.reasoning || '(no reasoning given)')}</span></li>`
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
  const summary = `Judge: ${models} · ${calls.length} call${calls.length === 1 ? '' : 's'} (${sources}) · ${count(tokens)} tokens`
  const paths = cassettePaths(record, context.cassetteDir, context.root)
  const list = (paths.length > 0 ? paths : ['(none: cassettes off)'])
    .map((path) => `<li>${h(path)}</li>`)
    .join('')
  return `<details class="judge"><summary>${h(summary)}</summary><ul class="cassettes">${list}</ul></details>`
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
