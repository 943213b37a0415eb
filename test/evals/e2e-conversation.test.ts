// End to end: multi-turn rows in a fixture project. The task runs once per turn with the
// conversation so far; each turn's reply is judged on its own and the whole conversation after;
// the simulated user is a model call (the fake server plays it) that ends the conversation when
// it says its goal is reached. The reporter prints verdicts per turn and for the conversation.
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { RubricateJsonReport } from '../../reporters/index'
import { type FakeOpenAI, type FakeRequest, startFakeOpenAI } from '../../src/testing'
import { keywordJudge } from '../support/keyword-judge'
import { runVitest } from '../support/run-vitest'

let server: FakeOpenAI
let dir = ''

// The simulated user: asks about order A1, then says thanks, then is done.
function reply(request: FakeRequest) {
  const system: string = request.body?.messages?.[0]?.content ?? ''
  if (!system.startsWith('You play the user')) return keywordJudge(request)
  const prompt: string = request.body.messages.at(-1).content
  const replies = prompt.split('"speaker":"assistant"').length - 1
  if (replies === 1) return { message: 'It was order A1', done: false }
  if (replies === 2) return { message: 'Thanks, that is all', done: false }
  return { message: '', done: true }
}

beforeAll(async () => {
  server = await startFakeOpenAI({ reply })
  dir = await mkdtemp(join(tmpdir(), 'rubricate-conversation-'))
})

afterAll(async () => {
  await server.close()
  await rm(dir, { recursive: true, force: true })
})

test('a multi-turn row is judged per turn and as a whole, and a simulated user plays until its goal', async () => {
  const result = await runVitest(
    'evals',
    ['conversation.test.ts', `--outputFile.rubricate=${join(dir, 'report.json')}`],
    { env: { FAKE_OPENAI_URL: server.baseURL, RUBRICATE_CASSETTES: 'off' } },
  )
  expect(result.exitCode).toBe(1)
  expect(result.stdout).toContain(
    [
      '     × scripted',
      '       ✓ turn 1 user: "I was charged twice" → "Bot (turn 1, 1 messages): you said I was charged twice"',
      '         ✓ rubric: 1 of 1 required met',
      '           ✓ [required] Mentions charged twice',
      '         ✓ rubric: 1 of 1 required met',
      '           ✓ [required] Mentions Bot',
      '       ✗ turn 2 user: "Order A1" → "Bot (turn 2, 3 messages): you said Order A1"',
      '         ✗ rubric: 0 of 1 required met',
      '           ✗ [required] Mentions refund: The output never says "refund".',
      '         ✓ rubric: 1 of 1 required met',
      '           ✓ [required] Mentions Bot',
      '       conversation: 2 turns, ended: its turns ran out',
      '         ✓ [required] Mentions turn 2',
    ].join('\n'),
  )
  expect(result.stdout).toContain(
    [
      '       ✓ turn 1 user: "I want a refund" → "Bot (turn 1, 1 messages): you said I want a refund"',
      '         ✓ [required] Mentions Bot',
      '       ✓ turn 2 simulated user: "It was order A1" → "Bot (turn 2, 3 messages): you said It was order A1"',
      '         ✓ [required] Mentions Bot',
      '       ✓ turn 3 simulated user: "Thanks, that is all" → "Bot (turn 3, 5 messages): you said Thanks, that is all"',
      '         ✓ [required] Mentions Bot',
      '       conversation: 3 turns, ended: the simulated user reached its goal',
      '         ✓ [required] Mentions turn 2',
    ].join('\n'),
  )
  const report: RubricateJsonReport = JSON.parse(await readFile(join(dir, 'report.json'), 'utf8'))
  const tests = report.files.flatMap((file) => file.tests)
  const simulated = tests.find((one) => one.name === 'simulated')
  expect(simulated?.records.map((record) => record.turn)).toEqual([1, 2, 3, undefined])
  // Three simulated-user calls: turns 2 and 3, then the one that said it was done.
  const asked = server.requests.filter((request) =>
    String(request.body?.messages?.[0]?.content).startsWith('You play the user'),
  )
  expect(asked).toHaveLength(3)
}, 120_000)
