import { afterAll, beforeAll, expect, test } from 'vitest'
import { createRubricScorer, type RubricInput } from '../../src'
import { rootCause } from '../../src/errors'
import { type FakeOpenAI, startFakeOpenAI } from '../../src/testing'
import { linked } from '../support/error-page'
import { judgeBy, listedCriteria } from '../support/rubric-judge'

let server: FakeOpenAI
let judge: { model: string; baseURL: string; apiKey: string }

beforeAll(async () => {
  server = await startFakeOpenAI({ reply: judgeBy(() => true) })
  judge = { model: 'gpt-judge', baseURL: server.baseURL, apiKey: 'k' }
})

afterAll(async () => {
  await server.close()
})

async function verdictsOf(criteria: RubricInput) {
  const result = await createRubricScorer({ judge, criteria }).run({ output: 'x' })
  return result.verdicts.map(({ id, criterion, required }) => ({ id, criterion, required }))
}

test('each string marker form is stripped, and (optional) at either end makes a criterion optional', async () => {
  const criteria = [
    '- dash',
    '* star',
    '+ plus',
    '• bullet',
    '1. number dot',
    '12) number paren',
    '- [ ] unchecked box',
    '- [x] checked box',
    '[X] bare box',
    '(optional) optional first',
    'optional last (optional)',
    '- [ ] (Optional) box and optional',
    '   indented plain line   ',
    '',
    '**bold** stays whole',
    '2024. is not a list marker',
    '-no space keeps its dash',
  ].join('\r\n')
  expect(await verdictsOf(criteria)).toEqual([
    { id: 'c1', criterion: 'dash', required: true },
    { id: 'c2', criterion: 'star', required: true },
    { id: 'c3', criterion: 'plus', required: true },
    { id: 'c4', criterion: 'bullet', required: true },
    { id: 'c5', criterion: 'number dot', required: true },
    { id: 'c6', criterion: 'number paren', required: true },
    { id: 'c7', criterion: 'unchecked box', required: true },
    { id: 'c8', criterion: 'checked box', required: true },
    { id: 'c9', criterion: 'bare box', required: true },
    { id: 'c10', criterion: 'optional first', required: false },
    { id: 'c11', criterion: 'optional last', required: false },
    { id: 'c12', criterion: 'box and optional', required: false },
    { id: 'c13', criterion: 'indented plain line', required: true },
    { id: 'c14', criterion: '**bold** stays whole', required: true },
    { id: 'c15', criterion: '2024. is not a list marker', required: true },
    { id: 'c16', criterion: '-no space keeps its dash', required: true },
  ])
  expect(listedCriteria(server.requests.at(-1)!).slice(9, 11)).toEqual([
    { id: 'c10', tag: 'optional', text: 'optional first' },
    { id: 'c11', tag: 'optional', text: 'optional last' },
  ])
})

test('arrays take strings (parsed like lines) and objects, required by default', async () => {
  expect(
    await verdictsOf([
      'Greets the user',
      '(optional) Uses their name',
      { description: 'Answers the question' },
      { description: '  Offers help  ', required: false },
      { description: 'Signs off', required: true, id: 'custom-id' },
    ]),
  ).toEqual([
    { id: 'c1', criterion: 'Greets the user', required: true },
    { id: 'c2', criterion: 'Uses their name', required: false },
    { id: 'c3', criterion: 'Answers the question', required: true },
    { id: 'c4', criterion: 'Offers help', required: false },
    { id: 'c5', criterion: 'Signs off', required: true },
  ])
})

test('empty criteria, empty descriptions and duplicates are usage errors at creation', () => {
  const usage = (config: Parameters<typeof createRubricScorer>[0]) => {
    try {
      createRubricScorer(config)
    } catch (error) {
      expect(error).toMatchObject({ code: 'RUBRICATE_USAGE' })
      return (error as Error).message
    }
    throw new Error('expected a usage error')
  }
  expect(usage({ judge, criteria: '\n   \n' })).toBe(
    linked(
      '[rubricate] createRubricScorer() got criteria with no criterion in them. Write at least one criterion, or leave `criteria` out to take the rubric from each run (requestContext, additionalContext or input).',
      'usage',
    ),
  )
  expect(usage({ judge, criteria: [] })).toContain('got criteria with no criterion in them')
  expect(usage({ judge, criteria: '- Greets\n- \n- Answers' })).toBe(
    linked(
      '[rubricate] createRubricScorer() criteria has an empty criterion (line 2). Write what the output must do, or remove the entry.',
      'usage',
    ),
  )
  expect(usage({ judge, criteria: [{ description: ' ' }] })).toBe(
    linked(
      '[rubricate] createRubricScorer() criteria has an empty criterion (item 1). Write what the output must do, or remove the entry.',
      'usage',
    ),
  )
  expect(usage({ judge, criteria: '- Greets the user\n- Answers\n* greets  the user' })).toBe(
    linked(
      '[rubricate] createRubricScorer() criteria lists the criterion "greets  the user" twice (line 1 and line 3). Remove one, or reword them so that each checks something different.',
      'usage',
    ),
  )
  expect(usage({ judge, criteria: [42] as never })).toBe(
    linked(
      '[rubricate] createRubricScorer() criteria has 42 as item 1, which is not a criterion. Give a string, or { description, required? }.',
      'usage',
    ),
  )
  expect(usage({ judge, criteria: 42 as never })).toBe(
    linked(
      '[rubricate] createRubricScorer() criteria is 42, which is not a rubric. Give a string with one criterion per line, or a list of criteria (strings or { description, required? }).',
      'usage',
    ),
  )
  expect(usage({ judge, model: judge, criteria: '- a' })).toBe(
    linked(
      '[rubricate] createRubricScorer() got both `judge` and `model`, which are two names for the same option. Keep one.',
      'usage',
    ),
  )
})

test('bad options are usage errors that say what is allowed', () => {
  const message = (options: object) => {
    try {
      createRubricScorer({ judge, criteria: '- a', options })
    } catch (error) {
      return (error as Error).message
    }
    return 'no error'
  }
  expect(message({ scale: 0 })).toBe(
    linked(
      '[rubricate] createRubricScorer() options.scale must be a number > 0, but is 0.',
      'usage',
    ),
  )
  expect(message({ evaluation: 'each' })).toBe(
    linked(
      '[rubricate] createRubricScorer() options.evaluation is "each", which is not supported. Use one of "together", "separately".',
      'usage',
    ),
  )
  expect(message({ samples: 1.5 })).toBe(
    linked(
      '[rubricate] createRubricScorer() options.samples must be a positive integer, but is 1.5.',
      'usage',
    ),
  )
  expect(message({ treshold: 1 })).toBe(
    linked(
      '[rubricate] createRubricScorer() options got an unknown option "treshold". Did you mean "threshold"? Known options: "scale", "evaluation", "samples", "scoring", "threshold".',
      'usage',
    ),
  )
})

test('a rubric comes from requestContext as a plain object or a Map, else additionalContext, else input', async () => {
  const scorer = createRubricScorer({ judge })
  const criteria = async (run: object) =>
    (await scorer.run({ output: 'x', ...run })).verdicts.map((verdict) => verdict.criterion)
  expect(
    await criteria({
      requestContext: { rubric: '- All tests pass\n- Function is named find_duplicates' },
    }),
  ).toEqual(['All tests pass', 'Function is named find_duplicates'])
  expect(await criteria({ requestContext: new Map([['rubric', ['From a map']]]) })).toEqual([
    'From a map',
  ])
  expect(await criteria({ additionalContext: { rubric: '- From additional context' } })).toEqual([
    'From additional context',
  ])
  expect(await criteria({ input: { question: 'q', rubric: '- From input' } })).toEqual([
    'From input',
  ])
  // First found wins.
  expect(
    await criteria({
      requestContext: { rubric: '- From context' },
      input: { rubric: '- From input' },
    }),
  ).toEqual(['From context'])
  // The scorer's own criteria win over any run-time rubric.
  const fixed = createRubricScorer({ judge, criteria: '- Fixed' })
  expect(
    (await fixed.run({ output: 'x', requestContext: { rubric: '- Ignored' } })).verdicts.map(
      (v) => v.criterion,
    ),
  ).toEqual(['Fixed'])
})

test('a run-time rubric that is not a rubric fails the run with a usage error naming where it was found', async () => {
  const error = await createRubricScorer({ judge })
    .run({ output: 'x', requestContext: { rubric: 42 } })
    .catch((e: unknown) => e)
  expect(error).toMatchObject({ code: 'RUBRICATE_SCORER_RUN', failedStep: 'analyze' })
  expect((rootCause(error) as Error).message).toBe(
    linked(
      '[rubricate] The rubric in requestContext is 42, which is not a rubric. Give a string with one criterion per line, or a list of criteria (strings or { description, required? }).',
      'usage',
    ),
  )
})

test('no rubric anywhere gives 1, the exact reason, noRubric and no judge request (no judge needed)', async () => {
  const before = server.requests.length
  const result = await createRubricScorer().run({ input: 'Do the task', output: 'x' })
  expect(result).toMatchObject({
    score: 1,
    passed: true,
    noRubric: true,
    verdicts: [],
    judgeCalls: [],
    reason: 'No rubric was provided, so the rubric check passed by default.',
  })
  // An empty run-time rubric is no rubric too.
  const empty = await createRubricScorer({ judge }).run({
    output: 'x',
    requestContext: { rubric: '  ' },
  })
  expect(empty.noRubric).toBe(true)
  expect(server.requests.length).toBe(before)
})
