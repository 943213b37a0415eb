// End to end with the real matchers: rubricate's verdicts are made with the test context's public
// `annotate()` while the test runs, one annotation per assertion, so a reporter of the user's
// hears each one through `onTestCaseAnnotate` before the test's result, at the line of the
// assertion that made it.
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { repoRoot, runVitest, type VitestRun } from '../support/run-vitest'

interface LogEvent {
  event: 'annotate' | 'result'
  test: string
  state: string
  type?: string
  message?: string
  line?: number
}

// The fixture run with a reporter that logs every annotation and result, and what it logged.
async function annotatedRun(
  env: Record<string, string> = {},
): Promise<{ run: VitestRun; events: LogEvent[] }> {
  const dir = await mkdtemp(join(tmpdir(), 'rubricate-annotations-'))
  const logFile = join(dir, 'events.jsonl')
  try {
    const run = await runVitest(
      'reporter-matchers',
      [
        '--reporter=default',
        `--reporter=${join(repoRoot, 'test/support/annotation-log-reporter.ts')}`,
      ],
      { ci: true, env: { ANNOTATION_LOG: logFile, ...env } },
    )
    const events = (await readFile(logFile, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as LogEvent)
    return { run, events }
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

const ANGRY_VERDICTS =
  'met [required] Mentions refund\r\n' +
  '     unmet [required] Mentions sorry: Never says "sorry".\r\n' +
  '     unmet [optional] Mentions days: Never says "days".'
const LOOP_CHECKS = [
  'loop incomplete after 1 iteration\r\n     unmet [required] Mentions refund: Never says "refund".',
  'loop complete after 2 iterations\r\n     met [required] Mentions refund',
]

test("a reporter's onTestCaseAnnotate hears each assertion's verdicts while its test runs, at the assertion's line", async () => {
  const { run, events } = await annotatedRun()
  expect(run.exitCode).toBe(1)
  const of = (name: string) => events.filter((event) => event.test === name)

  // One annotation per assertion, a line per criterion (an annotation is a round trip to the
  // main process), each line worded as it is alone.
  expect(of('escalates an angry customer')).toEqual([
    {
      event: 'annotate',
      test: 'escalates an angry customer',
      state: 'pending',
      type: 'rubricate',
      message: ANGRY_VERDICTS,
      line: 12,
    },
    { event: 'result', test: 'escalates an angry customer', state: 'failed' },
  ])
  expect(of('keeps it short').map((event) => event.message ?? event.state)).toEqual([
    'scorer "length" passed, score 0.5, threshold 0.5: 10 characters.',
    'passed',
  ])
  // A loop is annotated at each check, as it goes, with that check's verdicts: the UI follows it.
  expect(
    of('drafts until the reply mentions the refund').map((event) => event.message ?? event.state),
  ).toEqual([...LOOP_CHECKS, 'passed'])
})

test("with annotations: 'failures', a passing assertion is not annotated but stays in the report; a failing one and a loop's checks are", async () => {
  const { run, events } = await annotatedRun({ FIXTURE_ANNOTATIONS: 'failures' })
  expect(run.exitCode).toBe(1)
  const of = (name: string) =>
    events.filter((event) => event.test === name).map((event) => event.message ?? event.state)
  expect(of('escalates an angry customer')).toEqual([ANGRY_VERDICTS, 'failed'])
  expect(of('keeps it short')).toEqual(['passed'])
  expect(of('drafts until the reply mentions the refund')).toEqual([...LOOP_CHECKS, 'passed'])
  // The passing verdict is still under its test in rubricate's own output.
  expect(run.stdout).toContain('✓ scorer "length": score 0.5, threshold 0.5: 10 characters.')
})
