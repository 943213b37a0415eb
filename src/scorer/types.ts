import type { InferOutput, StandardSchemaV1 } from '../judge/output-schema'
import type { JudgeProcessor } from '../judge/processors'
import type {
  JudgeCall,
  JudgeInput,
  ScorerStepName,
  StructuredOutputMode,
} from '../records/records'
import type { NotScorable } from './not-scorable'

/** Anything with `get(key)`, such as a `Map` or Mastra's `RequestContext`. */
export interface RequestContextLike {
  get(key: string): unknown
}

/**
 * What a scorer judges: the output, and optionally the input, ground truth and context. A type
 * alias, not an interface, so results fit index-signature types such as the loop's scorer result.
 */
export type ScorerRun<TInput = any, TOutput = any> = {
  input?: TInput | undefined
  output: TOutput
  /** Default: a random UUID. */
  runId?: string | undefined
  groundTruth?: unknown
  /** Mastra's expected tool-call trajectory; carried through untouched. */
  expectedTrajectory?: unknown
  /** A plain object, or anything with `get(key)` (a `Map`, Mastra's `RequestContext`). */
  requestContext?: Record<string, unknown> | RequestContextLike | undefined
  additionalContext?: Record<string, unknown> | undefined
}

/** The run as the steps see it: after `prepareRun`, with a `runId`. */
export type PreparedRun<TInput = any, TOutput = any> = ScorerRun<TInput, TOutput> & {
  runId: string
}

/** The judge of a scorer or of one prompt step; a step's fields win over the scorer's, one by one. */
export interface ScorerJudgeOptions {
  /** Default: the judge configured for the run (`configureRubricate`, `RUBRICATE_JUDGE`, plugin). */
  model?: JudgeInput | undefined
  /** The system message of every judge call. */
  instructions?: string | undefined
  /** Sent only when set. */
  temperature?: number | undefined
  /** Sent only when set. */
  seed?: number | undefined
  /** Default: the judge object's own choice, else `'auto'`. */
  structuredOutput?: StructuredOutputMode | undefined
  /** Mastra's name for prompt-mode structured output: `true` and `'inline'` put the schema in the user message, `'system'` in the system message; `false` is `'json_schema'`. */
  jsonPromptInjection?: boolean | 'auto' | 'inline' | 'system' | undefined
  /** rubricate's retries of transient failures (ARCHITECTURE.md §4.1). Default `2`, or `0` when `errorProcessors` is set. */
  maxRetries?: number | undefined
  /** Transform the judge's messages before they are sent (and keyed). A step's list replaces the scorer's. */
  inputProcessors?: readonly JudgeProcessor[] | undefined
  /** Transform or check the judge's text before it is parsed. A step's list replaces the scorer's. */
  outputProcessors?: readonly JudgeProcessor[] | undefined
  /** Asked whether to retry a failed judge request (that request only). A step's list replaces the scorer's. */
  errorProcessors?: readonly JudgeProcessor[] | undefined
  /** Processor retries per request. Default `10` when `errorProcessors` is set; a step without one inherits. */
  maxProcessorRetries?: number | undefined
}

/** What earlier steps produced. */
export interface StepResults<TPre = unknown, TAnalyze = unknown> {
  preprocessStepResult: TPre
  analyzeStepResult: TAnalyze
}

/** What every step (and every `createPrompt`) receives. */
export interface StepContext<TInput = any, TOutput = any, TPre = unknown, TAnalyze = unknown> {
  run: PreparedRun<TInput, TOutput>
  results: StepResults<TPre, TAnalyze>
}

/** What `generateReason` receives: the step context plus the score. */
export interface ReasonStepContext<TInput = any, TOutput = any, TPre = unknown, TAnalyze = unknown>
  extends StepContext<TInput, TOutput, TPre, TAnalyze> {
  score: number
}

/** A step that asks the judge: `createPrompt(ctx)` is the user message. */
export interface PromptStep<Ctx, Schema extends StandardSchemaV1 | undefined = undefined> {
  description: string
  createPrompt: (context: Ctx) => string | Promise<string>
  /**
   * The shape of the judge's reply (preprocess, analyze, and generateScore with `calculateScore`).
   * Without one, preprocess and analyze return the reply's text.
   */
  outputSchema?: Schema
  /** Overrides the scorer's judge, field by field. */
  judge?: ScorerJudgeOptions | undefined
}

/**
 * A prompt-object generateScore step as Mastra documents it: the judge answers `outputSchema`
 * and `calculateScore` turns that answer (`analyzeStepResult`) into the score. With neither, the
 * judge answers `{ "score": number }`; with `calculateScore` alone, it receives the reply's text.
 */
export interface ScorePromptStep<Ctx, Schema extends StandardSchemaV1 | undefined = undefined>
  extends PromptStep<Ctx, Schema> {
  calculateScore?:
    | ((
        context: Ctx & { analyzeStepResult: PromptStepValue<Schema> },
      ) => ScoreValue | Promise<ScoreValue>)
    | undefined
}

/** A step written as a (possibly async) function; it may return `notScorable(reason)`. */
export type FunctionStep<Ctx, R> = (context: Ctx) => R

/** What a function step produced, without the `notScorable` sentinel. */
export type StepValue<R> = Exclude<Awaited<R>, NotScorable>

/** A value returned by `generateScore`. */
export type ScoreValue = number | NotScorable

/** The outcome of `scorer.run()`: the run spread back plus what the steps produced. */
export type ScorerResult<
  TInput = any,
  TOutput = any,
  TPre = unknown,
  TAnalyze = unknown,
> = PreparedRun<TInput, TOutput> & {
  /** Absent when a step returned `notScorable`. */
  score?: number | undefined
  reason?: string | undefined
  preprocessStepResult?: TPre | undefined
  analyzeStepResult?: TAnalyze | undefined
  /** The prompts of prompt steps, as sent. */
  preprocessPrompt?: string | undefined
  analyzePrompt?: string | undefined
  generateScorePrompt?: string | undefined
  generateReasonPrompt?: string | undefined
  /** Every judge call of the run, in order. */
  judgeCalls: JudgeCall[]
  /** Set when a function step returned `notScorable(reason)`: the pipeline stopped there. */
  notScorable?: { step: ScorerStepName; reason?: string | undefined } | undefined
}

/** Options of `createScorer`. */
export interface ScorerOptions<TInput = any, TOutput = any> {
  id: string
  /** Default: `id`. */
  name?: string | undefined
  description: string
  judge?: ScorerJudgeOptions | undefined
  /** `'agent'` types input and output as an agent's messages; nothing is checked at run time. */
  type?: 'agent' | undefined
  /** Transforms the run before any step (may be async). See `filterRun`. */
  prepareRun?:
    | ((run: ScorerRun) => ScorerRun<TInput, TOutput> | Promise<ScorerRun<TInput, TOutput>>)
    | undefined
}

/** One part of a message's content (text, a tool call, a file, ...), as Mastra and the AI SDK shape it. */
export interface AgentMessagePart {
  type: string
  text?: string | undefined
  [key: string]: unknown
}

/** The roles of a message, Mastra 1.71's included (`signal` carries a mid-run signal to the agent). */
export type AgentMessageRole = 'system' | 'user' | 'assistant' | 'tool' | 'signal'

/**
 * A message's content as Mastra stores it (`MastraMessageContentV2`): the parts, and the text as
 * `content` when Mastra keeps one. What a Mastra agent hands its scorers (`scoringData`).
 */
export type AgentMessageContent = {
  format: 2
  parts: AgentMessagePart[]
  /** The message's text, when Mastra keeps one beside the parts. */
  content?: string | undefined
  metadata?: Record<string, unknown> | undefined
}

/** One message of an agent conversation (compatible with Mastra's `MastraDBMessage`). */
export interface AgentMessage {
  id?: string | undefined
  role: AgentMessageRole
  /**
   * Text, parts, or Mastra's stored form `{ format: 2, parts }` (what Mastra 1.71 hands a scorer).
   * Read the text of any of the three with `outputText(message)`.
   */
  content: string | AgentMessagePart[] | AgentMessageContent
  createdAt?: Date | string | undefined
}

/** A system message given to an agent. */
export interface AgentSystemMessage {
  role: 'system'
  content: unknown
}

/** A message an agent was given as context; Mastra types `systemMessages` as any role's message. */
export interface AgentContextMessage {
  role: AgentMessageRole
  content: unknown
}

/** The input of a `type: 'agent'` scorer (Mastra's `ScorerRunInputForAgent`). */
export interface ScorerRunInputForAgent {
  inputMessages: AgentMessage[]
  rememberedMessages: AgentMessage[]
  /** Mastra types these as messages of any role (`CoreMessage[]`). */
  systemMessages: AgentContextMessage[]
  taggedSystemMessages: Record<string, AgentSystemMessage[]>
}

/** The output of a `type: 'agent'` scorer: the messages the agent produced. */
export type ScorerRunOutputForAgent = AgentMessage[]

/** Infers a prompt step's result type from its output schema (text without one). */
export type PromptStepValue<Schema> = Schema extends StandardSchemaV1 ? InferOutput<Schema> : string
