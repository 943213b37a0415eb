// rubricate/matchers: the `expect` matchers and their typings (ESM only: imports vitest).
import './augment'

export type {
  RubricateMatcherState,
  RubricCriteriaInput,
  ScorerLike,
  ToPassScorerOptions,
  ToSatisfyRubricOptions,
} from './types'
