// rubricate: the framework-agnostic core. Never imports `vitest`.

// Configuration
export { configureRubricate, resetRubricateConfig } from './runtime/runtime'
export type {
  CassetteOptions,
  RubricateConfig,
} from './config/resolve-config'

// Scorers
export { adaptScorer } from './scorer/adapt-scorer'
export { createScorer, Scorer } from './scorer/create-scorer'
export { filterRun } from './scorer/filter-run'
export { isNotScorable, notScorable } from './scorer/not-scorable'
export { toMastraScorer } from './scorer/to-mastra-scorer'
export type { ScorerConfig } from './scorer/create-scorer'
export type {
  AgentMessage,
  ScorerOptions,
  ScorerResult,
  ScorerRun,
  ScorerRunInputForAgent,
  ScorerRunOutputForAgent,
} from './scorer/types'

// Judge processors
export { StreamErrorRetryProcessor } from './judge/retry-processor'
export type { JudgeProcessor } from './judge/processors'

// Rubric scorer
export { createRubricScorer } from './rubric/rubric-scorer'
export { RUBRIC_PROMPT_VERSION } from './rubric/rubric-prompt'
export type { RubricCriterion, RubricInput } from './rubric/criteria'
export type {
  RubricScorer,
  RubricScorerOptions,
} from './rubric/rubric-scorer'

// Trajectories
export { createToolCallScorer } from './trajectory/tool-call-scorer'
export { createTrajectoryRubric } from './trajectory/trajectory-rubric'
export { trajectoryText } from './trajectory/trajectory-text'
export type { ToolCallScorerConfig } from './trajectory/tool-call-scorer'

// Similarity, grounding and pairwise preference
export { createEditDistanceScorer, createSimilarityScorer } from './similarity/similarity-scorer'
export {
  createAnswerRelevanceScorer,
  createContextRelevanceScorer,
  createFaithfulnessScorer,
} from './grounding/grounding-scorers'
export { createPreferenceScorer } from './pairwise/preference-scorer'
export { baselineFrom } from './pairwise/baseline-from'
export type { EmbedderInput } from './judge/embed'

// Budgets
export { modelCalls } from './budget/model-calls'
export type { Budget } from './budget/budget'
export type { ModelCallRecord } from './runtime/model-call-log'

// Calibration
export { calibrateJudge } from './calibrate/calibrate-judge'
export type {
  CalibrateJudgeOptions,
  CalibrationResult,
} from './calibrate/calibrate-judge'
export type { LabelledExample } from './calibrate/label-set'

// Agent output
export { outputText, taskText, toolCalls } from './output'
export type { ToolCall } from './output'

// Agent loop
export { runUntilComplete } from './loop'
export type {
  AgentTurn,
  LoopAgent,
  RunUntilCompleteOptions,
  RunUntilCompleteResult,
} from './loop'

// Records and hooks
export { onRecord } from './runtime/record-hooks'
export type {
  JudgeModel,
  JudgeReply,
  JudgeRequest,
  RubricateRecord,
  TokenUsage,
  Verdict,
} from './records/records'

// Errors
export {
  isRubricateError,
  RubricateError,
} from './errors'
export type { RubricateErrorCode } from './errors'
