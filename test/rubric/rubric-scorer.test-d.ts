// Type tests, checked by `tsc`: a rubric scorer's result, and scorers fitting runUntilComplete.
import { expectTypeOf, test } from 'vitest'
import {
  createRubricScorer,
  createScorer,
  type LoopScorer,
  type RubricScorerResult,
  type Verdict,
} from '../../src'

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
