// End to end: a run that re-records judge calls ends its Markdown job summary with the verdicts
// that changed against the committed cassettes (`rubricate cassettes diff --against HEAD`).
import { execFileSync } from 'node:child_process'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { type FakeOpenAI, fakeRubricJudge, startFakeOpenAI } from '../../src/testing'
import { startFixtureOpenAI } from '../support/fixture-openai'
import { copyFixture, removeCopy, runVitest } from '../support/run-vitest'

let oldJudge: FakeOpenAI
let newJudge: FakeOpenAI
let root = ''

beforeAll(async () => {
  oldJudge = await startFixtureOpenAI()
  // The new judge no longer finds the refund mentioned.
  newJudge = await startFakeOpenAI({
    reply: fakeRubricJudge({
      'Mentions refund': false,
      'Mentions sorry': /sorry/,
      'Mentions days': /days/,
    }),
  })
  root = await copyFixture('reporter-judged')
})

afterAll(async () => {
  await removeCopy(root)
  await oldJudge.close()
  await newJudge.close()
})

test('a re-record that flips a required verdict shows it in the job summary', async () => {
  expect((await runVitest(root, [], { env: { FAKE_OPENAI_URL: oldJudge.baseURL } })).exitCode).toBe(
    0,
  )
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root, stdio: 'pipe' })
  git('init', '-q')
  git('add', '__cassettes__')
  git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'recorded')

  const summary = join(root, 'summary.md')
  await writeFile(summary, '')
  const rerun = await runVitest(root, ['-u'], {
    env: { FAKE_OPENAI_URL: newJudge.baseURL, GITHUB_STEP_SUMMARY: summary },
  })
  expect(rerun.exitCode).toBe(1)
  const markdown = await readFile(summary, 'utf8')
  expect(markdown).toContain(
    "### Verdicts changed by this run's recordings in __cassettes__ (against HEAD): 1 required verdict flipped",
  )
  expect(markdown).toContain(
    '| support.test.ts &gt; answers a refund question | flipped | **[required]** Mentions refund | met | not met | gpt-4.1-mini |',
  )
  // Only what changed: the verdicts both judges agree on are in the run's own table, not here.
  const section = markdown.slice(markdown.indexOf('### Verdicts changed'))
  expect(section.split('\n').filter((line) => line.startsWith('| support.test.ts'))).toHaveLength(1)
})
