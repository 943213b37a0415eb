// Type tests against @mastra/core 1.71's own types, checked by `tsc` (npm run typecheck): a
// rubricate scorer goes into a Mastra agent's `scorers` config, and a `type: 'agent'` scorer runs
// on what Mastra hands its scorers (`scoringData`: stored messages, role `signal` included).
import { Agent } from '@mastra/core/agent'
import { createScorer as createMastraScorer, type MastraScorer } from '@mastra/core/evals'
import type { MastraModelOutput } from '@mastra/core/stream'
import { expectTypeOf, test } from 'vitest'
import { createRubricScorer, createScorer, toMastraScorer } from '../../src'

declare const model: ConstructorParameters<typeof Agent>[0]['model']
type ScoringData = NonNullable<
  Awaited<ReturnType<MastraModelOutput['getFullOutput']>>['scoringData']
>

test("a rubricate scorer type-checks in a Mastra Agent's scorers config through toMastraScorer", () => {
  const mine = createScorer({ id: 'len', description: 'len', type: 'agent' }).generateScore(() => 1)
  const rubric = createRubricScorer({ criteria: '- Answers the question' })
  new Agent({
    id: 'geo',
    name: 'geo',
    instructions: 'Answer.',
    model,
    scorers: {
      len: { scorer: toMastraScorer(mine, createMastraScorer) },
      rubric: { scorer: toMastraScorer(rubric, createMastraScorer), sampling: { type: 'none' } },
    },
  })
  expectTypeOf(toMastraScorer(mine, createMastraScorer)).toExtend<MastraScorer>()
  // Mastra's scorer type is a class with private fields: nothing but its own instances has it.
  // @ts-expect-error a rubricate scorer is not a MastraScorer without toMastraScorer
  new Agent({ id: 'a', name: 'a', instructions: 'a', model, scorers: { len: { scorer: mine } } })
  // @ts-expect-error the second argument is Mastra's createScorer
  toMastraScorer(mine, () => 1)
})

test("a type 'agent' scorer's run() takes Mastra 1.71's scoringData as it is", () => {
  const mine = createScorer({ id: 'len', description: 'len', type: 'agent' }).generateScore(() => 1)
  const data = {} as ScoringData
  void mine.run({ input: data.input, output: data.output })
  // Messages of role `signal` (Mastra 1.71) and stored content `{ format: 2, parts }`.
  expectTypeOf<ScoringData['output'][number]['role']>().toEqualTypeOf<
    'user' | 'assistant' | 'system' | 'signal'
  >()
  void mine.run({
    output: [
      {
        id: 'm1',
        role: 'signal',
        createdAt: new Date(),
        content: { format: 2, parts: [{ type: 'text', text: 'stop' }] },
      },
    ],
  })
})
