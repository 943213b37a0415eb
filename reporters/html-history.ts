// Pure: the run history on the report page (ARCHITECTURE.md §9.3): per eval a chart of its pass
// rate over the last runs and where it moved, the criteria that moved, a small chart per test,
// and a compare view of any two stored runs through the same diff as `compareWith`. Charts are
// inline SVG drawn here: no script, no request.

import type { StoredRun } from '../src/history/history-run'
import { type HistoryMove, type HistoryTrends, historyTrends } from '../src/history/history-trends'
import { percent } from '../src/messages'
import { verdictTag } from '../src/records/verdict-words'
import type { FileReport } from './collect-run'
import { changesBody } from './html-changes'
import { previousReportFiles } from './previous-report'
import { diffReports } from './report-diff'
import type { PageHistory } from './run-history'

type Gate = (text: string) => string

const WIDTH = 120
const HEIGHT = 26

/**
 * A chart of values from 0 to 1, one point per run (`undefined` where the run did not measure
 * it), the points where the value moved marked. Its label reads the values out.
 * @internal
 */
export function trendSvg(
  values: readonly (number | undefined)[],
  label: string,
  moved: ReadonlySet<number> = new Set(),
  states: readonly (string | undefined)[] = [],
): string {
  const step = values.length > 1 ? (WIDTH - 8) / (values.length - 1) : 0
  const x = (i: number) => (4 + i * step).toFixed(1)
  const y = (v: number) => (HEIGHT - 4 - v * (HEIGHT - 8)).toFixed(1)
  const segments: string[][] = [[]]
  values.forEach((v, i) => {
    if (v === undefined) segments.push([])
    else segments.at(-1)?.push(`${x(i)},${y(v)}`)
  })
  const lines = segments
    .filter((s) => s.length > 1)
    .map((s) => `<polyline points="${s.join(' ')}"/>`)
    .join('')
  const dots = values
    .map((v, i) =>
      v === undefined
        ? ''
        : `<circle cx="${x(i)}" cy="${y(v)}" r="${moved.has(i) ? 3.2 : 2}" class="${moved.has(i) ? 'moved' : (states[i] ?? 'point')}"/>`,
    )
    .join('')
  return `<svg class="trend" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="${label}"><title>${label}</title><line x1="0" y1="${y(0)}" x2="${WIDTH}" y2="${y(0)}" class="axis"/>${lines}${dots}</svg>`
}

/** The page's history: its section, and each test's chart by `file\0test`. @internal */
export function pageHistory(
  history: PageHistory,
  h: Gate,
): { section: string; testCharts: Map<string, string> } {
  const trends = historyTrends(history.runs)
  const order = history.runs.map((run) => run.id)
  const index = new Map(order.map((id, i) => [id, i]))
  const runName = (id: number) => {
    const run = history.runs.find((r) => r.id === id)
    return `#${id}${run?.commit ? ` ${run.commit.slice(0, 7)}` : ''}`
  }
  const testCharts = new Map<string, string>()
  for (const t of trends.tests) {
    const values: (number | undefined)[] = order.map(() => undefined)
    const states: (string | undefined)[] = order.map(() => undefined)
    for (const p of t.points) {
      const i = index.get(p.run) as number
      values[i] = p.score ?? (p.status === 'passed' ? 1 : 0)
      states[i] = p.status
    }
    const label = `${t.test}, over the last ${order.length} runs: ${t.points.map((p) => `${runName(p.run)} ${p.status}${p.score === undefined ? '' : ` ${p.score.toFixed(2)}`}`).join('; ')}`
    testCharts.set(`${t.file}\0${t.test}`, trendSvg(values, h(label), new Set(), states))
  }
  return { section: historySection(history, trends, order, index, runName, h), testCharts }
}

function historySection(
  history: PageHistory,
  trends: HistoryTrends,
  order: number[],
  index: Map<number, number>,
  runName: (id: number) => string,
  h: Gate,
): string {
  const movedAt = (moves: readonly HistoryMove[]) =>
    new Set(moves.map((m) => index.get(m.run) as number))
  const moveText = (m: HistoryMove) =>
    `${m.what} ${m.what.startsWith('mean') ? m.from.toFixed(2) : percent(m.from)} → ${m.what.startsWith('mean') ? m.to.toFixed(2) : percent(m.to)} at run ${runName(m.run)}`
  const evalRows = trends.evals.map((e) => {
    const values = order.map((id) => e.points.find((p) => p.run === id)?.rate)
    const label = `pass rate of ${e.name} per run: ${e.points.map((p) => `${runName(p.run)} ${percent(p.rate)}`).join(', ')}`
    const moved = e.moved.map((m) => `<li>${h(moveText(m))}</li>`).join('')
    const means = e.means.map((m) => `mean "${m.id}" ${m.mean.toFixed(2)}`).join(', ')
    return `<tr class="eval-trend" data-eval="${h(e.name)}"><td>${h(e.file)} › ${h(e.name)}</td><td>${trendSvg(values, h(label), movedAt(e.moved))}</td><td>${h(`${percent(e.passRate)} over ${e.points.length} run${e.points.length === 1 ? '' : 's'}${means ? `; ${means}` : ''}`)}</td><td>${moved ? `<ul class="moves">${moved}</ul>` : '<span class="dim">steady</span>'}</td></tr>`
  })
  const criterionRows = trends.criteria
    .filter((c) => c.moved.length > 0)
    .map((c) => {
      const values = order.map((id) => {
        const p = c.points.find((point) => point.run === id)
        return p ? p.met / p.total : undefined
      })
      const label = `${c.criterion}, share met per run: ${c.points.map((p) => `${runName(p.run)} ${p.met} of ${p.total}`).join(', ')}`
      return `<tr class="criterion-trend"><td>${h(c.file)} › ${h(c.group)}</td><td>${h(c.criterion)} <span class="dim">${verdictTag(c)}</span></td><td>${trendSvg(values, h(label), movedAt(c.moved))}</td><td><ul class="moves">${c.moved.map((m) => `<li>${h(moveText(m))}</li>`).join('')}</ul></td></tr>`
    })
  const runsList = history.runs
    .map(
      (run) =>
        `<li>${h(`${runName(run.id)} · ${run.finishedAt.slice(0, 16).replace('T', ' ')}${run.branch ? ` · ${run.branch}` : ''} · judge ${run.judgeModels.join(', ') || '(none)'} · ${run.assertions.passed} of ${run.assertions.total} assertions passed${run.id === history.current ? ' · this run' : ''}`)}</li>`,
    )
    .join('')
  const evals =
    evalRows.length > 0
      ? `<div class="scroll"><table><thead><tr><th>Eval</th><th>Pass rate per run</th><th>Over these runs</th><th>Moved</th></tr></thead><tbody>${evalRows.join('')}</tbody></table></div>`
      : ''
  const criteria =
    criterionRows.length > 0
      ? `<h3>Criteria that moved</h3><div class="scroll"><table><thead><tr><th>Eval or test</th><th>Criterion</th><th>Met per run</th><th>Moved</th></tr></thead><tbody>${criterionRows.join('')}</tbody></table></div>`
      : '<p class="dim">No criterion moved over these runs.</p>'
  return `<section id="history"><h2>History: the last ${order.length} run${order.length === 1 ? '' : 's'}</h2><details class="runs"><summary>Runs</summary><ol class="runs">${runsList}</ol></details>${evals}${criteria}${compareView(history, runName, h)}</section>`
}

// Any two stored runs, compared by the diff `compareWith` uses: a section per pair, the one of
// the run before this against this run shown, the others chosen with the two lists (script).
function compareView(history: PageHistory, runName: (id: number) => string, h: Gate): string {
  const runs = history.runs
  if (runs.length < 2) return ''
  const files = new Map<number, FileReport[]>()
  for (const run of runs) {
    const checked = previousReportFiles({ v: 1, files: history.files.get(run.id) })
    if (typeof checked !== 'string') files.set(run.id, checked)
  }
  const options = (selected: number) =>
    runs
      .map(
        (run) =>
          `<option value="${run.id}"${run.id === selected ? ' selected' : ''}>${h(`${runName(run.id)} · ${run.finishedAt.slice(0, 16).replace('T', ' ')}`)}</option>`,
      )
      .join('')
  const last = runs.at(-1) as StoredRun
  const before = runs.at(-2) as StoredRun
  const sections: string[] = []
  for (const a of runs) {
    for (const b of runs) {
      if (a.id >= b.id) continue
      const fa = files.get(a.id)
      const fb = files.get(b.id)
      const shown = a.id === before.id && b.id === last.id
      const body =
        fa && fb
          ? changesBody(diffReports(fa, fb), h)
          : '<p class="dim">The records of one of these runs are not in the history.</p>'
      sections.push(
        `<div class="compare" data-a="${a.id}" data-b="${b.id}"${shown ? '' : ' hidden'}><p>${h(`Run ${runName(a.id)} → run ${runName(b.id)}`)}</p>${body}</div>`,
      )
    }
  }
  return `<h3>Compare two runs</h3><form id="compare-runs"><label>From <select id="compare-a">${options(before.id)}</select></label> <label>to <select id="compare-b">${options(last.id)}</select></label> <span class="dim" id="compare-note"></span></form>${sections.join('')}`
}
