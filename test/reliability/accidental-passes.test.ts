// Group 8, through Vitest itself: a fixture project whose tests each meet a cassette miss or a
// judge error and hide it (test.fails, try/catch, .rejects.toThrow(), the agent's own catch,
// beforeAll). None of them may pass: the test that made the call fails, with the error's message
// and, for a miss, the command that records it.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type FakeOpenAI, startFakeOpenAI } from '../../src/testing'
import { userMessage } from '../support/rubric-judge'
import { copyFixture, removeCopy, runVitest, type VitestRun } from '../support/run-vitest'

interface JsonTest {
  title: string
  fullName: string
  status: string
  failureMessages: string[]
}
interface JsonFile {
  name: string
  status: string
  message: string
  assertionResults: JsonTest[]
}

let server: FakeOpenAI
let root: string
let run: VitestRun
let files: JsonFile[]

const MET = {
  criteria: { c1: { reasoning: 'It greets.', satisfied: true } },
  overallAssessment: 'Fine.',
}
const UNMET = {
  criteria: { c1: { reasoning: 'No greeting.', satisfied: false } },
  overallAssessment: 'No.',
}

beforeAll(async () => {
  server = await startFakeOpenAI({
    reply: (request) => {
      const prompt = userMessage(request)
      if (prompt.includes('\nGARBAGE\n')) return 'This is not a verdict.'
      if (prompt.includes('\nUNMET\n')) return UNMET
      return MET
    },
  })
  root = await copyFixture('reliability-accidental')
  run = await runVitest(root, ['--reporter=json', '--outputFile=report.json'], {
    ci: true,
    env: { FAKE_OPENAI_URL: server.baseURL },
  })
  files = JSON.parse(readFileSync(join(root, 'report.json'), 'utf8')).testResults
}, 90_000)

afterAll(async () => {
  await server?.close()
  if (root) await removeCopy(root)
})

function result(file: string, name: string): JsonTest {
  const found = files
    .find((f) => f.name.endsWith(file))
    ?.assertionResults.find((t) => t.fullName === name)
  if (!found) throw new Error(`No result for "${name}" in ${file}:\n${run.stdout}\n${run.stderr}`)
  return found
}

describe('8. Accidental passes', () => {
  test('the run with hidden misses and judge errors exits 1', () => {
    expect(run.exitCode).toBe(1)
  })

  test.for<[string, string]>([
    ['a judge miss under test.fails', 'RUBRICATE_CASSETTE_MISS'],
    ['a judge output error under test.fails', 'RUBRICATE_JUDGE_OUTPUT'],
    ['a judge miss caught by try/catch', 'RUBRICATE_CASSETTE_MISS'],
    ['a judge output error caught by .rejects.toThrow()', 'RUBRICATE_JUDGE_OUTPUT'],
  ])('%s fails that test, with the error (%s)', ([name, code]) => {
    const test = result('swallowed.test.ts', name)
    expect(test.status).toBe('failed')
    expect(test.failureMessages.join('\n')).toContain(code)
  })

  test('the failure says why the test fails, with the error it hid', () => {
    const [message] = result(
      'swallowed.test.ts',
      'a judge miss caught by try/catch',
    ).failureMessages
    expect(message?.split('\n').slice(0, 3).join('\n')).toBe(
      'Error: [rubricate] This test fails: a call made during it could not be decided (RUBRICATE_CASSETTE_MISS), and the error was caught (by the code under test, a try/catch or .rejects), so nothing else failed for it. An undecided verdict is never a pass. A test that means to get this error says so with expectUndecided("RUBRICATE_CASSETTE_MISS") from rubricate/matchers. Otherwise, fix each one as it says:\n\n[rubricate] Cassette miss: no recorded reply matches this judge call, and cassettes are in replay mode (CI is set), so no network call was made.',
    )
    const [expected] = result(
      'swallowed.test.ts',
      'a judge miss under test.fails',
    ).failureMessages.slice(-1)
    expect(expected).toContain(
      'and test.fails expects a verdict of fail: an undecided verdict is neither a pass nor a fail, so it never counts as the expected failure.',
    )
  })

  test.for([
    "an agent miss caught by the agent's own code",
    "an agent miss caught by the agent's own code, under test.fails",
    'concurrent tests the one that swallows a miss fails',
  ])('%s: the test that made the call fails with the miss and its record command', (name) => {
    const test = result('swallowed.test.ts', name)
    expect(test.status).toBe('failed')
    const messages = test.failureMessages.join('\n')
    expect(messages).toContain('[rubricate] Cassette miss: no recorded reply matches this')
    expect(messages).toContain('RUBRICATE_CASSETTES=auto npx vitest run swallowed.test.ts -t "')
  })

  test('a miss under expect.soft fails its test once, with the miss', () => {
    const test = result('swallowed.test.ts', 'a judge miss under expect.soft is shown once')
    expect(test.status).toBe('failed')
    expect(test.failureMessages).toHaveLength(1)
    expect(test.failureMessages[0]).toContain('RUBRICATE_CASSETTE_MISS')
  })

  test('decided verdicts keep their outcome, and a test beside a swallowed miss passes', () => {
    expect(
      result('swallowed.test.ts', 'a rubric the judge fails still passes under test.fails').status,
    ).toBe('passed')
    expect(result('swallowed.test.ts', 'a rubric the judge passes still passes').status).toBe(
      'passed',
    )
    expect(result('swallowed.test.ts', 'concurrent tests the one beside it passes').status).toBe(
      'passed',
    )
  })

  test('expectUndecided(code) lets a test expect that undecided call, in the test or inside fn', () => {
    for (const name of [
      'expectUndecided an undecided call expected on purpose passes',
      'expectUndecided an undecided call expected inside fn passes',
    ]) {
      expect(result('swallowed.test.ts', name).status, name).toBe('passed')
    }
  })

  test('expectUndecided is no blanket: another code, no call at all, or a call after fn still fails', () => {
    const other = result(
      'swallowed.test.ts',
      'expectUndecided a call with another code still fails the test',
    )
    expect(other.status).toBe('failed')
    expect(other.failureMessages.join('\n')).toContain('RUBRICATE_CASSETTE_MISS')
    const none = result(
      'swallowed.test.ts',
      'expectUndecided an expected call that never comes fails the test',
    )
    expect(none.status).toBe('failed')
    expect(none.failureMessages[0]?.split('\n')[0]).toBe(
      'Error: [rubricate] This test fails: it called expectUndecided("RUBRICATE_USAGE"), but no call made during it ended undecided with that code. Check that the call you expect to fail is made (and awaited) in this test, or remove expectUndecided.',
    )
    const after = result(
      'swallowed.test.ts',
      'expectUndecided a call made after fn is the test own again',
    )
    expect(after.status).toBe('failed')
    expect(after.failureMessages.join('\n')).toContain('RUBRICATE_JUDGE_OUTPUT')
  })

  test('a miss swallowed in beforeAll fails the file, which names it', () => {
    const file = files.find((f) => f.name.endsWith('before-all.test.ts'))
    expect(file?.status).toBe('failed')
    expect(file?.message).toContain(
      '[rubricate] Cassette miss: no recorded reply matches this judge call',
    )
  })
})
