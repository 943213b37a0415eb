// rubricate/matchers: the `expect` matchers and their typings (ESM only: imports vitest).
// `rubricate/setup` registers them; register them yourself with
// `expect.extend({ toSatisfyRubric, toPassScorer, toAgreeWithLabels, toHaveCalledTool,
// toHaveToolCalls })` when you do not use the setup file.
import './augment'

// Matchers
export { expectUndecided } from './expect-undecided'
export { toBeGroundedIn, toBePreferredOver } from './grounding-matchers'
export { toBeSemanticallySimilarTo, toBeSimilarByEditDistance } from './similarity-matchers'
export { toAgreeWithLabels } from './to-agree-with-labels'
export { toHaveCalledTool } from './to-have-called-tool'
export { toHaveToolCalls } from './to-have-tool-calls'
export { toPassScorer } from './to-pass-scorer'
export { toSatisfyRubric } from './to-satisfy-rubric'
export { toStayWithinBudget } from './to-stay-within-budget'

export type {
  ExpectedToolCall,
  LabelsInput,
  RubricateMatcherState,
  RubricCriteriaInput,
  ScorerLike,
  ToAgreeWithLabelsOptions,
  ToBeGroundedInOptions,
  ToBePreferredOverOptions,
  ToBeSemanticallySimilarToOptions,
  ToBeSimilarByEditDistanceOptions,
  ToHaveToolCallsOptions,
  ToPassScorerOptions,
  ToSatisfyRubricOptions,
} from './types'
