// Pure: the rubric report page, one self-contained HTML file (no network needed to open it).
// Built from the collected run only, so a run merged from shards gives the same page as one run.
import { htmlGate } from '../src/output-safety/html-text'
import type { VerdictState } from '../src/records/verdict-words'
import type { RunReport } from './collect-run'
import { plain } from './figures'
import { changesBody } from './html-changes'
import { pageHistory } from './html-history'
import { CSP_META, SCRIPT_ELEMENT, STYLE_ELEMENT } from './html-page-assets'
import { ReviewCollector, reviewSection } from './html-review'
import { rowStatus, testRow } from './html-test-row'
import { renderCalibration } from './render-calibration'
import { summaryRows } from './render-summary'
import { type ReportDiff, verdictKey } from './report-diff'
import type { PageHistory } from './run-history'
import type { RunSummary } from './run-summary'

/** How the page is built. @internal */
export interface HtmlReportOptions {
  /** The project root: cassette paths are shown relative to it. */
  root?: string | undefined
  /** When the run finished, shown in the heading. */
  finishedAt?: Date | undefined
  /** The verdicts that changed against a previous report, and what that report is. */
  changes?: { against: string; diff: ReportDiff } | undefined
  /** The run history's last runs (this one among them): trends and the compare view. */
  history?: PageHistory | undefined
}

/**
 * The report page (ARCHITECTURE.md §9.2): the run summary, then per test file one table row per
 * test: its name and outcome (`tolerated` for a failed eval row its suite's pass rate allows),
 * the input and the output judged (open when short, else closed with their start showing), and
 * its assertions grouped under it, each labelled by kind and name, with every criterion's verdict
 * and reasoning; a row run in several trials groups them by trial. Filters (failed only, file,
 * text) are the one script; everything reads without it. Then calibration metrics when any.
 * @internal
 */
export function renderHtml(
  report: RunReport,
  summary: RunSummary,
  options: HtmlReportOptions = {},
): string {
  // The secrets to redact are read once for the whole page.
  const h = htmlGate()
  // The verdicts that changed against the previous report: what they were.
  const changed = new Map<string, VerdictState | 'none'>()
  for (const change of options.changes?.diff.verdicts ?? []) {
    if (change.change === 'removed') continue
    changed.set(
      verdictKey(change.file, change.test, change.index, change.criterion),
      change.before ?? 'none',
    )
  }
  const history = options.history ? pageHistory(options.history, h) : undefined
  const review = new ReviewCollector()
  const sections: string[] = []
  const calibrations: string[] = []
  const files: string[] = []
  const counts = { tests: 0, failed: 0, tolerated: 0 }
  for (const file of report.files) {
    if (file.tests.length === 0) continue
    const context = {
      file: file.file,
      root: options.root,
      cassetteDir: file.cassettes?.dir,
      changed,
      h,
      testCharts: history?.testCharts,
      review,
    }
    const rows = file.tests.map((test) => {
      const status = rowStatus(test)
      counts.tests++
      if (status === 'failed' || status === 'errored') counts.failed++
      if (status === 'tolerated') counts.tolerated++
      for (const record of test.records) {
        if (record.kind !== 'calibration') continue
        const lines = renderCalibration(
          record,
          { indent: '', colors: plain },
          record.status === 'pass' ? '✓' : '✗',
        )
        calibrations.push(
          `<h3>${h(file.file)} › ${h(test.fullName)}</h3><pre>${h(lines.join('\n'))}</pre>`,
        )
      }
      return testRow(test, context)
    })
    files.push(file.file)
    sections.push(
      `<section class="file" data-file="${h(file.file)}"><h2>${h(file.file)}</h2><div class="scroll"><table class="tests"><colgroup><col class="c-test"><col class="c-io"><col class="c-assertions"></colgroup><thead><tr><th>Test</th><th>Input and output judged</th><th>Assertions and the judge's reasoning</th></tr></thead><tbody>\n${rows.join('\n')}\n</tbody></table></div></section>`,
    )
  }
  const summaryList = summaryRows(summary, plain)
    .map(([title, text]) => `<dt>${h(title)}</dt><dd>${h(text)}</dd>`)
    .join('')
  const fileOptions = files.map((f) => `<option>${h(f)}</option>`).join('')
  const when = options.finishedAt ? ` · ${h(options.finishedAt.toISOString())}` : ''
  const tolerated = counts.tolerated > 0 ? `, ${counts.tolerated} tolerated` : ''
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
${CSP_META}
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>rubricate report</title>
${STYLE_ELEMENT}</head>
<body>
<header><h1>rubricate report</h1><p class="sub">${counts.tests} test${counts.tests === 1 ? '' : 's'}: ${counts.failed} failed or errored${tolerated} · ${summary.assertions.total} assertions${when}</p></header>
<section id="summary"><h2>Run summary</h2><dl>${summaryList || '<dt>Run</dt><dd>No rubricate assertions.</dd>'}</dl></section>
${options.changes ? changesSection(options.changes.against, options.changes.diff, h) : ''}
${history?.section ?? ''}
<form id="filters">
<label><input type="checkbox" id="failed-only"> Failed only</label>
<label>File <select id="file-filter"><option value="">All files</option>${fileOptions}</select></label>
<label>Search <input type="search" id="search" placeholder="test, criterion, input, output"></label>
<span class="legend"><b class="met">✓</b> met <b class="unmet">✗</b> required unmet <b class="optional">○</b> optional unmet <b class="error">!</b> error${options.changes ? ' <b class="changed">changed</b> since the previous report' : ''}</span>
</form>
<main id="tests">${sections.join('\n') || '<p>No test holds rubricate records.</p>'}</main>
${calibrations.length > 0 ? `<section id="calibration"><h2>Calibration</h2>${calibrations.join('\n')}</section>` : ''}
${reviewSection(review)}
${review.size > 0 ? review.dataElement() : ''}
${SCRIPT_ELEMENT}
</body></html>
`
}

// The verdicts and scores that changed against a previous report.
function changesSection(against: string, diff: ReportDiff, h: (text: string) => string): string {
  return `<section id="changes"><h2>Changes against ${h(against)}</h2>${changesBody(diff, h)}</section>`
}
