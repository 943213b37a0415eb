// Pure: the rubric report page, one self-contained HTML file (no network needed to open it).
// Built from the collected run only, so a run merged from shards gives the same page as one run.
import { join, relative } from 'node:path'
import type { RubricateRecord, Verdict } from '../src/records/records'
import type { RunReport } from './collect-run'
import { plain } from './figures'
import { renderCalibration } from './render-calibration'
import { formatScore, oneLine } from './render-record'
import { summaryRows } from './render-summary'
import {
  type ReportDiff,
  verdictsOf as recordVerdicts,
  type VerdictState,
  stateOf as verdictState,
} from './report-diff'
import type { RunSummary } from './run-summary'

/** How the page is built. @internal */
export interface HtmlReportOptions {
  /** The project root: cassette paths are shown relative to it. */
  root?: string | undefined
  /** When the run finished, shown in the heading. */
  finishedAt?: Date | undefined
  /** The verdicts that changed against a previous report, and what that report is. */
  changes?: { against: string; diff: ReportDiff } | undefined
}

/** A cell's state: met, required unmet, optional unmet, error. */
type CellState = VerdictState | 'error'

/** What a click on a cell shows; held once in the page's data, cells refer to it by index. */
interface CellDetail {
  test: string
  file: string
  /** The column: a criterion's text, or the assertion itself. */
  what: string
  state: CellState | 'pass' | 'fail'
  text: string
  output: string
  cassettes: string[]
}

interface Row {
  file: string
  test: string
  label: string
  failed: boolean
  head: { state: 'pass' | 'fail' | 'error'; text: string; detail: number }
  cells: Map<string, { state: CellState; detail: number; was?: VerdictState | 'none' | undefined }>
}

/**
 * The report page: the run summary, then per test file a matrix of its assertions (rows) by
 * criteria (columns), cells `✓` met, `✗` required unmet, `○` optional unmet, `!` error; filters
 * (failed only, file, criterion text); a click on a cell shows its reasoning, the output preview
 * and the cassette entries' paths. Then calibration metrics when any. Readable without scripts; the
 * script only adds the filters and the details.
 * @internal
 */
export function renderHtml(
  report: RunReport,
  summary: RunSummary,
  options: HtmlReportOptions = {},
): string {
  const details: CellDetail[] = []
  // The cells whose verdict changed against the previous report: what they were.
  const changed = new Map<string, VerdictState | 'none'>()
  for (const change of options.changes?.diff.verdicts ?? []) {
    if (change.change === 'removed') continue
    changed.set(
      cellKey(change.file, change.test, oneLine(change.criterion)),
      change.before ?? 'none',
    )
  }
  const sections: string[] = []
  const calibrations: string[] = []
  const files: string[] = []
  for (const file of report.files) {
    const rows: Row[] = []
    const columns: string[] = []
    const seen = new Set<string>()
    const cassetteDir = file.cassettes?.dir
    for (const test of file.tests) {
      test.records.forEach((record, index) => {
        const label = test.records.length > 1 ? `${test.fullName} #${index + 1}` : test.fullName
        const cassettes = cassettePaths(record, cassetteDir, options.root)
        const add = (what: string, state: CellDetail['state'], text: string): number => {
          details.push({
            test: label,
            file: file.file,
            what,
            state,
            text,
            output: record.outputPreview,
            cassettes,
          })
          return details.length - 1
        }
        const row: Row = {
          file: file.file,
          test: test.fullName,
          label,
          failed: record.status !== 'pass' || test.state === 'fail',
          head: {
            state: record.status,
            text: assertionText(record),
            detail: add(
              kindName(record),
              record.status === 'error' ? 'error' : record.status,
              assertionDetail(record),
            ),
          },
          cells: new Map(),
        }
        for (const verdict of recordVerdicts(record)) {
          const column = oneLine(verdict.criterion)
          if (!seen.has(column)) {
            seen.add(column)
            columns.push(column)
          }
          row.cells.set(column, {
            state: verdictState(verdict),
            detail: add(column, verdictState(verdict), verdictDetail(verdict)),
            was: changed.get(cellKey(file.file, label, column)),
          })
        }
        rows.push(row)
        if (record.kind === 'calibration') {
          calibrations.push(
            `<h3>${esc(file.file)} › ${esc(test.fullName)}</h3><pre>${esc(renderCalibration(record, { indent: '', colors: plain }, record.status === 'pass' ? '✓' : '✗').join('\n'))}</pre>`,
          )
        }
      })
    }
    if (rows.length === 0) continue
    files.push(file.file)
    sections.push(matrix(file.file, rows, columns))
  }
  const summaryList = summaryRows(summary, plain)
    .map(([title, text]) => `<dt>${esc(title)}</dt><dd>${esc(text)}</dd>`)
    .join('')
  const fileOptions = files.map((f) => `<option>${esc(f)}</option>`).join('')
  const when = options.finishedAt ? ` · ${esc(options.finishedAt.toISOString())}` : ''
  const failedRows = summary.assertions.failed + summary.assertions.errored
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>rubricate report</title>
<style>${CSS}</style></head>
<body>
<header><h1>rubricate report</h1><p class="sub">${esc(String(summary.assertions.total))} assertions · ${esc(String(failedRows))} failed or errored${when}</p></header>
<section id="summary"><h2>Run summary</h2><dl>${summaryList || '<dt>Run</dt><dd>No rubricate assertions.</dd>'}</dl></section>
${options.changes ? changesSection(options.changes.against, options.changes.diff) : ''}
<form id="filters" onsubmit="return false">
<label><input type="checkbox" id="failed-only"> Failed only</label>
<label>File <select id="file-filter"><option value="">All files</option>${fileOptions}</select></label>
<label>Criterion <input type="search" id="criterion-filter" placeholder="text in the criterion"></label>
<span class="legend"><b class="met">✓</b> met <b class="unmet">✗</b> required unmet <b class="optional">○</b> optional unmet <b class="error">!</b> error${options.changes ? ' <b class="cell changed">✓</b> changed since the previous report' : ''}</span>
</form>
<main id="matrices">${sections.join('\n') || '<p>No test holds rubricate records.</p>'}</main>
${calibrations.length > 0 ? `<section id="calibration"><h2>Calibration</h2>${calibrations.join('\n')}</section>` : ''}
<aside id="detail" hidden><button type="button" id="detail-close" aria-label="Close">×</button><h2 id="detail-title"></h2><p id="detail-test"></p><pre id="detail-text"></pre><h3>Output preview</h3><pre id="detail-output"></pre><h3>Cassette entries</h3><ul id="detail-cassettes"></ul></aside>
<script type="application/json" id="details">${jsonForScript(details)}</script>
<script>${SCRIPT}</script>
</body></html>
`
}

function matrix(file: string, rows: Row[], columns: string[]): string {
  const head = columns
    .map(
      (column) =>
        `<th class="crit" data-crit="${esc(column.toLowerCase())}" title="${esc(column)}"><span>${esc(column)}</span></th>`,
    )
    .join('')
  const body = rows
    .map((row) => {
      const cells = columns
        .map((column) => {
          const cell = row.cells.get(column)
          if (!cell) return `<td class="none" data-crit="${esc(column.toLowerCase())}"></td>`
          const was =
            cell.was === undefined
              ? ''
              : ` (${cell.was === 'none' ? 'new' : `was ${stateName(cell.was).toLowerCase()}`})`
          const changedClass = cell.was === undefined ? '' : ' changed'
          return `<td data-crit="${esc(column.toLowerCase())}"><button type="button" class="cell ${cell.state}${changedClass}" data-d="${cell.detail}" title="${esc(stateName(cell.state) + was)}">${SYMBOL[cell.state]}</button></td>`
        })
        .join('')
      return `<tr data-failed="${row.failed}"><th class="test" scope="row">${esc(row.label)}</th><td class="head"><button type="button" class="cell ${row.head.state === 'pass' ? 'met' : row.head.state === 'fail' ? 'unmet' : 'error'}" data-d="${row.head.detail}">${esc(row.head.text)}</button></td>${cells}</tr>`
    })
    .join('\n')
  return `<section class="file" data-file="${esc(file)}"><h2>${esc(file)}</h2><div class="scroll"><table><thead><tr><th>Test</th><th>Assertion</th>${head}</tr></thead><tbody>
${body}
</tbody></table></div></section>`
}

function cellKey(file: string, label: string, column: string): string {
  return `${file}\0${label}\0${column}`
}

// The verdicts and scores that changed against a previous report, required flips first.
function changesSection(against: string, diff: ReportDiff): string {
  const notRun =
    diff.notRun > 0
      ? ` ${diff.notRun} test${diff.notRun === 1 ? '' : 's'} of it did not run here and ${diff.notRun === 1 ? 'is' : 'are'} not compared.`
      : ''
  const title = `<h2>Changes against ${esc(against)}</h2>`
  if (diff.verdicts.length === 0 && diff.scores.length === 0) {
    return `<section id="changes">${title}<p>No verdict or score changed.${esc(notRun)}</p></section>`
  }
  const order = (change: ReportDiff['verdicts'][number]) =>
    change.change === 'flipped' && change.required ? 0 : change.change === 'flipped' ? 1 : 2
  const rows = [...diff.verdicts]
    .sort((a, b) => order(a) - order(b))
    .map((change) => {
      const was = change.before
        ? `<b class="${change.before}">${SYMBOL[change.before]}</b> ${esc(stateName(change.before))}`
        : '—'
      const now = change.after
        ? `<b class="${change.after}">${SYMBOL[change.after]}</b> ${esc(stateName(change.after))}`
        : '—'
      return `<tr data-change="${change.change}"><td>${esc(change.file)} › ${esc(change.test)}</td><td>${esc(oneLine(change.criterion))} <span class="dim">[${change.required ? 'required' : 'optional'}]</span></td><td>${esc(change.change)}</td><td>${was} → ${now}</td><td>${esc(change.reasoning)}</td></tr>`
    })
  for (const score of diff.scores) {
    rows.push(
      `<tr data-change="score"><td>${esc(score.file)} › ${esc(score.test)}</td><td>scorer "${esc(score.scorer)}"</td><td>score</td><td>${esc(String(score.before))} → ${esc(String(score.after))}</td><td></td></tr>`,
    )
  }
  const flips = diff.verdicts.filter((c) => c.change === 'flipped').length
  const counts = `${flips} verdict${flips === 1 ? '' : 's'} flipped, ${diff.verdicts.length - flips} appeared or disappeared, ${diff.scores.length} score${diff.scores.length === 1 ? '' : 's'} moved.${notRun}`
  return `<section id="changes">${title}<p>${esc(counts)}</p><div class="scroll"><table><thead><tr><th>Test</th><th>Criterion</th><th>Change</th><th>Before → now</th><th>Reasoning now</th></tr></thead><tbody>
${rows.join('\n')}
</tbody></table></div></section>`
}

function kindName(record: RubricateRecord): string {
  const not = record.negated ? ' (.not)' : ''
  if (record.kind === 'scorer')
    return `${record.scorerId ? `scorer "${record.scorerId}"` : 'scorer'}${not}`
  return `${record.kind}${not}`
}

// The assertion column: its kind and outcome in a few words.
function assertionText(record: RubricateRecord): string {
  const status = record.status === 'pass' ? '✓' : record.status === 'fail' ? '✗' : '!'
  // A plain rubric's score is only its outcome again; a share or a scorer's score says more.
  const compared = record.share ?? (record.kind === 'rubric' ? undefined : record.score)
  const score =
    compared === undefined
      ? ''
      : ` ${formatScore(compared, record.threshold)}${record.threshold === undefined ? '' : ` / ${record.direction === 'max' ? '≤ ' : ''}${formatScore(record.threshold, compared)}`}`
  const loop = record.kind === 'loop' ? ` ${record.iterations?.length ?? 0} it.` : ''
  return `${status} ${kindName(record)}${score}${loop}`
}

function assertionDetail(record: RubricateRecord): string {
  const lines: string[] = [`Outcome: ${record.status}`]
  if (record.score !== undefined) lines.push(`Score: ${record.score}`)
  if (record.share !== undefined) lines.push(`Share: ${record.share}`)
  if (record.threshold !== undefined) {
    lines.push(`Threshold: ${record.direction === 'max' ? 'at most ' : ''}${record.threshold}`)
  }
  if (record.turn !== undefined) lines.push(`Turn: ${record.turn}`)
  if (record.error) lines.push(`Error ${record.error.code}: ${record.error.message}`)
  if (record.reason) lines.push('', record.reason)
  for (const part of record.scorers ?? []) {
    lines.push(
      `${part.passed ? '✓' : '✗'} scorer "${part.id}"${part.score === undefined ? '' : ` ${part.score}`}${part.reason ? `: ${part.reason}` : ''}`,
    )
  }
  for (const iteration of record.iterations ?? []) {
    const scorers = iteration.scorers
      .map(
        (s) =>
          `${s.errored ? '!' : s.passed ? '✓' : '✗'} ${s.id}${s.score === undefined ? '' : ` ${s.score}`}${s.passed || !s.reason ? '' : `: ${oneLine(s.reason)}`}`,
      )
      .join(' · ')
    lines.push(`${iteration.iteration}. ${scorers}`)
  }
  if (record.metadata) lines.push('', `Metadata: ${safeJson(record.metadata)}`)
  const calls = record.judgeCalls
  if (calls.length > 0) {
    const tokens = calls.reduce((sum, call) => sum + (call.usage?.totalTokens ?? 0), 0)
    const sources = [...new Set(calls.map((call) => call.source))].join(', ')
    lines.push(
      '',
      `Judge: ${[...new Set(calls.map((c) => c.model))].join(', ')} · ${calls.length} call${calls.length === 1 ? '' : 's'} (${sources}) · ${tokens.toLocaleString('en-US')} tokens`,
    )
  }
  return lines.join('\n')
}

function verdictDetail(verdict: Verdict): string {
  const agreement = verdict.agreement
    ? `\nSamples: ${verdict.agreement.satisfied} of ${verdict.agreement.total} judged it met`
    : ''
  return `${stateName(verdictState(verdict))} [${verdict.required ? 'required' : 'optional'}]${agreement}\n\n${verdict.reasoning || '(no reasoning given)'}`
}

function stateName(state: CellState): string {
  return state === 'met'
    ? 'Met'
    : state === 'unmet'
      ? 'Required, unmet'
      : state === 'optional'
        ? 'Optional, unmet'
        : 'Error'
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

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? ''
  } catch {
    return String(value)
  }
}

/** JSON safe inside a `<script>` element: no `</script>`, no `<!--`. */
function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')
}

function esc(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
}

const SYMBOL: Record<CellState, string> = { met: '✓', unmet: '✗', optional: '○', error: '!' }

const CSS = `
:root{--met:#1a7f37;--unmet:#cf222e;--optional:#9a6700;--error:#8250df;--line:#d0d7de;--bg:#fff;--fg:#1f2328;--dim:#59636e}
*{box-sizing:border-box}body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--fg);background:var(--bg)}
header,section,form,main{padding:0 20px}h1{font-size:22px;margin:16px 0 0}.sub{color:var(--dim);margin:2px 0 8px}
h2{font-size:16px;margin:18px 0 6px}dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 14px;margin:0}dt{font-weight:600;color:var(--dim)}dd{margin:0}
#filters{position:sticky;top:0;background:var(--bg);border-bottom:1px solid var(--line);padding:8px 20px;display:flex;flex-wrap:wrap;gap:16px;align-items:center;z-index:2}
.legend{color:var(--dim)}.legend b{margin-left:8px}
.scroll{overflow:auto;max-height:80vh;border:1px solid var(--line)}table{border-collapse:collapse}
th,td{border-bottom:1px solid var(--line);padding:2px 6px;text-align:left;vertical-align:middle}
thead th{position:sticky;top:0;background:#f6f8fa;z-index:1}
th.crit{max-width:9em;font-weight:500;font-size:12px}th.crit span{display:-webkit-box;-webkit-line-clamp:3;-webkit-box-orient:vertical;overflow:hidden}
th.test{font-weight:500;max-width:28em}td.none{background:#f6f8fa}
.cell{border:0;background:none;cursor:pointer;font:inherit;padding:2px 4px;border-radius:4px}.cell:hover,.cell:focus{outline:2px solid #0969da}
.cell.changed{box-shadow:0 0 0 2px #0969da inset}.dim{color:var(--dim)}
.met{color:var(--met)}.unmet{color:var(--unmet);font-weight:700}.optional{color:var(--optional)}.error{color:var(--error);font-weight:700}
td:not(.head) .cell{font-size:16px;min-width:2em}
tr[hidden],section[hidden],[data-hidden]{display:none}
#detail{position:fixed;right:0;top:0;bottom:0;width:min(560px,100%);background:var(--bg);border-left:2px solid var(--line);padding:12px 20px;overflow:auto;box-shadow:-4px 0 12px #0002;z-index:3}
#detail pre{white-space:pre-wrap;word-break:break-word;background:#f6f8fa;padding:8px;border-radius:6px}
#detail li{word-break:break-all}
#detail-close{position:absolute;right:12px;top:8px;font-size:22px;border:0;background:none;cursor:pointer}
pre{white-space:pre-wrap}
`

const SCRIPT = `(function(){
var details=JSON.parse(document.getElementById('details').textContent);
var failedOnly=document.getElementById('failed-only'),file=document.getElementById('file-filter'),crit=document.getElementById('criterion-filter');
function apply(){
  var text=crit.value.trim().toLowerCase();
  document.querySelectorAll('section.file').forEach(function(s){
    var shown=!file.value||s.getAttribute('data-file')===file.value;
    var rows=0;
    s.querySelectorAll('tbody tr').forEach(function(r){
      var hide=failedOnly.checked&&r.getAttribute('data-failed')!=='true';
      r.hidden=hide;if(!hide)rows++;
    });
    s.querySelectorAll('[data-crit]').forEach(function(c){
      if(text&&c.getAttribute('data-crit').indexOf(text)<0)c.setAttribute('data-hidden','');else c.removeAttribute('data-hidden');
    });
    s.hidden=!shown||rows===0;
  });
}
failedOnly.addEventListener('change',apply);file.addEventListener('change',apply);crit.addEventListener('input',apply);
var panel=document.getElementById('detail');
document.getElementById('matrices').addEventListener('click',function(e){
  var b=e.target.closest('button.cell');if(!b)return;
  var d=details[Number(b.getAttribute('data-d'))];if(!d)return;
  document.getElementById('detail-title').textContent=d.what;
  document.getElementById('detail-test').textContent=d.file+' \\u203a '+d.test;
  document.getElementById('detail-text').textContent=d.text;
  document.getElementById('detail-output').textContent=d.output||'(empty)';
  var ul=document.getElementById('detail-cassettes');ul.textContent='';
  (d.cassettes.length?d.cassettes:['(none: no judge call, or cassettes off)']).forEach(function(p){var li=document.createElement('li');li.textContent=p;ul.appendChild(li);});
  panel.hidden=false;
});
document.getElementById('detail-close').addEventListener('click',function(){panel.hidden=true;});
document.addEventListener('keydown',function(e){if(e.key==='Escape')panel.hidden=true;});
})();`
