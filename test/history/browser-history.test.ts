// In a real browser (Chromium through playwright-core): the report page of the tenth of ten runs,
// the judge model changed at the sixth, shows each eval's and test's trend, the criterion that
// moved and where, and compares any two stored runs. Then two real Vitest runs, at once, both
// land in one history. Skipped, saying why, where Chromium is absent.
import { existsSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { type Browser, chromium, type Page } from 'playwright-core'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { renderHtml } from '../../reporters/render-html'
import { summariseRun } from '../../reporters/run-summary'
import { rubricateCommand } from '../../src/cli/rubricate-command'
import { openHistory } from '../../src/history/history-store'
import { copyFixture, removeCopy, runVitest } from '../support/run-vitest'
import { tempDir } from '../support/temp-dir'
import { addSupportRuns, supportReport } from './history-reports'
import { EVAL_NAME } from './history-runs'

const CHROMIUM = '/usr/bin/chromium'
const hasChromium = existsSync(CHROMIUM)
const SKIP = `Chromium not found at ${CHROMIUM}: install it (apt-get install chromium) to run the browser tests.`
const repo = resolve(import.meta.dirname, '../..')

let browser: Browser | undefined
const offLoopback: string[] = []

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
  expect(offLoopback).toEqual([])
})

/** A tab on the page, refusing every request that is not the file itself. */
async function open(file: string): Promise<{ tab: Page; complaints: string[] }> {
  const context = await (browser as Browser).newContext({ acceptDownloads: true })
  await context.route('**/*', (route) => {
    const url = route.request().url()
    if (url.startsWith('file:')) return route.continue()
    offLoopback.push(url)
    return route.abort()
  })
  const tab = await context.newPage()
  const complaints: string[] = []
  tab.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') complaints.push(m.text())
  })
  tab.on('pageerror', (error) => complaints.push(error.message))
  await tab.goto(pathToFileURL(file).href)
  return { tab, complaints }
}

test('the page of the tenth run shows the eval trend, the criterion that moved at the sixth run and its commit, a trend per test, and compares two stored runs', async (ctx) => {
  if (!hasChromium || !browser) return ctx.skip(SKIP)
  const dir = tempDir('rubricate-history-page-')
  const store = openHistory(join(dir, 'history.sqlite'), repo)
  const history = addSupportRuns(store)
  store.close()
  const report = supportReport(10)
  const file = join(dir, 'report.html')
  await writeFile(file, renderHtml(report, summariseRun(report, {}), { history }))
  const { tab, complaints } = await open(file)
  try {
    const section = tab.locator('#history')
    expect(await section.locator('h2').textContent()).toBe('History: the last 10 runs')
    // The eval: ten points, the one where it moved marked, and the move in words.
    const evalRow = section.locator('tr.eval-trend', { hasText: EVAL_NAME })
    expect(await evalRow.locator('svg.trend circle').count()).toBe(10)
    expect(await evalRow.locator('svg.trend circle.moved').count()).toBe(1)
    expect(await evalRow.locator('ul.moves li').allTextContents()).toEqual([
      'pass rate 100% → 50% at run #6 c0ffe06',
      'mean "rubric" 1.00 → 0.75 at run #6 c0ffe06',
    ])
    expect(await evalRow.locator('svg.trend').getAttribute('aria-label')).toContain(
      '#5 c0ffe05 100%, #6 c0ffe06 50%',
    )
    // Only the criterion that moved is listed, with where.
    const moved = section.locator('tr.criterion-trend')
    expect(await moved.count()).toBe(1)
    expect(await moved.locator('td').nth(1).textContent()).toBe('Mentions refund [required]')
    expect(await moved.locator('ul.moves li').textContent()).toBe(
      'met 100% → 50% at run #6 c0ffe06',
    )
    // Each test row has its own chart of ten runs; the first row's falls at the sixth.
    const rows = tab.locator('tr.test')
    expect(await rows.count()).toBe(4)
    for (let i = 0; i < 4; i++) {
      expect(await rows.nth(i).locator('svg.trend circle').count()).toBe(10)
    }
    expect(await rows.first().locator('svg.trend circle.tolerated').count()).toBe(5)
    expect(await rows.nth(3).locator('svg.trend circle.passed').count()).toBe(10)
    // Compare: the run before against this one first, nothing changed between them.
    const shown = tab.locator('div.compare:visible')
    expect(await shown.count()).toBe(1)
    expect(await shown.locator('p').first().textContent()).toBe('Run #9 c0ffe09 → run #10 c0ffe10')
    expect(await shown.textContent()).toContain('No verdict or score changed.')
    // Any two: run 5 against run 6 shows the two flips.
    await tab.selectOption('#compare-a', '5')
    await tab.selectOption('#compare-b', '6')
    const pair = tab.locator('div.compare:visible')
    expect(await pair.count()).toBe(1)
    expect(await pair.locator('p').first().textContent()).toBe('Run #5 c0ffe05 → run #6 c0ffe06')
    expect(await pair.locator('tr[data-change="flipped"]').count()).toBe(2)
    expect(await pair.locator('tr[data-change="flipped"]').first().textContent()).toContain(
      'Mentions refund',
    )
    // Picked the other way round, the same pair, said to read from the earlier run.
    await tab.selectOption('#compare-a', '6')
    await tab.selectOption('#compare-b', '5')
    expect(await tab.locator('div.compare:visible p').first().textContent()).toBe(
      'Run #5 c0ffe05 → run #6 c0ffe06',
    )
    expect(await tab.locator('#compare-note').textContent()).toBe(
      'Shown from the earlier run to the later.',
    )
    expect(complaints).toEqual([])
  } finally {
    await tab.context().close()
  }
  // The same history, read by the command: the same move, at the same commit.
  const out: string[] = []
  await rubricateCommand(['history', '--history', join(dir, 'history.sqlite')], {
    cwd: dir,
    out: (t) => out.push(t),
    err: (t) => out.push(t),
  })
  expect(out.join('\n')).toContain(
    `${EVAL_NAME} › Mentions refund [required]  █████▅▅▅▅▅  met 75% (30 of 40)\n      moved: met 100% → 50% at run #6 (commit c0ffe06)`,
  )
}, 60_000)

test('two real Vitest runs finishing at once both land in one history, and each page draws it', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'rubricate-history-e2e-'))
  const history = join(dir, 'history.sqlite')
  const copies = await Promise.all([copyFixture('report-page'), copyFixture('report-page')])
  try {
    const runs = await Promise.all(
      copies.map((copy, i) =>
        runVitest(copy, [`--outputFile.rubricate-html=${join(dir, `report-${i}.html`)}`], {
          env: { RUBRICATE_HISTORY: history },
        }),
      ),
    )
    for (const run of runs) expect(run.stderr).not.toContain('run history')
    const store = openHistory(history, repo)
    const stored = store.runs()
    store.close()
    expect(stored).toHaveLength(2)
    for (const run of stored) {
      expect(run.tests.length).toBe(7)
      expect(run.verdicts.some((v) => v.criterion === 'Mentions refund')).toBe(true)
      expect(run.evals.length).toBeGreaterThan(0)
    }
    const { readFile } = await import('node:fs/promises')
    const pages = await Promise.all(
      [0, 1].map((i) => readFile(join(dir, `report-${i}.html`), 'utf8')),
    )
    // The run that finished second saw both runs.
    expect(pages.some((page) => page.includes('History: the last 2 runs'))).toBe(true)
  } finally {
    await Promise.all(copies.map(removeCopy))
    await rm(dir, { recursive: true, force: true })
  }
}, 120_000)
