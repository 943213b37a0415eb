// Pure: the changes between two runs' verdicts and scores on the report page.
import { oneLine } from './render-record'
import type { ReportDiff, VerdictState } from './report-diff'

/**
 * The verdicts and scores that changed between two runs, required flips first: a count, then a
 * table (the page's `compareWith` section, and its compare view of two stored runs).
 * @internal
 */
export function changesBody(diff: ReportDiff, h: (text: string) => string): string {
  const notRun =
    diff.notRun > 0
      ? ` ${diff.notRun} test${diff.notRun === 1 ? '' : 's'} of it did not run here and ${diff.notRun === 1 ? 'is' : 'are'} not compared.`
      : ''
  if (diff.verdicts.length === 0 && diff.scores.length === 0) {
    return `<p>No verdict or score changed.${h(notRun)}</p>`
  }
  const order = (change: ReportDiff['verdicts'][number]) =>
    change.change === 'flipped' && change.required ? 0 : change.change === 'flipped' ? 1 : 2
  const rows = [...diff.verdicts]
    .sort((a, b) => order(a) - order(b))
    .map((change) => {
      const was = change.before
        ? `<b class="${change.before}">${SYMBOL[change.before]}</b> ${h(stateName(change.before))}`
        : '—'
      const now = change.after
        ? `<b class="${change.after}">${SYMBOL[change.after]}</b> ${h(stateName(change.after))}`
        : '—'
      return `<tr data-change="${change.change}"><td>${h(change.file)} › ${h(change.test)}</td><td><span class="kind">${h(change.assertion)}</span> ${h(oneLine(change.criterion))} <span class="dim">[${change.required ? 'required' : 'optional'}]</span></td><td>${h(change.change)}</td><td>${was} → ${now}</td><td>${h(change.reasoning)}</td></tr>`
    })
  for (const score of diff.scores) {
    rows.push(
      `<tr data-change="score"><td>${h(score.file)} › ${h(score.test)}</td><td><span class="kind">scorer</span> "${h(score.scorer)}"</td><td>score</td><td>${h(String(score.before))} → ${h(String(score.after))}</td><td></td></tr>`,
    )
  }
  const flips = diff.verdicts.filter((c) => c.change === 'flipped').length
  const counts = `${flips} verdict${flips === 1 ? '' : 's'} flipped, ${diff.verdicts.length - flips} appeared or disappeared, ${diff.scores.length} score${diff.scores.length === 1 ? '' : 's'} moved.${notRun}`
  return `<p>${h(counts)}</p><div class="scroll"><table><thead><tr><th>Test</th><th>Criterion</th><th>Change</th><th>Before → now</th><th>Reasoning now</th></tr></thead><tbody>
${rows.join('\n')}
</tbody></table></div>`
}

const SYMBOL: Record<VerdictState, string> = { met: '✓', unmet: '✗', optional: '○' }

function stateName(state: VerdictState): string {
  return state === 'met' ? 'Met' : state === 'unmet' ? 'Required, unmet' : 'Optional, unmet'
}
