// rubricate/matchers: the `expect` matchers and their typings (ESM only: imports vitest).
// `rubricate/setup` registers them; register them yourself with
// `expect.extend({ toSatisfyRubric, toPassScorer, toAgreeWithLabels })` when you do not use the setup file.
import './augment'

// Matchers
export { toAgreeWithLabels } from './to-agree-with-labels'
export { toPassScorer } from './to-pass-scorer'
export { toSatisfyRubric } from './to-satisfy-rubric'

export type {
  LabelsInput,
  RubricateMatcherState,
  RubricCriteriaInput,
  ScorerLike,
  ToAgreeWithLabelsOptions,
  ToPassScorerOptions,
  ToSatisfyRubricOptions,
} from './types'
