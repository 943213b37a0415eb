// rubricate/evals: dataset evals as Vitest suites (ESM only: imports vitest). Needs
// `rubricate/setup` (the plugin adds it): rows are judged with rubricate's matchers.

export type {
  EvalMeanGate,
  EvalRowRecord,
  EvalScorerMean,
  EvalSuiteRecord,
  EvalTrialRecord,
} from '../src/eval-records'
// Evals
export { describeEval } from './describe-eval'
export type {
  DescribeEvalOptions,
  EvalData,
  EvalRow,
  EvalScorer,
  EvalScorerArgs,
  EvalScorerFn,
  EvalScorerGate,
  EvalScorerResult,
} from './types'
