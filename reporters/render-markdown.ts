// Pure: the run as Markdown for a CI job summary ($GITHUB_STEP_SUMMARY): the summary lines, then a
// table per test file with one row per criterion (test, criterion, verdict, reasoning).
import { markdownCell } from '../src/output-safety/markdown-text'
import type { RubricateRecord } from '../src/records/records'
import { STATE_WORD, type VerdictState, verdictWords } from '../src/records/verdict-words'
import type { FileReport, RunReport } from './collect-run'
import { figures, plain } from './figures'
import { calibrationSummary, calibrationTitle } from './render-calibration'
import { formatScore } from './render-record'
import { summaryRows } from './render-summary'
import type { RunSummary } from './run-summary'

/** The Markdown of a run; empty when it made no rubricate assertion. @internal */
export function renderMarkdown(report: RunReport, summary: RunSummary): string {
  // Tool-call assertions are on the report page only: a file of those alone has no table here.
  const files = report.files.filter((file) => file.tests.some((test) => test.records.length > 0))
  if (files.length === 0) return ''
  const out: string[] = ['## rubricate', '']
  for (const [title, text] of summaryRows(summary, plain)) out.push(`- **${title}** ${cell(text)}`)
  for (const file of files) out.push('', ...fileTable(file))
  return `${out.join('\n')}\n\n`
}

function fileTable(file: FileReport): string[] {
  const heading = file.project
    ? `### ${cell(file.file)} (${cell(file.project)})`
    : `### ${cell(file.file)}`
  const rows = ['| Test | Criterion | Verdict | Reasoning |', '| --- | --- | --- | --- |']
  for (const test of file.tests) {
    if (test.records.length === 0) continue
    for (const record of test.records) {
      for (const [criterion, verdict, reasoning] of recordRows(record)) {
        rows.push(
          `| ${cell(test.fullName)} | ${cell(criterion)} | ${cell(verdict)} | ${cell(reasoning)} |`,
        )
      }
    }
  }
  return [heading, '', ...rows]
}

type Row = [criterion: string, verdict: string, reasoning: string]

function recordRows(record: RubricateRecord): Row[] {
  const not = record.negated ? ' (.not)' : ''
  const rows: Row[] = []
  if (record.error) {
    const label =
      record.kind === 'scorer' && record.scorerId ? `scorer "${record.scorerId}"` : record.kind
    rows.push([`${label}${not}`, `${figures.error} ${record.error.code}`, record.error.message])
  }
  if (record.kind === 'scorer' && !record.error) {
    const name = record.scorerId ? `scorer "${record.scorerId}"` : 'scorer'
    const threshold =
      record.threshold === undefined
        ? ''
        : ` (${record.direction === 'max' ? 'at most' : 'threshold'} ${formatScore(record.threshold)})`
    const score = record.score === undefined ? '' : ` ${formatScore(record.score)}`
    rows.push([`${name}${threshold}${not}`, `${statusMark(record)}${score}`, record.reason ?? ''])
  }
  if (record.kind === 'calibration' && record.calibration) {
    const { calibration } = record
    rows.push([
      calibrationTitle(calibration),
      `${statusMark(record)} ${calibrationSummary(calibration)}`,
      calibration.failures.join('; '),
    ])
  }
  if (record.kind === 'loop') {
    const count = record.iterations?.at(-1)?.iteration ?? record.iterations?.length ?? 0
    const outcome = record.status === 'pass' ? 'complete' : 'incomplete'
    rows.push([
      `loop (${count} iteration${count === 1 ? '' : 's'})`,
      `${statusMark(record)} ${outcome}`,
      record.reason ?? '',
    ])
  }
  for (const verdict of record.verdicts ?? []) {
    const words = verdictWords(verdict)
    const mark = `${MARKS[words.state]} ${STATE_WORD[words.state]}`
    rows.push([`${words.tag} ${words.criterion}${not}`, mark, words.reasoning])
  }
  return rows
}

const MARKS: Readonly<Record<VerdictState, string>> = {
  met: figures.met,
  unmet: figures.unmet,
  'optional-unmet': figures.optionalUnmet,
}

function statusMark(record: RubricateRecord): string {
  return record.status === 'pass'
    ? figures.met
    : record.status === 'fail'
      ? figures.unmet
      : figures.error
}

// Every cell goes through the one Markdown gate: redacted, one line (a lone CR too), pipes and
// raw HTML escaped.
const cell = markdownCell
