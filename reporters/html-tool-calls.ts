// Pure: a tool-call assertion on the report page (`toHaveCalledTool`, `toHaveToolCalls`): the
// calls asked for beside the calls the output holds. Every name and argument is untrusted text
// and passes the page's gate.
import type { ToolCallAssertionRecord } from '../src/records/records'
import type { RowContext } from './html-assertion'

/** One tool-call assertion as one `<li>` of a test's assertions. @internal */
export function toolCallItem(record: ToolCallAssertionRecord, h: RowContext['h']): string {
  const passed = record.status === 'pass'
  const mark = passed ? '<b class="met">✓</b>' : '<b class="unmet">✗</b>'
  const name = `${record.negated ? '.not.' : ''}${record.matcher}`
  const head = `<div class="a-head">${mark} <span class="kind">tool calls</span> ${h(name)}</div>`
  const call = (item: { name: string; args?: string | undefined }) =>
    `<li><code>${h(item.name)}</code>${item.args === undefined ? ' <span class="dim">any arguments</span>' : ` <code>${h(item.args)}</code>`}</li>`
  const list = (items: readonly { name: string; args?: string | undefined }[]) =>
    items.length === 0 ? '<p class="dim">(none)</p>' : `<ol>${items.map(call).join('')}</ol>`
  const expected = `<div><span class="dim">${record.negated ? 'Not expected' : 'Expected'}</span>${list(record.expected)}</div>`
  const actual = `<div><span class="dim">Called (${record.actual.length})</span>${list(record.actual)}</div>`
  return `<li class="assertion tool-calls" data-status="${passed ? 'pass' : 'fail'}">${head}${expected}${actual}</li>`
}
