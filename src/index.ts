// rubricate: the framework-agnostic core. Never imports `vitest`.

// Configuration
export { CASSETTE_MODES } from './config/resolve-config'
export { configureRubricate, resetRubricateConfig } from './runtime/runtime'
export type {
  CallSiteConfig,
  CassetteMode,
  CassetteOptions,
  ModelPrice,
  RubricateConfig,
} from './config/resolve-config'

// Scorers
export { adaptScorer } from './scorer/adapt-scorer'
export { createScorer, Scorer } from './scorer/create-scorer'
export { filterRun } from './scorer/filter-run'
export { isNotScorable, notScorable } from './scorer/not-scorable'
export type {
  AdaptedScorer,
  AdaptedScorerResult,
  AdaptScorerOptions,
  EvalScorerArgs,
  EvalScorerFunction,
  EvalScorerResult,
} from './scorer/adapt-scorer'
export type { ScorerConfig } from './scorer/create-scorer'
export type { FilterRunOptions } from './scorer/filter-run'
export type { NotScorable } from './scorer/not-scorable'
export type {
  AgentMessage,
  AgentMessagePart,
  AgentMessageRole,
  AgentSystemMessage,
  FunctionStep,
  PreparedRun,
  PromptStep,
  ReasonStepContext,
  RequestContextLike,
  ScorerJudgeOptions,
  ScorerOptions,
  ScorerResult,
  ScorerRun,
  ScorerRunInputForAgent,
  ScorerRunOutputForAgent,
  ScorePromptStep,
  StepContext,
  StepResults,
  StepValue,
} from './scorer/types'
export type { StandardSchemaV1 } from './judge/output-schema'

// Judge processors
export { StreamErrorRetryProcessor } from './judge/retry-processor'
export type {
  ErrorDecision,
  JudgeMessage,
  JudgeProcessor,
  JudgeTextProcessor,
  MastraJudgeProcessor,
  ProcessorAbort,
} from './judge/processors'
export type { RetryProcessorOptions } from './judge/retry-processor'

// Rubric scorer
export { createRubricScorer } from './rubric/rubric-scorer'
export { RUBRIC_PROMPT_VERSION } from './rubric/rubric-prompt'
export { NO_RUBRIC_REASON } from './rubric/rubric-reason'
export type { RubricCriterion, RubricInput } from './rubric/criteria'
export type {
  RubricAnalysis,
  RubricScorer,
  RubricScorerConfig,
  RubricScorerOptions,
  RubricScorerResult,
} from './rubric/rubric-scorer'

// Trajectories
export { createToolCallScorer } from './trajectory/tool-call-scorer'
export { createTrajectoryRubric } from './trajectory/trajectory-rubric'
export { trajectoryText } from './trajectory/trajectory-text'
export type {
  ExpectedToolCall,
  ToolArgsMatcher,
  ToolCallMatch,
  ToolCallScorerConfig,
} from './trajectory/tool-call-scorer'
export type { TrajectoryRubricConfig } from './trajectory/trajectory-rubric'

// Similarity, grounding and pairwise preference
export { createEditDistanceScorer, createSimilarityScorer } from './similarity/similarity-scorer'
export {
  createAnswerRelevanceScorer,
  createContextRelevanceScorer,
  createFaithfulnessScorer,
} from './grounding/grounding-scorers'
export { createPreferenceScorer } from './pairwise/preference-scorer'
export { baselineFrom } from './pairwise/baseline-from'
export type {
  EditDistanceScorerConfig,
  SimilarityScorer,
  SimilarityScorerConfig,
  SimilarityScorerResult,
} from './similarity/similarity-scorer'
export type {
  AiSdkEmbeddingModel,
  CustomEmbedder,
  EmbedderInput,
  EmbeddingEndpoint,
} from './judge/embed'
export type {
  GroundingJudgement,
  GroundingScorer,
  GroundingScorerConfig,
  GroundingScorerResult,
} from './grounding/grounding-scorers'
export type {
  BaselineInput,
  PreferenceOrder,
  PreferenceScorer,
  PreferenceScorerConfig,
  PreferenceScorerResult,
} from './pairwise/preference-scorer'

// Budgets
export { modelCalls } from './budget/model-calls'
export type { Budget } from './budget/budget'
export type { ModelCallFilter } from './budget/model-calls'
export type { ModelCallRecord } from './runtime/model-call-log'

// Calibration
export { calibrateJudge } from './calibrate/calibrate-judge'
export type {
  CalibrateJudgeOptions,
  CalibrationDisagreement,
  CalibrationJudgement,
  CalibrationResult,
  CriterionCalibration,
} from './calibrate/calibrate-judge'
export type {
  AgreementCounts,
  AgreementMetrics,
  Rate,
  SelfAgreement,
} from './calibrate/agreement-metrics'
export type { LabelledCriterion, LabelledExample } from './calibrate/label-set'

// Agent output
export { outputText, taskText, toolCalls } from './output'
export type { ToolCall } from './output'

// Agent loop
export { runUntilComplete } from './loop'
export type {
  AgentTurn,
  CompletionCheck,
  CompletionContext,
  LoopAgent,
  LoopIteration,
  LoopMessage,
  LoopScorer,
  LoopScorerResult,
  RunUntilCompleteOptions,
  RunUntilCompleteResult,
  ScorerCheck,
} from './loop'

// Records and hooks
export { onRecord } from './runtime/record-hooks'
export type { RecordListener } from './runtime/record-hooks'
export type {
  AgentCallCounts,
  CassetteMissRecord,
  CassetteUsageRecord,
  JsonSchema,
  JudgeCall,
  JudgeCallSource,
  JudgeCompleteOptions,
  JudgeInput,
  JudgeModel,
  JudgeReply,
  JudgeRequest,
  LoopIterationRecord,
  OpenAICompatibleJudge,
  RubricateRecord,
  ScorerStepName,
  StructuredOutputMode,
  TestIdentity,
  TokenUsage,
  Verdict,
} from './records/records'

// Errors
export {
  CassetteCorruptError,
  CassetteMissError,
  CassetteWriteError,
  isRubricateError,
  JudgeOutputError,
  JudgeRequestError,
  LimitError,
  NoJudgeError,
  RubricateError,
  rootCause,
  ScorerRunError,
  SecretInCassetteError,
  NetworkBlockedError,
  UsageError,
} from './errors'
export type { RubricateErrorCode } from './errors'
