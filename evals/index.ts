// rubricate/evals: dataset evals as Vitest suites (ESM only: imports vitest). Needs
// `rubricate/setup` (the plugin adds it): rows are judged with rubricate's matchers.

export type {
  EvalConversationRecord,
  EvalMeanGate,
  EvalRowRecord,
  EvalScorerMean,
  EvalSuiteRecord,
  EvalTrialRecord,
  EvalTurnRecord,
} from '../src/records/eval-records'
// Evals
export { describeEval } from './describe-eval'
export type {
  ConversationMessage,
  DescribeEvalOptions,
  EvalConversation,
  EvalData,
  EvalRow,
  EvalScorer,
  EvalScorerArgs,
  EvalScorerFn,
  EvalScorerGate,
  EvalScorerResult,
  EvalTurn,
  SimulatedUserOptions,
} from './types'
