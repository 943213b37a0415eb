// `rubricate cassettes diff` (issue 18, item 4): two folders recorded through the public API
// against the fake server, with two judge scripts that disagree on one criterion and on a
// scorer's score, are compared per test and criterion; a flipped required verdict exits 1.
import { execFileSync } from 'node:child_process'
import { cp, mkdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest'
import { toPassScorer, toSatisfyRubric } from '../../matchers'
import { configureRubricate, createScorer, resetRubricateConfig } from '../../src'
import { rubricateCommand } from '../../src/cli/rubricate-command'
import { type FakeOpenAI, fakeRubricJudge, startFakeOpenAI } from '../../src/testing'
import { linked } from '../support/error-page'
import { tempDir } from '../support/temp-dir'

expect.extend({ toSatisfyRubric, toPassScorer })

const REPLY = "I'm sorry about the double charge. I've refunded it; it reaches your card in 5 days."
const CRITERIA = [
  'Apologises',
  'Offers a refund',
  'Gives a timeframe',
  'Names the agent (optional)',
]

/** Two judges: the new one no longer counts "refunded" as an offer, and scores the tone higher. */
function judge(refund: boolean, score: number) {
  return fakeRubricJudge(
    {
      Apologises: /sorry/i,
      'Offers a refund': refund,
      'Gives a timeframe': /\d+ days/,
      'Names the agent': false,
    },
    { otherwise: { score } },
  )
}

const tone = createScorer<string, string>({
  id: 'tone',
  description: 'How warm the reply is.',
}).generateScore({
  description: 'Rate the warmth of the reply',
  createPrompt: ({ run }) => `Rate the warmth of this reply from 0 to 1.\nReply: ${run.output}`,
})

let oldJudge: FakeOpenAI
let newJudge: FakeOpenAI
let cwd = ''
const out: string[] = []
const err: string[] = []
const run = (...argv: string[]) =>
  rubricateCommand(argv, { cwd, out: (t) => out.push(t), err: (t) => err.push(t) })

beforeAll(async () => {
  oldJudge = await startFakeOpenAI({ reply: judge(true, 0.5) })
  newJudge = await startFakeOpenAI({ reply: judge(false, 0.75) })
  cwd = tempDir('rubricate-diff-')
})

afterEach(() => {
  out.length = 0
  err.length = 0
  resetRubricateConfig()
  process.env.RUBRICATE_CASSETTES = 'off'
})

afterAll(async () => {
  if (process.env.KEEP_DIFF) return
  await oldJudge.close()
  await newJudge.close()
})

/** Judge the reply with the rubric and the tone scorer, recording into `dir`. */
async function recordWith(server: FakeOpenAI, model: string, dir: string): Promise<void> {
  delete process.env.RUBRICATE_CASSETTES
  configureRubricate({
    judge: { model, baseURL: server.baseURL, apiKey: 'sk-test', maxRetries: 0 },
    cassettes: { dir: join(cwd, dir), mode: 'record' },
  })
  await expect(REPLY)
    .toSatisfyRubric(CRITERIA.join('\n'), {
      input: 'I was charged twice.',
    })
    .catch(() => undefined)
  await expect(REPLY).toPassScorer(tone, { threshold: 0 })
}

// One test records both folders, as a re-record of one suite with a new judge model would.
test('the refund reply, judged', async () => {
  await recordWith(oldJudge, 'judge-old', 'old')
  await recordWith(newJudge, 'judge-new', 'new')
})

test('diff shows the flipped required verdict and the changed score per test, and exits 1', async () => {
  expect(await run('cassettes', 'diff', 'old', 'new')).toBe(1)
  expect(err).toEqual([])
  const text = out.join('\n')
  expect(text).toContain('2 changes in 1 test, 1 required verdict flipped')
  expect(text).toContain('[required] Offers a refund: met → not met (judge-old → judge-new)')
  expect(text).toContain('test/cli/cassettes-diff.test.ts > the refund reply, judged')
  expect(text).toMatch(/score changed +Rate the warmth of this reply from 0 to 1\.: 0\.5 → 0\.75/)
  // The criteria both judges agree on are not listed.
  expect(text).not.toContain('Apologises')
  expect(text).not.toContain('Gives a timeframe')
})

test('two folders the judges agree on show no change, and exit 0', async () => {
  expect(await run('cassettes', 'diff', 'old', 'old')).toBe(0)
  expect(out).toEqual(['No verdict or score changed (5 verdicts and scores in old/, 5 in old/).'])
})

test('verdicts of a test recorded on one side only appear or disappear, and do not fail', async () => {
  const scratch = join(cwd, 'partial')
  await mkdir(scratch, { recursive: true })
  expect(await run('cassettes', 'diff', 'partial', 'old', '--json')).toBe(0)
  const diff = JSON.parse(out[0] as string)
  expect(diff.requiredFlips).toBe(0)
  expect(diff.tests[0].changes.map((c: any) => [c.change, c.criterion ?? c.label])).toEqual([
    ['appeared', 'Apologises'],
    ['appeared', 'Offers a refund'],
    ['appeared', 'Gives a timeframe'],
    ['appeared', 'Names the agent'],
    ['appeared', 'Rate the warmth of this reply from 0 to 1.'],
  ])
})

test('--against compares the cassette folder with its committed state', async () => {
  const repo = join(cwd, 'repo')
  await cp(join(cwd, 'old'), join(repo, 'recordings'), { recursive: true })
  const git = (...args: string[]) =>
    execFileSync('git', args, { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] })
  git('init', '-q')
  git('add', '.')
  git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'old judge')
  await rm(join(repo, 'recordings'), { recursive: true })
  await cp(join(cwd, 'new'), join(repo, 'recordings'), { recursive: true })
  const inRepo = (...argv: string[]) =>
    rubricateCommand(argv, { cwd: repo, out: (t) => out.push(t), err: (t) => err.push(t) })
  expect(await inRepo('cassettes', 'diff', '--against', 'HEAD', '--dir', 'recordings')).toBe(1)
  expect(out[0]).toContain('(5 verdicts and scores in recordings/ at HEAD, 5 in recordings/)')
  expect(out[0]).toContain('[required] Offers a refund: met → not met (judge-old → judge-new)')
  out.length = 0
  expect(await inRepo('cassettes', 'diff', '--against', 'no-such-ref', '--dir', 'recordings')).toBe(
    1,
  )
  expect(err[0]).toMatch(/^\[rubricate\] git cannot read "no-such-ref"/)
})

test('diff with one folder, or folders and --against, is a usage error', async () => {
  expect(await run('cassettes', 'diff', 'old')).toBe(2)
  expect(await run('cassettes', 'diff', 'old', 'new', '--against', 'HEAD')).toBe(2)
  expect(err).toEqual([
    linked(
      '[rubricate] "rubricate cassettes diff" takes two folders (diff <old> <new>), or --against <git ref> with no folder (the cassette folder comes from --dir or the Vitest config). Run "rubricate --help" to see the commands and options.',
      'usage',
    ),
    linked(
      '[rubricate] "rubricate cassettes diff" takes two folders (diff <old> <new>), or --against <git ref> with no folder (the cassette folder comes from --dir or the Vitest config). Run "rubricate --help" to see the commands and options.',
      'usage',
    ),
  ])
  expect(await run('cassettes', 'diff', '--help')).toBe(0)
  expect(out[0]).toMatch(/^Usage: rubricate cassettes diff <old folder> <new folder>/)
})

test('a scratch copy re-run with the new judge holds both judges: the latest-recorded one counts', async () => {
  // The recipe: copy the folder, re-run with the new judge (agents replay, the judge's calls are
  // new requests), diff. The copy holds the old judge's entries too.
  await cp(join(cwd, 'old'), join(cwd, 'upgrade'), { recursive: true })
  await cp(join(cwd, 'new'), join(cwd, 'upgrade'), { recursive: true })
  expect(await run('cassettes', 'diff', 'old', 'upgrade', '--json')).toBe(1)
  const diff = JSON.parse(out[0] as string)
  expect(diff.tests[0].changes.map((c: any) => [c.change, c.criterion ?? c.label])).toEqual([
    ['flipped', 'Offers a refund'],
    ['changed', 'Rate the warmth of this reply from 0 to 1.'],
  ])
})
