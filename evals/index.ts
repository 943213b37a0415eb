// rubricate/evals: dataset evals as Vitest suites (ESM only: imports vitest). Needs
// `rubricate/setup` (the plugin adds it): rows are judged with rubricate's matchers.

// Evals
export { describeEval } from './describe-eval'
export type {
  ConversationMessage,
  DescribeEvalOptions,
  EvalData,
  EvalRow,
  EvalScorer,
  EvalScorerFn,
  SimulatedUserOptions,
} from './types'
