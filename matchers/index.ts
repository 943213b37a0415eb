// rubricate/matchers: the `expect` matchers and their typings (ESM only: imports vitest).
// `rubricate/setup` registers them; register them yourself with
// `expect.extend({ toSatisfyRubric, toPassScorer, toAgreeWithLabels, toHaveCalledTool,
// toHaveToolCalls, toMatchTrajectory, toHaveBeenInterrupted, toHaveStructuredResponse,
// toHaveToolResult })` when you do not use the setup file.
import './augment'

// Matchers
export { expectUndecided } from './expect-undecided'
export { toBeGroundedIn, toBePreferredOver } from './grounding-matchers'
export { toBeSemanticallySimilarTo, toBeSimilarByEditDistance } from './similarity-matchers'
export { toAgreeWithLabels } from './to-agree-with-labels'
export { toHaveBeenInterrupted } from './to-have-been-interrupted'
export { toHaveCalledTool } from './to-have-called-tool'
export { toHaveStructuredResponse } from './to-have-structured-response'
export { toHaveToolCalls } from './to-have-tool-calls'
export { toHaveToolResult } from './to-have-tool-result'
export { toMatchTrajectory } from './to-match-trajectory'
export { toPassScorer } from './to-pass-scorer'
export { toSatisfyRubric } from './to-satisfy-rubric'
export { toStayWithinBudget } from './to-stay-within-budget'

export type {
  RubricateMatcherState,
  RubricCriteriaInput,
  ToAgreeWithLabelsOptions,
  ToBeGroundedInOptions,
  ToBePreferredOverOptions,
  ToBeSemanticallySimilarToOptions,
  ToBeSimilarByEditDistanceOptions,
  ToHaveToolCallsOptions,
  ToMatchTrajectoryOptions,
  ToPassScorerOptions,
  TrajectoryArgsMode,
  ToSatisfyRubricOptions,
} from './types'
