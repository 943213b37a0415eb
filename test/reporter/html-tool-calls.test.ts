// The report page shows tool-call assertions: the calls asked for beside the calls made, each
// name and argument through the page's gate, and a failed one fails its row.
import { expect, test } from 'vitest'
import { collectRun, type FileTaskLike } from '../../reporters/collect-run'
import { renderHtml } from '../../reporters/render-html'
import { renderMarkdown } from '../../reporters/render-markdown'
import { summariseRun } from '../../reporters/run-summary'
import type { ToolCallAssertionRecord } from '../../src/records/records'

const calledWeather: ToolCallAssertionRecord = {
  matcher: 'toHaveCalledTool',
  status: 'fail',
  negated: false,
  expected: [{ name: 'weather', args: '{"city": "Oslo"}' }],
  actual: [{ name: 'weather', args: '{"city": "Bergen</li><script>x</script>"}' }],
}

function page(records: ToolCallAssertionRecord[]): {
  html: string
  markdown: string
  assertions: number
} {
  const file: FileTaskLike = {
    type: 'suite',
    name: 'weather.test.ts',
    filepath: '/repo/weather.test.ts',
    tasks: [
      {
        type: 'test',
        name: 'asks for the city',
        mode: 'run',
        result: { state: 'fail' },
        meta: { rubricateToolCalls: records },
      },
    ],
  }
  const report = collectRun([file], '/repo')
  const summary = summariseRun(report, {})
  return {
    html: renderHtml(report, summary, { root: '/repo', finishedAt: new Date(0) }),
    markdown: renderMarkdown(report, summary),
    assertions: summary.assertions.total,
  }
}

test('a test with only tool-call assertions has its row, with the expected and the actual calls', () => {
  const { html, markdown, assertions } = page([
    calledWeather,
    {
      ...calledWeather,
      matcher: 'toHaveToolCalls',
      status: 'pass',
      negated: true,
      expected: [{ name: 'search' }],
    },
  ])
  expect(html).toContain(
    '<li class="assertion tool-calls" data-status="fail"><div class="a-head"><b class="unmet">✗</b> <span class="kind">tool calls</span> toHaveCalledTool</div><div><span class="dim">Expected</span><ol><li><code>weather</code> <code>{&quot;city&quot;: &quot;Oslo&quot;}</code></li></ol></div><div><span class="dim">Called (1)</span><ol><li><code>weather</code> <code>{&quot;city&quot;: &quot;Bergen&lt;/li&gt;&lt;script&gt;x&lt;/script&gt;&quot;}</code></li></ol></div></li>',
  )
  expect(html).toContain(
    '<b class="met">✓</b> <span class="kind">tool calls</span> .not.toHaveToolCalls</div><div><span class="dim">Not expected</span><ol><li><code>search</code> <span class="dim">any arguments</span></li></ol>',
  )
  expect(html).toContain('data-status="failed"')
  expect(html).not.toContain('<script>x')
  // Not a judged assertion: the summary counts none, and the job summary has no table for it.
  expect(assertions).toBe(0)
  expect(markdown).toBe('')
})
