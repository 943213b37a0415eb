// Regenerate docs/public/report-page.png, the report page shown in the docs: runs the examples
// offline from their cassettes (`npm run examples`, which writes examples/.rubricate/report.html),
// opens the page in Chromium through playwright-core with every request but the file refused,
// shows one test file's rows and saves the screenshot.
//
//   node scripts/report-page-screenshot.mjs [--file agent-evals/gates.test.ts] [--out path.png]
//
// Chromium: $CHROMIUM, else /usr/bin/chromium (Debian's `apt-get install chromium`).
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { chromium } from 'playwright-core'

const root = resolve(import.meta.dirname, '..')
const { values } = parseArgs({
  options: {
    file: { type: 'string', default: 'agent-evals/gates.test.ts' },
    out: { type: 'string', default: join(root, 'docs/public/report-page.png') },
  },
})
const executablePath = process.env.CHROMIUM ?? '/usr/bin/chromium'
if (!existsSync(executablePath)) {
  console.error(
    `No Chromium at "${executablePath}": install it (apt-get install chromium) or set CHROMIUM to its path.`,
  )
  process.exit(1)
}

const run = spawnSync('npm', ['run', 'examples'], { cwd: root, stdio: 'inherit' })
if (run.status !== 0) {
  console.error(`"npm run examples" failed (exit code ${run.status}): no page to photograph.`)
  process.exit(1)
}
const page = join(root, 'examples/.rubricate/report.html')

const browser = await chromium.launch({
  executablePath,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
})
try {
  const tab = await browser.newPage({ viewport: { width: 1280, height: 900 } })
  const refused = []
  await tab.route('**/*', (route) => {
    const url = route.request().url()
    if (url.startsWith('file:') || url.startsWith('data:')) return route.continue()
    refused.push(url)
    return route.abort()
  })
  await tab.goto(pathToFileURL(page).href)
  const files = await tab.locator('#file-filter option').allTextContents()
  if (!files.includes(values.file)) {
    throw new Error(`The page has no test file "${values.file}"; it has: ${files.join(', ')}.`)
  }
  await tab.locator('#file-filter').selectOption(values.file)
  await tab.screenshot({ path: values.out, fullPage: true })
  if (refused.length > 0) throw new Error(`The page asked for ${refused.join(', ')}.`)
  console.log(`Saved ${values.out}.`)
} finally {
  await browser.close()
}
