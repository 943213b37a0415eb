// End to end: the files a run leaves for CI: the JSON report (`outputFile.rubricate`), the Markdown
// job summary ($GITHUB_STEP_SUMMARY), and the JUnit file carrying the verdicts as properties.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { RubricateJsonReport } from '../../reporters/index'
import { runVitest, type VitestRun } from '../support/run-vitest'

let dir = ''
let run: VitestRun

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rubricate-artifacts-'))
  await writeFile(join(dir, 'summary.md'), '# Earlier step\n\n')
  run = await runVitest(
    'reporter',
    [
      'rubric-pass.test.ts',
      'rubric-fail.test.ts',
      '--reporter=default',
      '--reporter=junit',
      `--outputFile.junit=${join(dir, 'junit.xml')}`,
      `--outputFile.rubricate=${join(dir, 'out/rubricate.json')}`,
      `--outputFile.rubricate-html=${join(dir, 'out/report.html')}`,
    ],
    { ci: true, env: { GITHUB_STEP_SUMMARY: join(dir, 'summary.md') } },
  )
}, 120_000)

afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

test('the Markdown report is appended to $GITHUB_STEP_SUMMARY, a table per file', async () => {
  expect(run.exitCode).toBe(1)
  expect(await readFile(join(dir, 'summary.md'), 'utf8')).toBe(`# Earlier step

## rubricate

- **Assertions** 2 assertions: 1 passed, 1 failed, 0 errored · 4 criteria: 3 met, 1 required unmet, 0 optional unmet
- **Judge** 2 calls: 2 replayed, 0 live · tokens 0 live, 2,000 replayed · cost $0.00

### rubric-fail.test.ts

| Test | Criterion | Verdict | Reasoning |
| --- | --- | --- | --- |
| escalates an angry customer | [required] Apologises | ✓ met | It does. |
| escalates an angry customer | [required] Offers a human agent | ✗ unmet | The reply never mentions a person to talk to. |

### rubric-pass.test.ts

| Test | Criterion | Verdict | Reasoning |
| --- | --- | --- | --- |
| answers a refund question | [required] Acknowledges the double charge | ✓ met | It does. |
| answers a refund question | [required] Explains how the refund will be processed | ✓ met | It does. |

`)
})

test('the run prints where the report page was written, under its summary', async () => {
  const page = join(dir, 'out/report.html')
  expect(await readFile(page, 'utf8')).toContain('<!doctype html>')
  expect(run.raw.stdout).toContain(`     Report  ${page}\n`)
})

test('the JUnit file carries each assertion as a property of its test case, a line per verdict', async () => {
  const xml = await readFile(join(dir, 'junit.xml'), 'utf8')
  const properties = (name: string) => {
    const testcase = xml.slice(xml.indexOf(`name="${name}"`))
    return testcase.slice(0, testcase.indexOf('</testcase>')).match(/<property [^>]*>/g)
  }
  expect(properties('escalates an angry customer')).toEqual([
    '<property name="rubricate" value="met [required] Apologises\r\n     unmet [required] Offers a human agent: The reply never mentions a person to talk to.">',
  ])
  expect(properties('answers a refund question')).toEqual([
    '<property name="rubricate" value="met [required] Acknowledges the double charge\r\n     met [required] Explains how the refund will be processed">',
  ])
  expect(properties('greets the customer')).toBeNull()
  // What a tool that parses the file reads: XML turns each line break of an attribute into a
  // space, and every verdict still reads whole, after its own word.
  const [property] = properties('escalates an angry customer') ?? []
  expect(xmlAttributeValue(property ?? '', 'value')).toBe(
    'met [required] Apologises      unmet [required] Offers a human agent: The reply never mentions a person to talk to.',
  )
})

// An attribute's value as an XML parser reports it: CR LF and lone CRs read as LF, then each
// LF and tab as a space (XML 1.0, 2.11 and 3.3.3); the entities Vitest writes decoded.
function xmlAttributeValue(tag: string, name: string): string | undefined {
  const raw = new RegExp(` ${name}="([^"]*)"`).exec(tag)?.[1]
  return raw
    ?.replace(/\r\n?/g, '\n')
    .replace(/[\n\t]/g, ' ')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
}

test('the JSON report holds the summary, the completeness and every record by file', async () => {
  const json: RubricateJsonReport = JSON.parse(
    await readFile(join(dir, 'out/rubricate.json'), 'utf8'),
  )
  expect(json.v).toBe(1)
  expect(json.complete).toBe(false)
  expect(json.incompleteReasons).toEqual([
    'it did not pass',
    'it was filtered to files matching "rubric-pass.test.ts", "rubric-fail.test.ts"',
  ])
  expect(json.summary.assertions).toEqual({ total: 2, passed: 1, failed: 1, errored: 0 })
  expect(json.files.map((file) => file.file)).toEqual([
    'rubric-fail.test.ts',
    'rubric-pass.test.ts',
  ])
  const [fail, pass] = json.files
  expect(fail?.tests.map((t) => [t.fullName, t.state, t.records.length])).toEqual([
    ['escalates an angry customer', 'fail', 1],
  ])
  expect(pass?.tests[0]?.records[0]?.verdicts?.map((v) => v.criterion)).toEqual([
    'Acknowledges the double charge',
    'Explains how the refund will be processed',
  ])
})
