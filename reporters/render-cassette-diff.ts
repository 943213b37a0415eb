// Pure: the verdicts a re-record changed (`rubricate cassettes diff --against HEAD`), as Markdown
// for the CI job summary, after the run's own tables.
import type { CassetteDiff } from '../src/cassettes/maintenance/cassette-diff'
import { messages } from '../src/messages'
import { markdownCell } from '../src/output-safety/markdown-text'
import { verdictTag } from '../src/records/verdict-words'

/** The Markdown of a cassette folder's diff against its committed state; empty when nothing changed. @internal */
export function renderCassetteDiffMarkdown(diff: CassetteDiff, dir: string, ref: string): string {
  if (diff.tests.length === 0) return ''
  const rows = [
    '| Test | Change | Criterion or score | Before | After | Judge |',
    '| --- | --- | --- | --- | --- | --- |',
  ]
  const met = (value: boolean | undefined) =>
    value === undefined ? '–' : value ? 'met' : 'not met'
  const num = (value: number | undefined) => (value === undefined ? '–' : String(value))
  for (const test of diff.tests) {
    for (const c of test.changes) {
      const judge =
        c.models[0] && c.models[1] && c.models[0] !== c.models[1]
          ? `${c.models[0]} → ${c.models[1]}`
          : (c.models[1] ?? c.models[0] ?? '')
      const cells =
        c.kind === 'verdict'
          ? [
              c.change,
              `${c.required ? `**${verdictTag(c)}**` : verdictTag(c)} ${c.criterion}`,
              met(c.before),
              met(c.after),
            ]
          : [`score ${c.change}`, c.label, num(c.before), num(c.after)]
      rows.push(`| ${[test.test, ...cells, judge].map(cell).join(' | ')} |`)
    }
  }
  return `${[`### ${messages.jobSummaryCassetteDiff(dir, ref, diff.requiredFlips)}`, '', ...rows].join('\n')}\n\n`
}

// The one Markdown gate: a reasoning or a test name can hold a lone CR, a pipe or raw HTML.
const cell = markdownCell
