// Type tests, checked by `tsc`: a rubric scorer's result, and scorers fitting runUntilComplete.
import { expectTypeOf, test } from 'vitest'
import { createRubricScorer, createScorer, type Verdict } from '../../src'
import type { LoopScorer } from '../../src/loop'
import type { RubricScorerResult } from '../../src/rubric/rubric-scorer'

test('a rubric scorer result carries passed, verdicts and noRubric', async () => {
  const result = await createRubricScorer({ criteria: '- Greets' }).run({ output: 'Hi' })
  expectTypeOf(result).toEqualTypeOf<RubricScorerResult>()
  expectTypeOf(result.passed).toEqualTypeOf<boolean>()
  expectTypeOf(result.verdicts).toEqualTypeOf<Verdict[]>()
  expectTypeOf(result.noRubric).toEqualTypeOf<true | undefined>()
  // @ts-expect-error the options are checked
  createRubricScorer({ options: { evaluation: 'each' } })
})

test('rubric scorers and createScorer scorers can be given to runUntilComplete', () => {
  const scorers: LoopScorer[] = [
    createRubricScorer(),
    createScorer({ id: 's', description: 's' }).generateScore(() => 1),
  ]
  expectTypeOf(scorers).toEqualTypeOf<LoopScorer[]>()
})
