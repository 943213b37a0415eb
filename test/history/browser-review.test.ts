// In a real browser (Chromium through playwright-core): a reviewer marks verdicts on the report
// page, exports them, and `rubricate calibrate` reads the file as it is and measures a judge (a
// keyword judge on loopback, through the real openai SDK) against those labels. Skipped, saying
// why, where Chromium is absent.
import { existsSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { type Browser, chromium } from 'playwright-core'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { renderHtml } from '../../reporters/render-html'
import { summariseRun } from '../../reporters/run-summary'
import { rubricateCommand } from '../../src/cli/rubricate-command'
import { startFakeOpenAI } from '../../src/testing'
import { useCassetteFolder } from '../cassettes/support'
import { call, record, verdict } from '../reporter/records'
import { keywordJudge } from '../support/keyword-judge'
import { tempDir } from '../support/temp-dir'
import { supportReport } from './history-reports'

useCassetteFolder()
const CHROMIUM = '/usr/bin/chromium'
const hasChromium = existsSync(CHROMIUM)
const SKIP = `Chromium not found at ${CHROMIUM}: install it (apt-get install chromium) to run the browser tests.`

let browser: Browser | undefined
beforeAll(async () => {
  if (!hasChromium) return
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
    ],
  })
}, 60_000)
afterAll(async () => {
  await browser?.close()
})

test('marks made on the report page export a labelled set that rubricate calibrate reads as is and reports κ for', async (ctx) => {
  if (!hasChromium || !browser) return ctx.skip(SKIP)
  const dir = tempDir('rubricate-review-')
  const report = supportReport(10)
  const page = join(dir, 'report.html')
  await writeFile(page, renderHtml(report, summariseRun(report, {})))
  const context = await browser.newContext({ acceptDownloads: true })
  const requests: string[] = []
  await context.route('**/*', (route) => {
    const url = route.request().url()
    if (url.startsWith('file:') || url.startsWith('blob:')) return route.continue()
    requests.push(url)
    return route.abort()
  })
  const tab = await context.newPage()
  const complaints: string[] = []
  tab.on('pageerror', (error) => complaints.push(error.message))
  tab.on('console', (m) => {
    if (m.type() === 'error') complaints.push(m.text())
  })
  await tab.goto(pathToFileURL(page).href)
  const exportButton = tab.locator('#export-labels')
  expect(await exportButton.isDisabled()).toBe(true)
  const mark = async (row: number, criterion: string, value: string) => {
    const control = tab
      .locator('tr.test')
      .nth(row)
      .locator('li.verdict', { hasText: criterion })
      .locator('select.review')
    await control.selectOption(value)
  }
  // Row 1: the judge found "Mentions refund" unmet; the reviewer says it is met.
  await mark(0, 'Mentions refund', 'wrong')
  await mark(1, 'Mentions refund', 'unmet')
  await mark(2, 'Mentions refund', 'right')
  await mark(3, 'Is polite', 'right')
  await mark(3, 'Mentions refund', 'unmet')
  await tab.fill('#reviewer', 'Ada')
  expect(await tab.locator('#review-count').textContent()).toBe('5 marked')
  const [download] = await Promise.all([tab.waitForEvent('download'), exportButton.click()])
  expect(download.suggestedFilename()).toBe('labels.jsonl')
  const labels = join(dir, 'labels.jsonl')
  await download.saveAs(labels)
  await context.close()
  expect(complaints).toEqual([])
  expect(requests).toEqual([])

  const rows = (await readFile(labels, 'utf8'))
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line))
  expect(rows[0]).toEqual({
    output: 'Answer 1: we will look into it.',
    input: 'Customer: refund asked',
    criterion: 'Mentions refund',
    label: true,
    required: true,
    note: 'Reviewed on the report page (evals/support.eval.ts › support answers > refund asked): the judge found it unmet, the reviewer disagreed.',
    labeler: 'Ada',
  })
  // In the page's order, whatever the order of the marks.
  expect(rows.map((r) => [r.criterion, r.label])).toEqual([
    ['Mentions refund', true],
    ['Mentions refund', false],
    ['Mentions refund', true],
    ['Mentions refund', false],
    ['Is polite', true],
  ])

  const server = await startFakeOpenAI({ reply: keywordJudge })
  process.env.OPENAI_BASE_URL = server.baseURL
  process.env.OPENAI_API_KEY = 'sk-test-key'
  try {
    const out: string[] = []
    const err: string[] = []
    const code = await rubricateCommand(
      ['calibrate', 'labels.jsonl', '--judge', 'gpt-judge', '--dir', 'cassettes', '--json'],
      { cwd: dir, out: (t) => out.push(t), err: (t) => err.push(t) },
    )
    expect(err).toEqual([])
    expect(code).toBe(0)
    const { calibration } = JSON.parse(out.join('\n'))
    // Labels T F T F T against the keyword judge's F F T T F: 2 of 5 agree, κ = (0.4 - 0.48) / 0.52.
    expect(calibration.overall.n).toBe(5)
    expect(calibration.overall.accuracy.value).toBeCloseTo(0.4, 5)
    expect(calibration.overall.kappa).toBeCloseTo(-0.08 / 0.52, 5)
    expect(calibration.source).toBe('labels.jsonl')
  } finally {
    delete process.env.OPENAI_BASE_URL
    delete process.env.OPENAI_API_KEY
    await server.close()
  }
}, 60_000)

test('an output that tries to close the data block stays data: one page script, and the export gives it back as written', async () => {
  const hostile = 'Done.</script><script>document.title="owned"</script> & <!-- \u2028'
  const report = {
    files: [
      {
        file: 'a.test.ts',
        tests: [
          {
            name: 't',
            fullName: 't',
            state: 'pass',
            records: [
              record({
                output: hostile,
                outputPreview: hostile,
                verdicts: [verdict('Says done', true)],
                judgeCalls: [call('replayed')],
              }),
            ],
          },
        ],
      },
    ],
    skippedTests: 0,
  }
  const html = renderHtml(report, summariseRun(report, {}))
  expect(html.match(/<script/g)).toHaveLength(2)
  expect(html.match(/<\/script>/g)).toHaveLength(2)
  const data = /<script type="application\/json" id="review-data">([^<]*)<\/script>/.exec(html)?.[1]
  const parsed = JSON.parse(data ?? '')
  expect(parsed.texts[parsed.items[0].o]).toBe(hostile)
})
