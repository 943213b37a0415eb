// rubricate/matchers: the `expect` matchers and their typings (ESM only: imports vitest).
// `rubricate/setup` registers them; register them yourself with
// `expect.extend({ toSatisfyRubric, toPassScorer })` when you do not use the setup file.
import './augment'

// Matchers
export { toPassScorer } from './to-pass-scorer'
export { toSatisfyRubric } from './to-satisfy-rubric'

export type {
  RubricateMatcherState,
  RubricCriteriaInput,
  ScorerLike,
  ToPassScorerOptions,
  ToSatisfyRubricOptions,
} from './types'
