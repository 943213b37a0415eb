// Checked by `tsc` (npm run typecheck): the matcher typings as a user sees them.
import { expect, expectTypeOf, test } from 'vitest'
import type { ToSatisfyRubricOptions } from '../../matchers'
import type { ScorerLike } from '../../matchers/types'
import '../../matchers'
import { Factuality, Levenshtein } from 'autoevals'
import { adaptScorer, createRubricScorer, createScorer } from '../../src'
import type { AdaptedScorer } from '../../src/scorer/adapt-scorer'

const scorer: ScorerLike = { id: 's', run: async () => ({ score: 1 }) }

test('the matchers exist on Assertion and return Promise<void>', () => {
  expectTypeOf(expect('x').toSatisfyRubric('- Says hello')).toEqualTypeOf<Promise<void>>()
  expectTypeOf(expect('x').not.toSatisfyRubric(['Says hello'])).toEqualTypeOf<Promise<void>>()
  expectTypeOf(expect({ text: 'x' }).toPassScorer(scorer)).toEqualTypeOf<Promise<void>>()
  expectTypeOf(expect.soft('x').toSatisfyRubric(scorer)).toEqualTypeOf<Promise<void>>()
  // `.resolves` wraps it once more; awaiting it still gives void.
  const resolved = expect(Promise.resolve('x')).resolves.toSatisfyRubric('- a')
  expectTypeOf<Awaited<typeof resolved>>().toBeVoid()
})

test('criteria take strings, lists and criterion objects; options are typed', () => {
  void expect('x').toSatisfyRubric(
    [{ description: 'Says hello', required: false }, 'Says goodbye'],
    {
      input: [{ role: 'user', content: 'hi' }],
      samples: 3,
      evaluation: 'separately',
      cassettes: 'off',
    },
  )
  void expect('x').toSatisfyRubric('- a', { judge: { model: 'gpt-4.1-mini', baseURL: 'http://x' } })
  void expect('x').toPassScorer(scorer, { threshold: 0.5, groundTruth: 'y', requestContext: {} })
  expectTypeOf<ToSatisfyRubricOptions['evaluation']>().toEqualTypeOf<
    'together' | 'separately' | undefined
  >()
})

test("rubricate's own scorers are accepted", () => {
  const rubric = createRubricScorer({ criteria: '- Says hello' })
  const custom = createScorer({ id: 'len', description: 'length' }).generateScore(() => 1)
  void expect('x').toSatisfyRubric(rubric)
  void expect('x').toPassScorer(rubric)
  void expect('x').toPassScorer(custom, { threshold: 0.5 })
})

test('toAgreeWithLabels takes a labelled set and thresholds, and returns Promise<void>', () => {
  expectTypeOf(
    expect('openai/gpt-4.1-mini').toAgreeWithLabels('evals/labels.jsonl', {
      minKappa: 0.6,
      maxFalsePass: 0.1,
      maxFalseFail: 0.2,
      minAccuracy: 0.8,
      samples: 3,
      evaluation: 'separately',
      cassettes: 'replay',
    }),
  ).toEqualTypeOf<Promise<void>>()
  void expect({ model: 'gpt-4.1-mini' }).toAgreeWithLabels(
    [{ output: 'Refunded.', criterion: 'Explains the refund', label: true }],
    { minKappa: 0.5 },
  )
})

test('toPassScorer takes a list of scorers and the new options; toSatisfyRubric partial credit', () => {
  void expect('x').toPassScorer([scorer, scorer], { aggregate: 'mean', threshold: 0.5 })
  void expect('x').toPassScorer(scorer, { notScorable: 'skip', expected: 'y', context: 'z' })
  void expect('x').toSatisfyRubric([{ description: 'a', weight: 2 }], {
    scoring: 'fraction',
    threshold: 0.7,
    groundTruth: 'ref',
    context: { policy: 'p' },
  })
})

test('the tool-call matchers are synchronous and take names or { name, args }', () => {
  expectTypeOf(expect({}).toHaveCalledTool('lookup_order')).toBeVoid()
  expectTypeOf(expect({}).toHaveCalledTool('lookup_order', { id: 'A1' })).toBeVoid()
  expectTypeOf(
    expect([]).toHaveToolCalls(['search', { name: 'lookup_order', args: { id: 'A1' } }], {
      ordered: false,
      args: 'exact',
    }),
  ).toBeVoid()
  expectTypeOf(expect([]).not.toHaveToolCalls([])).toBeVoid()
  expectTypeOf(
    expect({}).toMatchTrajectory([{ name: 'lookup_order', args: { id: 'A1' } }], {
      mode: 'unordered',
      args: 'ignore',
      argsByTool: { lookup_order: 'exact', search: (want, got) => want === got },
    }),
  ).toBeVoid()
  expectTypeOf(expect({}).not.toMatchTrajectory({ messages: [] })).toBeVoid()
  expectTypeOf(
    expect({}).toHaveToolCalls([
      { name: 'transfer_to_Billing', agent: 'Triage', handoffTo: 'Billing' },
    ]),
  ).toBeVoid()
})

test('the pause, structured-response and tool-result matchers are synchronous', () => {
  expectTypeOf(expect({}).toHaveBeenInterrupted()).toBeVoid()
  expectTypeOf(expect({}).not.toHaveBeenInterrupted()).toBeVoid()
  expectTypeOf(expect({}).toHaveStructuredResponse({ city: 'Paris' })).toBeVoid()
  expectTypeOf(expect({}).toHaveToolResult('lookup_order')).toBeVoid()
  expectTypeOf(expect({}).toHaveToolResult('lookup_order', 'order A1: shipped')).toBeVoid()
})

test('what must not compile', () => {
  // @ts-expect-error: toHaveBeenInterrupted takes no argument
  expect({}).toHaveBeenInterrupted('yes')
  // @ts-expect-error: toHaveStructuredResponse needs a schema or a value
  expect({}).toHaveStructuredResponse()
  // @ts-expect-error: a tool's name is a string
  expect({}).toHaveToolResult(42)
  // @ts-expect-error: the labelled set is required
  void expect('openai/x').toAgreeWithLabels()
  // @ts-expect-error: thresholds are numbers
  void expect('openai/x').toAgreeWithLabels('labels.jsonl', { minKappa: '0.6' })
  // @ts-expect-error: an unknown threshold
  void expect('openai/x').toAgreeWithLabels('labels.jsonl', { minKapa: 0.6 })
  // @ts-expect-error: the asymmetric form cannot work for async matchers
  void expect.toSatisfyRubric
  // @ts-expect-error: criteria are required
  void expect('x').toSatisfyRubric()
  // @ts-expect-error: a number is not a rubric
  void expect('x').toSatisfyRubric(42)
  // @ts-expect-error: unknown cassette mode
  void expect('x').toSatisfyRubric('- a', { cassettes: 'sometimes' })
  // @ts-expect-error: evaluation is 'together' or 'separately'
  void expect('x').toSatisfyRubric('- a', { evaluation: 'each' })
  // @ts-expect-error: a scorer needs run()
  void expect('x').toPassScorer({ id: 'no-run' })
  // @ts-expect-error: threshold is a number
  void expect('x').toPassScorer(scorer, { threshold: '0.5' })
  // @ts-expect-error: aggregate is 'all' or 'mean'
  void expect('x').toPassScorer([scorer], { aggregate: 'sum' })
  // @ts-expect-error: scoring is 'all' or 'fraction'
  void expect('x').toSatisfyRubric('- a', { scoring: 'weighted' })
  // @ts-expect-error: a tool's name is a string
  expect({}).toHaveCalledTool(42)
  // @ts-expect-error: an expected call needs a name
  expect({}).toHaveToolCalls([{ args: {} }])
  // @ts-expect-error: a handoff's target is an agent's name
  expect({}).toHaveToolCalls([{ name: 'transfer_to_Billing', handoffTo: { name: 'Billing' } }])
  // @ts-expect-error: args is 'exact' or 'subset'
  expect({}).toHaveToolCalls([], { args: 'fuzzy' })
  // @ts-expect-error: a trajectory's mode is strict, unordered, subset or superset
  expect({}).toMatchTrajectory([], { mode: 'exact' })
  // @ts-expect-error: a per-tool argument mode is a mode or a function
  expect({}).toMatchTrajectory([], { argsByTool: { search: 'fuzzy' } })
})

test('records are typed on task.meta', ({ task }) => {
  expectTypeOf(task.meta.rubricate).toEqualTypeOf<
    import('../../src/records/records').RubricateRecord[] | undefined
  >()
})

test("adaptScorer takes autoevals' scorers as they are typed, and an inline scorer is typed", () => {
  // Factuality's argument type requires `client` in one branch of a union; it is called with
  // `{ input, output, expected, context }` all the same (test/fixtures/autoevals runs it).
  expectTypeOf(adaptScorer(Factuality)).toEqualTypeOf<AdaptedScorer>()
  expectTypeOf(adaptScorer(Levenshtein)).toEqualTypeOf<AdaptedScorer>()
  adaptScorer(({ output, expected }) => {
    expectTypeOf(expected).toBeAny()
    return output === expected ? 1 : 0
  })
  // @ts-expect-error a scorer must return a score, a result object or null
  adaptScorer(() => 'yes')
})

test('the similarity, grounding, preference and budget matchers are typed and awaitable', async () => {
  const { modelCalls } = await import('../../src')
  expectTypeOf(
    expect('x').toBeSemanticallySimilarTo('y', { embedder: 'openai/text-embedding-3-small' }),
  ).toEqualTypeOf<Promise<void>>()
  expectTypeOf(expect('x').toBeSimilarByEditDistance('y', { threshold: 0.9 })).toEqualTypeOf<
    Promise<void>
  >()
  expectTypeOf(expect('x').toBeGroundedIn(['passage'], { input: 'q' })).toEqualTypeOf<
    Promise<void>
  >()
  expectTypeOf(expect('x').toBePreferredOver('old', 'More helpful')).toEqualTypeOf<Promise<void>>()
  expectTypeOf(expect(modelCalls()).toStayWithinBudget({ maxCalls: 3 })).toEqualTypeOf<
    Promise<void>
  >()
  // @ts-expect-error the embedder is required
  void expect('x').toBeSemanticallySimilarTo('y', {})
  // @ts-expect-error an unknown budget limit
  void expect(modelCalls()).toStayWithinBudget({ maxCals: 3 })
})
