// In a real browser: Chromium from the Debian packages, started by the test through playwright-core,
// opens the rubric report page of a fixture run and checks what a person sees. Screenshots are
// saved under test/reporter/.artifacts/ (gitignored). Skipped, saying why, where Chromium is absent.
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { extname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { type Browser, type BrowserContext, chromium } from 'playwright-core'
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { RunReport } from '../../reporters/collect-run'
import type { RubricateJsonReport } from '../../reporters/json-report'
import { renderHtml } from '../../reporters/render-html'
import { summariseRun } from '../../reporters/run-summary'
import { runVitest, vitestMajor } from '../support/run-vitest'
import { call, record, verdict } from './records'

const CHROMIUM = '/usr/bin/chromium'
const hasChromium = existsSync(CHROMIUM)
const SKIP = `Chromium not found at ${CHROMIUM}: install it (apt-get install chromium) to run the browser tests.`
const artifacts = join(import.meta.dirname, '.artifacts')

let browser: Browser | undefined
let profile: string | undefined
let context: BrowserContext | undefined
const offLoopback: string[] = []

beforeAll(async () => {
  if (!hasChromium) return
  await mkdir(artifacts, { recursive: true })
  profile = await mkdtemp(join(tmpdir(), 'rubricate-chromium-'))
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1280, height: 800 },
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  })
  browser = context.browser() ?? undefined
  // The page must need no network: any request that is not a local file is refused and noted.
  await context.route('**/*', (route) => {
    const url = route.request().url()
    if (url.startsWith('file:') || url.startsWith('data:')) return route.continue()
    offLoopback.push(url)
    return route.abort()
  })
}, 60_000)

afterAll(async () => {
  await context?.close()
  await browser?.close()
  if (profile) await rm(profile, { recursive: true, force: true })
})

test('the report page of a fixture run shows the matrix, hides passed tests, and opens a reasoning', async (ctx) => {
  if (!hasChromium || !context) return ctx.skip(SKIP)
  const dir = await mkdtemp(join(tmpdir(), 'rubricate-html-'))
  const page = join(dir, 'report.html')
  const run = await runVitest('reporter-matchers', [`--outputFile.rubricate-html=${page}`], {
    env: { RUBRICATE_PRICES: undefined },
  })
  expect(run.exitCode, run.stdout + run.stderr).toBe(1)
  const tab = await context.newPage()
  await tab.goto(pathToFileURL(page).href)
  const cells = tab.locator('td:not(.head) button.cell')
  expect(await cells.count()).toBeGreaterThan(3)
  expect(await tab.locator('button.cell.unmet').count()).toBeGreaterThan(0)
  expect(await tab.locator('button.cell.met').count()).toBeGreaterThan(0)
  await tab.screenshot({ path: join(artifacts, 'report-page.png'), fullPage: true })

  const rows = tab.locator('tbody tr')
  const all = await rows.count()
  await tab.getByLabel('Failed only').check()
  const visible = tab.locator('tbody tr:visible')
  const failed = await visible.count()
  expect(failed).toBeGreaterThan(0)
  expect(failed).toBeLessThan(all)
  // Every row left shows a failure: an unmet required criterion or a failed assertion.
  for (const row of await visible.all()) {
    expect(await row.locator('button.cell.unmet, button.cell.error').count()).toBeGreaterThan(0)
  }
  await tab.getByLabel('Failed only').uncheck()
  expect(await visible.count()).toBe(all)

  await tab.locator('td:not(.head) button.cell.unmet').first().click()
  const panel = tab.locator('#detail')
  await expect.poll(() => panel.isVisible()).toBe(true)
  expect(await tab.locator('#detail-text').textContent()).toMatch(/Required, unmet[\s\S]+\S/)
  expect(await tab.locator('#detail-output').textContent()).not.toBe('')
  await tab.screenshot({ path: join(artifacts, 'report-page-detail.png') })
  await tab.keyboard.press('Escape')
  await expect.poll(() => panel.isVisible()).toBe(false)

  // The criterion filter keeps only the columns whose text matches.
  const columns = tab.locator('th.crit:visible')
  const before = await columns.count()
  const first = (await tab.locator('th.crit').first().getAttribute('data-crit')) ?? ''
  await tab.getByLabel('Criterion').fill(first.slice(0, 12))
  expect(await columns.count()).toBeLessThanOrEqual(before)
  expect(await columns.count()).toBeGreaterThan(0)
  await tab.close()
  expect(offLoopback).toEqual([])
  await rm(dir, { recursive: true, force: true })
}, 120_000)

test('with 1,000 assertions the page paints quickly; its size and first paint are saved', async (ctx) => {
  if (!hasChromium || !context) return ctx.skip(SKIP)
  const tests = Array.from({ length: 1000 }, (_, i) => ({
    name: `case ${i}`,
    fullName: `cases > case ${i}`,
    state: i % 10 === 0 ? 'fail' : 'pass',
    records: [
      record({
        status: i % 10 === 0 ? 'fail' : 'pass',
        outputPreview: 'An answer of two hundred characters. '.repeat(6).slice(0, 200),
        verdicts: Array.from({ length: 4 }, (_, c) =>
          verdict(`Criterion ${c + 1} of the shared rubric`, !(i % 10 === 0 && c === 1), {
            reasoning: 'A sentence of reasoning that the judge gave for this criterion.',
          }),
        ),
        judgeCalls: [call('replayed')],
      }),
    ],
  }))
  const report: RunReport = { skippedTests: 0, files: [{ file: 'many.test.ts', tests }] }
  const html = renderHtml(report, summariseRun(report, {}))
  const dir = await mkdtemp(join(tmpdir(), 'rubricate-html-'))
  const file = join(dir, 'report.html')
  await writeFile(file, html)
  const tab = await context.newPage()
  await tab.goto(pathToFileURL(file).href, { waitUntil: 'load' })
  // The paint entry may come after 'load' (headless Chromium paints on its next frame, later
  // on a busy machine): waited for, up to 10 s, rather than read at once.
  const firstPaint = await tab.evaluate(
    () =>
      new Promise<number>((resolve) => {
        const paint = () =>
          performance.getEntriesByName('first-contentful-paint')[0]?.startTime ??
          performance.getEntriesByType('paint')[0]?.startTime
        const now = paint()
        if (now !== undefined) return resolve(now)
        new PerformanceObserver((list, observer) => {
          const entry = list.getEntries()[0]
          if (!entry) return
          observer.disconnect()
          resolve(entry.startTime)
        }).observe({ type: 'paint', buffered: true })
        setTimeout(() => resolve(paint() ?? -1), 10_000)
      }),
  )
  expect(await tab.locator('tbody tr').count()).toBe(1000)
  await tab.getByLabel('Failed only').check()
  expect(await tab.locator('tbody tr:visible').count()).toBe(100)
  const figures = {
    assertions: 1000,
    bytes: Buffer.byteLength(html),
    firstContentfulPaintMs: firstPaint,
  }
  await writeFile(join(artifacts, 'report-page-1000.json'), `${JSON.stringify(figures, null, 2)}\n`)
  ctx.annotate(`1,000 assertions: ${figures.bytes} bytes, first paint ${Math.round(firstPaint)} ms`)
  expect(firstPaint).toBeGreaterThan(0)
  expect(firstPaint).toBeLessThan(3000)
  await tab.close()
  await rm(dir, { recursive: true, force: true })
  expect(JSON.parse(await readFile(join(artifacts, 'report-page-1000.json'), 'utf8'))).toEqual(
    figures,
  )
}, 120_000)

test('against a previous report, the page lists the changed verdicts and marks their cells', async (ctx) => {
  if (!hasChromium || !context) return ctx.skip(SKIP)
  const dir = await mkdtemp(join(tmpdir(), 'rubricate-html-changes-'))
  const previous = join(dir, 'previous.json')
  const page = join(dir, 'report.html')
  const env = { RUBRICATE_PRICES: undefined }
  const first = await runVitest('reporter-matchers', [`--outputFile.rubricate=${previous}`], {
    env,
  })
  expect(first.exitCode, first.stdout + first.stderr).toBe(1)
  // The previous run judged one criterion the other way: the first one met this time.
  const report = JSON.parse(await readFile(previous, 'utf8')) as RubricateJsonReport
  const flipped = report.files
    .flatMap((file) => file.tests.flatMap((t) => t.records.flatMap((r) => r.verdicts ?? [])))
    .find((v) => v.satisfied && v.required)
  expect(flipped).toBeDefined()
  flipped!.satisfied = false
  await writeFile(previous, JSON.stringify(report))
  const second = await runVitest('reporter-matchers', [`--outputFile.rubricate-html=${page}`], {
    env: { ...env, RUBRICATE_COMPARE_WITH: previous },
  })
  expect(second.exitCode, second.stdout + second.stderr).toBe(1)
  const tab = await context.newPage()
  try {
    await tab.goto(pathToFileURL(page).href)
    const changes = tab.locator('#changes')
    expect(await changes.isVisible()).toBe(true)
    expect(await changes.locator('h2').textContent()).toBe(`Changes against ${previous}`)
    expect(await changes.locator('tbody tr').count()).toBe(1)
    const row = (await changes.locator('tbody tr').textContent()) ?? ''
    expect(row).toContain(flipped!.criterion)
    expect(row).toContain('flipped')
    const cell = tab.locator('#matrices button.cell.changed')
    expect(await cell.count()).toBe(1)
    expect(await cell.getAttribute('title')).toBe('Met (was required, unmet)')
    await tab.screenshot({ path: join(artifacts, 'report-page-changes.png'), fullPage: true })
  } finally {
    await tab.close()
    await rm(dir, { recursive: true, force: true })
  }
}, 120_000)

test("Vitest's HTML report of a fixture run shows each criterion's verdict and reason", async (ctx) => {
  if (!hasChromium || !context) return ctx.skip(SKIP)
  const dir = await mkdtemp(join(tmpdir(), 'rubricate-vitest-html-'))
  // Vitest 4 writes the report where --outputFile.html says; Vitest 5 has no such option and
  // writes it to the project's .vitest folder, moved here.
  const run = await runVitest(
    'reporter-matchers',
    ['--reporter=default', '--reporter=html', `--outputFile.html=${join(dir, 'index.html')}`],
    { ci: true },
  )
  if (vitestMajor >= 5) {
    await rm(dir, { recursive: true, force: true })
    await rename(join(run.root, '.vitest'), dir)
  }
  expect(run.exitCode, run.stdout + run.stderr).toBe(1)
  // The report loads its data with fetch(), which a file:// page may not: served on loopback.
  const server = createServer(async (request, response) => {
    let path = join(dir, decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname))
    if (path.endsWith('/')) path = join(path, 'index.html')
    try {
      const body = await readFile(path)
      response.writeHead(200, { 'content-type': MIME[extname(path)] ?? 'application/octet-stream' })
      response.end(body)
    } catch {
      response.writeHead(404)
      response.end()
    }
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
  const tab = await context.newPage()
  // Loopback only: requests to the report's own server go through, anything else is refused.
  await tab.route('**/*', (route) =>
    route.request().url().startsWith(base) ? route.continue() : route.fallback(),
  )
  try {
    await tab.goto(base)
    await tab.getByText('escalates an angry customer').first().click()
    const annotations = tab.getByText('Test Annotations')
    await expect.poll(() => annotations.isVisible(), { timeout: 15_000 }).toBe(true)
    const body = (await tab.locator('body').textContent()) ?? ''
    expect(body).toContain('met [required] Mentions refund')
    expect(body).toContain('unmet [required] Mentions sorry: Never says "sorry".')
    expect(body).toContain('unmet [optional] Mentions days: Never says "days".')
    await tab.screenshot({ path: join(artifacts, 'vitest-html-report.png') })
    // The scorer and the loop of the same file carry theirs too.
    // Clicked again until its annotations show: on a busy machine (CI runs its lanes side by
    // side) a click while the page still renders the first test's details can be lost.
    await expect
      .poll(
        async () => {
          await tab.getByText('keeps it short').first().click()
          return ((await tab.locator('body').textContent()) ?? '').includes('scorer "length"')
        },
        { timeout: 15_000, interval: 500 },
      )
      .toBe(true)
  } finally {
    await tab.close()
    server.close()
    await rm(dir, { recursive: true, force: true })
  }
  // Vitest's UI asks for a web font from Google; it was refused, and the report worked without it.
  expect(offLoopback.filter((url) => !url.startsWith('https://fonts.googleapis.com/'))).toEqual([])
}, 120_000)

const MIME: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
}
