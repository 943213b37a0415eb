// Pure: `rubricate history` as text (ARCHITECTURE.md §9.3): the runs, then per eval and per
// criterion the pass rate and mean over them, a bar per run, and where each moved.
import { percent } from '../messages'
import type { HistoryMove, HistoryTrends } from './history-trends'

const BARS = '▁▂▃▄▅▆▇█'

/** A value from 0 to 1 per run as one character each, `·` where the run did not measure it. @internal */
export function sparkline(values: readonly (number | undefined)[]): string {
  return values
    .map((v) =>
      v === undefined
        ? '·'
        : BARS[Math.min(BARS.length - 1, Math.max(0, Math.round(v * (BARS.length - 1))))],
    )
    .join('')
}

/** The lines of `rubricate history`. @internal */
export function historyText(trends: HistoryTrends, path: string, total: number): string {
  const { runs } = trends
  if (runs.length === 0) return `Run history ${path}: no run yet.`
  const shown = runs.length === total ? `${total}` : `the last ${runs.length} of ${total}`
  const lines = [`Run history ${path}: ${shown} run${total === 1 ? '' : 's'}.`, '', 'Runs']
  for (const run of runs) {
    const where = [run.commit?.slice(0, 7), run.branch].filter(Boolean).join(' ')
    const a = run.assertions
    lines.push(
      `  #${run.id}  ${run.finishedAt.slice(0, 16).replace('T', ' ')}  ${where || '(no git)'}  judge ${run.judgeModels.join(', ') || '(none)'}  ${a.passed} of ${a.total} assertions passed  ${run.tokens.input + run.tokens.output} tokens  $${run.costUsd.toFixed(4)}${run.complete ? '' : '  (partial run)'}`,
    )
  }
  const order = runs.map((run) => run.id)
  const byRun = <T>(points: readonly (T & { run: number })[], value: (p: T) => number) => {
    const map = new Map(points.map((p) => [p.run, value(p)]))
    return sparkline(order.map((id) => map.get(id)))
  }
  if (trends.evals.length > 0) {
    lines.push('', `Evals (pass rate and means over the runs that ran them)`)
    for (const e of trends.evals) {
      const means = e.means.map((m) => `mean "${m.id}" ${m.mean.toFixed(2)}`).join(', ')
      lines.push(
        `  ${e.file} › ${e.name}  ${byRun(e.points, (p) => p.rate)}  pass rate ${percent(e.passRate)} over ${e.points.length} run${e.points.length === 1 ? '' : 's'}${means ? `, ${means}` : ''}`,
      )
      lines.push(...movedLines(e.moved))
    }
  }
  if (trends.criteria.length > 0) {
    lines.push('', 'Criteria (share of verdicts met over the runs that judged them)')
    const sorted = [...trends.criteria].sort((a, b) => b.moved.length - a.moved.length)
    for (const c of sorted) {
      const met = c.points.reduce((sum, p) => sum + p.met, 0)
      const all = c.points.reduce((sum, p) => sum + p.total, 0)
      lines.push(
        `  ${c.file} › ${c.group} › ${c.criterion} [${c.required ? 'required' : 'optional'}]  ${byRun(c.points, (p) => p.met / p.total)}  met ${percent(c.rate)} (${met} of ${all})`,
      )
      lines.push(...movedLines(c.moved))
    }
  }
  return lines.join('\n')
}

function movedLines(moves: readonly HistoryMove[]): string[] {
  return moves.map(
    (m) =>
      `      moved: ${m.what} ${percentOrScore(m.what, m.from)} → ${percentOrScore(m.what, m.to)} at run #${m.run}${m.commit ? ` (commit ${m.commit.slice(0, 7)})` : ''}`,
  )
}

function percentOrScore(what: string, value: number): string {
  return what.startsWith('mean') ? value.toFixed(2) : percent(value)
}
