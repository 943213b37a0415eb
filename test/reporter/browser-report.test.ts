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
import { type Browser, type BrowserContext, chromium, type Locator } from 'playwright-core'
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

test('the report page of a real run shows each test once, with its input, output, reasoning and tolerated label in view', async (ctx) => {
  if (!hasChromium || !context) return ctx.skip(SKIP)
  const dir = await mkdtemp(join(tmpdir(), 'rubricate-html-'))
  const page = join(dir, 'report.html')
  const run = await runVitest('report-page', [`--outputFile.rubricate-html=${page}`])
  // "explains the refund policy" fails; the tolerated row's test passes.
  expect(run.exitCode, run.stdout + run.stderr).toBe(1)
  const tab = await context.newPage()
  const complaints: string[] = []
  tab.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') complaints.push(message.text())
  })
  tab.on('pageerror', (error) => complaints.push(error.message))
  try {
    await tab.goto(pathToFileURL(page).href)
    await tab.screenshot({ path: join(artifacts, 'report-page.png'), fullPage: true })
    // One row per test: two assertions on one reply are one row, and no label reads like a trial.
    const rows = tab.locator('tr.test')
    expect(await rows.count()).toBe(7)
    const body = (await tab.locator('main').textContent()) ?? ''
    expect(body).not.toMatch(/#\d/)
    const row = (name: string) => tab.locator('tr.test', { hasText: name })

    const answered = row('answers a double charge')
    expect(await answered.count()).toBe(1)
    for (const text of [
      'I was charged twice for order A1. Can I get my money back?',
      'We are sorry about the double charge: your refund for order A1 is on its way.',
      'Mentions refund',
      'The reply says "refund".',
      'The reply never says "days".',
      'Reason: 77 characters, against 120 for a full score.',
    ]) {
      await expectVisible(answered.getByText(text, { exact: true }).first(), text)
    }
    // Both assertions, each labelled by its kind and name.
    expect(await answered.locator('li.assertion .a-head').allTextContents()).toEqual([
      '✓ rubric "keywords"',
      '✓ scorer "brevity"score 1 / 0.8',
    ])

    // A long output is closed, its start showing; one click opens the rest.
    const policy = row('explains the refund policy')
    await expectVisible(policy.getByText('How do refunds work?'), 'the input')
    await expectVisible(
      policy.getByText('Thank you for reaching out about our refund policy.').first(),
      'the preview',
    )
    const rest = policy.getByText('We are always glad to help.')
    expect(await rest.isVisible()).toBe(false)
    await expectVisible(
      policy.getByText('The reply never says "refund to the original card".'),
      'the reasoning',
    )
    await policy.getByText(/Output judged · \d+ characters/).click()
    await expectVisible(rest, 'the whole output, once opened')

    // The failed row that the eval's pass rate allows says so.
    const tolerated = row('What is the tracking number of order C3?')
    expect(await tolerated.locator('.status').textContent()).toBe('✗ tolerated')
    await expectVisible(
      tolerated.getByText('the eval gates on a pass rate of 60%', { exact: false }),
      'why',
    )
    await expectVisible(tolerated.getByText('Your order C3 is on its way.'), 'its output')
    await expectVisible(
      tolerated.getByText('The reply never says "tracking number".'),
      'its reasoning',
    )

    // The trials of one row stay apart, each with the output it judged when it differs.
    const flaky = row('Say hello to the customer')
    expect(await flaky.locator('li.group').allTextContents()).toEqual([
      'Trial 1 of 3 ✓ passed',
      'Trial 2 of 3 ✗ failed',
      'Trial 3 of 3 ✓ passed',
    ])
    await expectVisible(flaky.getByText('Good day.'), "the second trial's output")
    expect(await flaky.locator('.status').textContent()).toBe('✓ passed')

    // Markup in a reply is text: nothing of it runs, loads or becomes an element.
    const hostile = row('quotes a hostile reply as text')
    await expectVisible(
      hostile.getByText('<script>window.pwned = 1</script>', { exact: false }),
      'the markup',
    )
    await expectVisible(hostile.getByText('Reply with <b>bold</b> markup'), 'the input')
    expect(await tab.evaluate(() => (window as { pwned?: unknown }).pwned)).toBeUndefined()
    expect(await tab.locator('main img, main b:text("bold")').count()).toBe(0)
    // Our own style and script ran under the page's policy without a complaint; a script added
    // later is refused by it.
    expect(complaints).toEqual([])
    const injected = await tab.evaluate(() => {
      const script = document.createElement('script')
      script.textContent = 'window.injected = 1'
      document.body.append(script)
      return (window as { injected?: unknown }).injected
    })
    expect(injected).toBeUndefined()
    await expect.poll(() => complaints.join('\n')).toContain('Content Security Policy')

    // The filters: failed only keeps the failed and the tolerated rows; the search, matching rows.
    await tab.getByLabel('Failed only').check()
    expect(
      await tab
        .locator('tr.test:visible')
        .evaluateAll((all) => all.map((r) => r.getAttribute('data-status'))),
    ).toEqual(['tolerated', 'failed'])
    await tab.getByLabel('Failed only').uncheck()
    await tab.getByLabel('Search').fill('tracking number')
    expect(await tab.locator('tr.test:visible').count()).toBe(1)
    await tab.getByLabel('Search').fill('')
    expect(await tab.locator('tr.test:visible').count()).toBe(7)
  } finally {
    await tab.close()
    await rm(dir, { recursive: true, force: true })
  }
  expect(offLoopback).toEqual([])
}, 120_000)

async function expectVisible(locator: Locator, what: string): Promise<void> {
  expect(await locator.isVisible(), `${what} is visible without a click`).toBe(true)
}

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
  expect(await tab.locator('tr.test').count()).toBe(1000)
  await tab.getByLabel('Failed only').check()
  expect(await tab.locator('tr.test:visible').count()).toBe(100)
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
    const changed = tab.locator('#tests .tag.changed')
    expect(await changed.count()).toBe(1)
    expect(await changed.textContent()).toBe('changed: was required, unmet')
    expect(await changed.locator('xpath=..').textContent()).toContain(flipped!.criterion)
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
    // Clicked until its own annotations show: on a busy machine (CI runs its lanes side by side)
    // a click while the page still renders can be lost, and the page then shows another test's
    // details, "Test Annotations" included (a CI run saw the scorer test's).
    await expect
      .poll(
        async () => {
          await tab.getByText('escalates an angry customer').first().click()
          return ((await tab.locator('body').textContent()) ?? '').includes('Mentions sorry')
        },
        { timeout: 30_000, interval: 500 },
      )
      .toBe(true)
    // One annotation for the assertion, every criterion's verdict and reason in it, in order, at
    // the assertion's line. Its list shows the message's lines run together, each after its word.
    const notes = tab.getByRole('note').filter({ hasText: 'rubricate' })
    expect(await notes.count()).toBe(1)
    expect(await notes.first().textContent()).toContain('support.test.ts:12:3')
    // biome-ignore lint/performance/useDomNodeTextContent: the text as rendered is what is checked
    expect(await notes.first().getByTestId('task-error').innerText()).toBe(
      'met [required] Mentions refund unmet [required] Mentions sorry: Never says "sorry". unmet [optional] Mentions days: Never says "days".',
    )
    await tab.screenshot({ path: join(artifacts, 'vitest-html-report.png') })
    // Beside its line in the code, a line per criterion, whole: the UI turns the character before
    // a bare LF and the LF into CR LF, so rubricate breaks its lines with CR LF itself.
    await tab.getByRole('button', { name: 'Code' }).click()
    await expect
      .poll(() => tab.locator('.CodeMirror [role=note]').allInnerTexts(), { timeout: 30_000 })
      .toContain(
        'rubricate: met [required] Mentions refund\r\n' +
          '     unmet [required] Mentions sorry: Never says "sorry".\r\n' +
          '     unmet [optional] Mentions days: Never says "days".',
      )
    // The scorer and the loop of the same file carry theirs too.
    await expect
      .poll(
        async () => {
          await tab.getByText('keeps it short').first().click()
          return ((await tab.locator('body').textContent()) ?? '').includes('scorer "length"')
        },
        { timeout: 30_000, interval: 500 },
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
