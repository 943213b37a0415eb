// Scorers people already have (evalite / autoevals / vitest-evals shape), several scorers in one
// toPassScorer, and not-scorable results as skipped tests: through the matchers, with a judge-like
// scorer that calls the fake OpenAI server through the real openai SDK and rubricate's cassettes.
import { stripVTControlCharacters } from 'node:util'
import OpenAI from 'openai'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { toPassScorer } from '../../matchers'
import { plain } from '../../reporters/figures'
import { renderRecords } from '../../reporters/render-record'
import {
  adaptScorer,
  configureRubricate,
  createScorer,
  notScorable,
  type RubricateRecord,
  resetRubricateConfig,
} from '../../src'
import { createCassetteFetch } from '../../src/cassettes'
import { type FakeOpenAI, startFakeOpenAI } from '../../src/testing'

expect.extend({ toPassScorer })

let server: FakeOpenAI
let client: OpenAI

beforeAll(async () => {
  // A grader that answers like autoevals' Factuality: a choice and a rationale.
  server = await startFakeOpenAI({
    reply: (request) => {
      const prompt = String(request.body.messages.at(-1).content)
      return prompt.includes('Submission: Paris')
        ? { choice: 'C', rationale: 'The submission matches the expert answer.' }
        : { choice: 'D', rationale: 'The submission disagrees with the expert answer.' }
    },
  })
  configureRubricate({ cassettes: { mode: 'off' } })
  client = new OpenAI({ baseURL: server.baseURL, apiKey: 'sk-test', fetch: createCassetteFetch() })
})

afterAll(async () => {
  resetRubricateConfig()
  await server.close()
})

// The autoevals shape: ({ input, output, expected }) => Promise<{ name, score, metadata }>.
async function Factuality({
  input,
  output,
  expected,
}: {
  input: unknown
  output: string
  expected?: string
}) {
  const completion = await client.chat.completions.create({
    model: 'gpt-grader',
    messages: [
      { role: 'user', content: `Question: ${input}\nExpert: ${expected}\nSubmission: ${output}` },
    ],
  })
  const answer = JSON.parse(completion.choices[0]?.message.content ?? '{}')
  return {
    name: 'Factuality',
    score: answer.choice === 'C' ? 1 : 0,
    metadata: { rationale: answer.rationale, choice: answer.choice },
  }
}

// The evalite / vitest-evals shape, synchronous, with a plain number.
const exactMatch = ({ output, expected }: { output: string; expected?: string }) =>
  output === expected ? 1 : 0

// Levenshtein-like: a similarity in [0, 1], null without an expected answer (vitest-evals' skip).
function Levenshtein({ output, expected }: { output: string; expected?: string }) {
  if (expected === undefined) return { name: 'Levenshtein', score: null }
  const a = output
  const b = expected
  const row = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0] as number
    row[0] = i
    for (let j = 1; j <= b.length; j++) {
      const current = row[j] as number
      row[j] = Math.min(
        (row[j] as number) + 1,
        (row[j - 1] as number) + 1,
        previous + (a[i - 1] === b[j - 1] ? 0 : 1),
      )
      previous = current
    }
  }
  return {
    name: 'Levenshtein',
    score: 1 - (row[b.length] as number) / Math.max(a.length, b.length, 1),
  }
}

async function failureOf(assertion: Promise<void>): Promise<string> {
  try {
    await assertion
  } catch (error) {
    return stripVTControlCharacters((error as Error).message)
  }
  throw new Error('The assertion passed.')
}

test('an autoevals-shaped scorer runs unchanged; its metadata is kept and its model calls count as judge calls', async ({
  task,
}) => {
  const factuality = adaptScorer(Factuality)
  const result = await factuality.run({
    input: 'Capital of France?',
    output: 'Paris',
    groundTruth: 'Paris',
  })
  expect(result).toMatchObject({
    score: 1,
    reason: 'The submission matches the expert answer.',
    metadata: { rationale: 'The submission matches the expert answer.', choice: 'C' },
  })
  expect(result.judgeCalls).toEqual([
    expect.objectContaining({
      step: 'generateScore',
      model: 'gpt-grader',
      source: 'live',
      modelCallCount: 1,
    }),
  ])
  await expect('Paris').toPassScorer(factuality, { input: 'Capital of France?', expected: 'Paris' })
  const [record] = (task.meta as { rubricate?: RubricateRecord[] }).rubricate ?? []
  expect(record).toMatchObject({
    status: 'pass',
    scorerId: 'Factuality',
    score: 1,
    metadata: { choice: 'C' },
    judgeCalls: [expect.objectContaining({ model: 'gpt-grader' })],
  })
  expect(renderRecords([record as RubricateRecord], { indent: '', colors: plain })).toEqual([
    '✓ scorer "Factuality": score 1, threshold 1: The submission matches the expert answer. · metadata {"rationale":"The submission matches the expert answer.","choice":"C"}',
  ])
})

test('a failing adapted scorer shows its reason and metadata in the failure message', async () => {
  const message = await failureOf(
    expect('Lyon').toPassScorer(adaptScorer(Factuality), { input: 'Capital?', expected: 'Paris' }),
  )
  expect(message).toContain('Scorer "Factuality" scored 0; expected at least 1.')
  expect(message).toContain('Reason: The submission disagrees with the expert answer.')
  expect(message).toContain(
    'Metadata: {"rationale":"The submission disagrees with the expert answer.","choice":"D"}',
  )
})

test('several scorers in one assertion: aggregate all needs each, mean their mean; each one has its line', async ({
  task,
}) => {
  const scorers = [adaptScorer(exactMatch, { id: 'exact' }), adaptScorer(Levenshtein)]
  await expect('Paris!').toPassScorer(scorers, {
    expected: 'Paris',
    aggregate: 'mean',
    threshold: 0.4,
  })
  const message = await failureOf(expect('Paris!').toPassScorer(scorers, { expected: 'Paris' }))
  expect(message).toContain(
    [
      '2 of 2 scorers did not pass; each must (aggregate "all").',
      '',
      '  ✗ "exact": score 0, threshold 1',
      '  ✗ "Levenshtein": score 0.8333333333333334, threshold 1',
    ].join('\n'),
  )
  const records = (task.meta as { rubricate?: RubricateRecord[] }).rubricate ?? []
  expect(renderRecords(records, { indent: '', colors: plain })).toEqual([
    '✓ scorers (mean): score 0.42, threshold 0.4',
    '  · scorer "exact": score 0',
    '  · scorer "Levenshtein": score 0.83',
    '✗ scorers (all)',
    '  ✗ scorer "exact": score 0, threshold 1',
    '  ✗ scorer "Levenshtein": score 0.83, threshold 1',
  ])
})

test('a null score is an error by default', async () => {
  const message = await failureOf(expect('Paris').toPassScorer(adaptScorer(Levenshtein)))
  expect(message).toContain(
    '[rubricate] toPassScorer(): the scorer "Levenshtein" marked the output as not scorable in its generateScore step: the scorer returned a null score.',
  )
})

const SKIPPED = {
  "notScorable: 'skip' turns a null score into a skipped test with its reason":
    '[rubricate] skipped: the scorer "Levenshtein" could not score the output: the scorer returned a null score',
  "notScorable: 'skip' skips on a createScorer scorer's notScorable(reason) too":
    '[rubricate] skipped: the scorer "needs-question" could not score the output: no question was asked',
}

// Skipped tests run no onTestFinished hook, so their outcome is checked when the file ends.
// biome-ignore lint/correctness/noEmptyPattern: Vitest reads the first parameter as fixtures
afterAll(({}, suite) => {
  for (const [name, note] of Object.entries(SKIPPED)) {
    const task = suite.tasks.find((candidate) => candidate.name === name)
    if (task?.result === undefined) continue // filtered out of this run (-t)
    expect(task.result).toMatchObject({ state: 'skip', note })
  }
})

test("notScorable: 'skip' turns a null score into a skipped test with its reason", async () => {
  // Skipped from inside the matcher: Vitest's context.skip, with the reason as the note.
  await expect('Paris').toPassScorer(adaptScorer(Levenshtein), { notScorable: 'skip' })
  throw new Error('The test was not skipped.')
})

test("notScorable: 'skip' skips on a createScorer scorer's notScorable(reason) too", async () => {
  const needsQuestion = createScorer({ id: 'needs-question', description: 'x' }).generateScore(
    ({ run }) => (run.input ? 1 : notScorable('no question was asked')),
  )
  await expect('hi').toPassScorer(needsQuestion, { notScorable: 'skip' })
  throw new Error('The test was not skipped.')
})

test('bad adapter input and toPassScorer options are usage errors', async () => {
  expect(() => adaptScorer('Levenshtein' as never)).toThrowError(
    '[rubricate] adaptScorer() expects a scorer function, ({ input, output, expected }) => number | { score, metadata }, but got "Levenshtein".',
  )
  expect(await failureOf(expect('x').toPassScorer(adaptScorer(() => 'high' as never)))).toContain(
    '[rubricate] The scorer "scorer" returned "high", which is neither a number nor { score: number | null, metadata? }.',
  )
  expect(
    await failureOf(expect('x').toPassScorer(adaptScorer(exactMatch), { aggregate: 'mean' })),
  ).toContain(
    '[rubricate] toPassScorer() option "aggregate" combines several scorers, but got one.',
  )
  expect(
    await failureOf(
      expect('x').toPassScorer([adaptScorer(exactMatch)], { notScorable: 'ignore' as never }),
    ),
  ).toContain(
    '[rubricate] toPassScorer() option "notScorable" is "ignore", which is not supported. Use one of "error", "skip".',
  )
  expect(
    await failureOf(
      expect('x').toPassScorer(
        adaptScorer(() => ({ score: null, error: new Error('401 Incorrect API key') }) as never, {
          id: 'judge',
        }),
      ),
    ),
  ).toContain(
    '[rubricate] The scorer "judge" reported an error instead of a score: "401 Incorrect API key".',
  )
})
