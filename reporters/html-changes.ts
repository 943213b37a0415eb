// Pure: the changes between two runs' verdicts and scores on the report page.

import { terminalLine } from '../src/output-safety/terminal-text'
import { STATE_LABEL, type VerdictState, verdictTag } from '../src/records/verdict-words'
import { STATE_CLASS, STATE_MARK } from './html-assertion'
import type { ReportDiff } from './report-diff'

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
      const was = change.before ? stateCell(change.before, h) : '—'
      const now = change.after ? stateCell(change.after, h) : '—'
      return `<tr data-change="${change.change}"><td>${h(change.file)} › ${h(change.test)}</td><td><span class="kind">${h(change.assertion)}</span> ${h(terminalLine(change.criterion))} <span class="dim">${verdictTag(change)}</span></td><td>${h(change.change)}</td><td>${was} → ${now}</td><td>${h(change.reasoning)}</td></tr>`
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

function stateCell(state: VerdictState, h: (text: string) => string): string {
  const label = STATE_LABEL[state]
  return `<b class="${STATE_CLASS[state]}">${STATE_MARK[state]}</b> ${h(label.charAt(0).toUpperCase() + label.slice(1))}`
}
