/**
 * Shapes that cross module boundaries (ARCHITECTURE.md §3). Everything here is plain data: records
 * travel from a Vitest worker to the reporter inside `task.meta`, so they must survive JSON.
 */

/** Token counts reported by a judge for one call. */
export interface TokenUsage {
  inputTokens: number
  outputTokens: number
  totalTokens: number
}

/** A JSON Schema object, as sent to the judge in `response_format` or in the prompt. */
export type JsonSchema = { [key: string]: unknown }

/** One request to a judge model: a system message, a user prompt and an optional output schema. */
export interface JudgeRequest {
  system?: string | undefined
  prompt: string
  schema?: JsonSchema | undefined
  schemaName?: string | undefined
  seed?: number | undefined
  temperature?: number | undefined
}

/** What a judge model answers: the raw text, plus usage and model id when known. */
export interface JudgeReply {
  text: string
  /**
   * Set when the model refused to answer (OpenAI's `message.refusal`). A refusal is never read as
   * a verdict, whatever `text` holds: the reply goes through the repair attempt, then fails.
   */
  refusal?: string | undefined
  usage?: TokenUsage | undefined
  model?: string | undefined
}

/** Options passed to every {@link JudgeModel.complete} call. */
export interface JudgeCompleteOptions {
  signal?: AbortSignal | undefined
}

/**
 * A judge model: anything that turns a {@link JudgeRequest} into a {@link JudgeReply}.
 * Implement it to use a provider that does not speak the OpenAI protocol.
 */
export interface JudgeModel {
  id: string
  complete(request: JudgeRequest, options: JudgeCompleteOptions): Promise<JudgeReply>
}

/** How a judge is asked for structured output. ARCHITECTURE.md §4.2. */
export type StructuredOutputMode = 'auto' | 'json_schema' | 'prompt'

/**
 * An OpenAI-compatible endpoint used as a judge (OpenAI, Azure, Ollama, vLLM, OpenRouter...).
 */
export interface OpenAICompatibleJudge {
  /** The model name sent to the endpoint, e.g. `gpt-4.1-mini`. */
  model: string
  /** Base URL of the endpoint. Default: `OPENAI_BASE_URL`, else the OpenAI API. */
  baseURL?: string | undefined
  /** API key. Default: `OPENAI_API_KEY`. */
  apiKey?: string | undefined
  /** Extra headers sent with every request (e.g. Azure's `api-key`). Never stored in cassettes. */
  headers?: Record<string, string> | undefined
  /** Extra query parameters sent with every request (e.g. Azure's `api-version`). */
  query?: Record<string, string> | undefined
  /** Sampling temperature. Sent only when set: reasoning models reject a non-default value. */
  temperature?: number | undefined
  /** How structured output is requested. Default `'auto'`. */
  structuredOutput?: StructuredOutputMode | undefined
  /** Mastra's name for prompt-mode structured output: `true` and `'inline'` put the schema in the user message, `'system'` in the system message; `false` is `'json_schema'`. */
  jsonPromptInjection?: boolean | 'auto' | 'inline' | 'system' | undefined
  /** Retries of transient failures (408, 409, 429, 5xx, connection errors, timeouts). Default `2`. */
  maxRetries?: number | undefined
  /** Timeout of each request (each retry has its own), in milliseconds. Default `60000`. */
  timeoutMs?: number | undefined
  /**
   * Hard bound on one judge call, every request, retry and wait between them included, in
   * milliseconds, on the real clock (fake timers and garbage collection do not stop it). Default
   * `120000`: a judge that never answers fails its call within two minutes, even with
   * `--testTimeout=0`.
   */
  deadlineMs?: number | undefined
}

/**
 * Mastra's model config: `id` is `'<provider>/<model>'`; `url` and `apiKey` replace the
 * provider's default base URL and key variable.
 */
export interface MastraModelConfig {
  id: string
  url?: string | undefined
  apiKey?: string | undefined
  headers?: Record<string, string> | undefined
}

/**
 * An AI SDK language model (specification v2 or v3), as a provider package builds it:
 * `createOpenAI(...).chat('gpt-4.1-mini')`, `anthropic('claude-sonnet-4-5')`. Only these members
 * are read, so no provider package is imported by rubricate.
 */
export interface AiSdkLanguageModel {
  readonly specificationVersion: string
  readonly provider: string
  readonly modelId: string
  doGenerate(options: any): PromiseLike<unknown>
}

/**
 * Every way to name a judge: `'<provider>/<model>'` (openai, anthropic, google, groq, mistral,
 * deepseek, xai, openrouter, together, fireworks, ollama), Mastra's `{ id, url, apiKey, headers }`,
 * an OpenAI-compatible endpoint, an AI SDK language model, or a custom model.
 */
export type JudgeInput =
  | string
  | OpenAICompatibleJudge
  | MastraModelConfig
  | AiSdkLanguageModel
  | JudgeModel

/** Where a judge reply came from. */
export type JudgeCallSource = 'replayed' | 'recorded' | 'live'

/** The scorer step a judge call belongs to. */
export type ScorerStepName = 'preprocess' | 'analyze' | 'generateScore' | 'generateReason'

/** One logical judge call of one scorer step. */
export interface JudgeCall {
  step: ScorerStepName
  model: string
  status: 'success' | 'failed'
  /** Served from a cassette, made live and recorded, or made live without cassettes. */
  source: JudgeCallSource
  cassetteKey?: string | undefined
  /** The cassette entry's file, relative to the cassette folder (`/` separators). */
  cassetteFile?: string | undefined
  usage?: TokenUsage | undefined
  durationMs: number
  /** 1 + repair attempts (invalid output fed back to the judge). */
  attemptCount: number
  /** HTTP requests made, retries included. */
  modelCallCount: number
  /**
   * Requests sent live (to the provider, or to a custom judge model), retries and failed ones
   * included: what `maxLiveCalls` counts. 0 when every reply was replayed, or when the call
   * stopped before sending anything (a cassette miss, a limit). Absent in records of older runs.
   */
  liveRequestCount?: number | undefined
}

/** The judge's verdict on one rubric criterion. */
export interface Verdict {
  /** `'c1'`, `'c2'`, ... in rubric order. */
  id: string
  criterion: string
  required: boolean
  satisfied: boolean
  reasoning: string
  /** With `samples > 1`: how many samples judged the criterion satisfied. */
  agreement?: { satisfied: number; total: number } | undefined
  /**
   * Set only under `scoring: 'fraction'`: the criterion's weight in the share. There, `required`
   * means marked required (a gate); the others only count in the share.
   */
  weight?: number | undefined
}

/**
 * A tool-call assertion (`toHaveCalledTool`, `toHaveToolCalls`), kept in the test's
 * `meta.rubricateToolCalls` for the report page. Arguments are text: an expected one may hold
 * an asymmetric matcher, shown as it prints.
 */
export interface ToolCallAssertionRecord {
  matcher: 'toHaveCalledTool' | 'toHaveToolCalls'
  /** Of the assertion as written, `.not` applied. */
  status: 'pass' | 'fail'
  negated: boolean
  /** The calls asked for; `args` absent: any arguments. */
  expected: { name: string; args?: string | undefined }[]
  /** Every call the output holds, in order. */
  actual: { name: string; args: string }[]
}

/** One assertion's outcome, stored in `task.meta.rubricate` (plain JSON). */
export interface RubricateRecord {
  v: 1
  kind: 'rubric' | 'scorer' | 'loop' | 'calibration'
  /** Of the assertion as written, `.not` applied. */
  status: 'pass' | 'fail' | 'error'
  negated: boolean
  score?: number | undefined
  threshold?: number | undefined
  /** `'max'`: a lower-is-better score (`toPassScorer`'s `direction`), passing at or under `threshold`. */
  direction?: 'max' | undefined
  /**
   * A multi-turn eval row (`describeEval` with `turns` or a simulated user): the turn (from 1)
   * this assertion judged; absent for one that judged the whole conversation.
   */
  turn?: number | undefined
  /** A rubric scored with `scoring: 'fraction'`: the weighted share of criteria met, 0 to 1. */
  share?: number | undefined
  /** A scorer result's `metadata` (autoevals' rationale, say), as the scorer returned it. */
  metadata?: Record<string, unknown> | undefined
  /** `toPassScorer([a, b])`: how the scorers were combined, and each one's outcome. */
  aggregate?: 'all' | 'mean' | undefined
  scorers?: ScorerPartRecord[] | undefined
  verdicts?: Verdict[] | undefined
  reason?: string | undefined
  error?: { code: string; message: string } | undefined
  judgeCalls: JudgeCall[]
  durationMs: number
  /** First 200 characters of the judged text. */
  outputPreview: string
  /**
   * The judged text, its first `RECORDED_TEXT_LIMIT` (4,000) characters, for the report page;
   * absent when it is empty. `outputLength` gives the whole length when it was cut.
   */
  output?: string | undefined
  /** The judged text's length, set only when `output` holds less than all of it. */
  outputLength?: number | undefined
  /**
   * The task the output answers (the `input` option, as the judge reads it: `taskText`), its
   * first `RECORDED_TEXT_LIMIT` characters; absent when none was given or it reads as no text.
   */
  input?: string | undefined
  /** The task's length, set only when `input` holds less than all of it. */
  inputLength?: number | undefined
  /**
   * A `describeEval` row run in several trials: the trial (from 1) whose output this assertion
   * judged; absent when the row runs once.
   */
  trial?: number | undefined
  /**
   * Where the assertion is written in its test file, for one that failed or errored: GitHub
   * annotations point there.
   */
  location?: { line: number; column: number } | undefined
  /** Scorer id for `kind: 'scorer'`; loop details for `kind: 'loop'`. */
  scorerId?: string | undefined
  iterations?: LoopIterationRecord[] | undefined
  /**
   * `kind: 'loop'`: identifies one `runUntilComplete` call. The loop emits a record after every
   * check, each holding all iterations so far; a later record with the same `loopId` replaces the
   * earlier one, so `task.meta.rubricate` holds one record per loop.
   */
  loopId?: string | undefined
  /** `kind: 'calibration'`: the judge's agreement with a labelled set. */
  calibration?: CalibrationRecord | undefined
}

/** What a `toAgreeWithLabels` assertion measured, as recorded for the reporter. */
export interface CalibrationRecord {
  /** The judge's model name. */
  judge: string
  /** The labelled set, as given. */
  labels: string
  examples: number
  samples: number
  overall: AgreementMetrics
  selfAgreement?: SelfAgreement | undefined
  criteria: { criterion: string; required: boolean; metrics: AgreementMetrics }[]
  /** The thresholds the assertion was given. */
  thresholds: CalibrationThresholds
  /** The thresholds that were not met, as sentences; empty when the assertion passed. */
  failures: string[]
  /** How many judgements disagree with their labels. */
  disagreementCount: number
  /** The worst disagreements (at most 5), worst first. */
  disagreements: {
    where: string
    criterion: string
    kind: 'false pass' | 'false fail'
    reasoning: string
    output: string
    note?: string | undefined
  }[]
}

/** The gates of a calibration. A rate is compared by its point estimate. */
export interface CalibrationThresholds {
  /** Fail when Cohen's κ is below this, or undefined. */
  minKappa?: number | undefined
  /** Fail when the false-pass rate is above this, or cannot be measured (no label unmet). */
  maxFalsePass?: number | undefined
  /** Fail when the false-fail rate is above this, or cannot be measured (no label met). */
  maxFalseFail?: number | undefined
  /** Fail when the accuracy is below this. */
  minAccuracy?: number | undefined
}

/** One scorer of a `toPassScorer([a, b])` assertion. */
export interface ScorerPartRecord {
  id: string
  passed: boolean
  score?: number | undefined
  threshold?: number | undefined
  reason?: string | undefined
  share?: number | undefined
  metadata?: Record<string, unknown> | undefined
  verdicts?: Verdict[] | undefined
}

/** One iteration of a `runUntilComplete` loop, as recorded for the reporter. */
export interface LoopIterationRecord {
  iteration: number
  complete: boolean
  outputPreview: string
  scorers: {
    id: string
    score?: number | undefined
    passed: boolean
    errored: boolean
    reason?: string | undefined
    /** Rubric scorers: the criteria that held the iteration back (required ones unmet). */
    unmet?: string[] | undefined
  }[]
}

/** A cassette miss in replay mode, as recorded for the reporter. */
export interface CassetteMissRecord {
  key: string
  /** `chat/completions`, `responses`, ... */
  endpoint: string
  model?: string | undefined
  /** Full name of the test that missed, when known. */
  test?: string | undefined
  /** The miss error's full message. */
  message: string
}

/**
 * What one test file did with cassettes. The setup file stores it in the file task's
 * `meta.rubricateCassettes`, so it survives sharding and `--merge-reports`.
 */
export interface CassetteUsageRecord {
  mode: 'replay' | 'auto' | 'record' | 'off'
  /** Absolute path of the cassette folder. */
  dir: string
  /** Keys of every entry served or recorded while the file ran. */
  used: string[]
  misses: CassetteMissRecord[]
  /** The agents' own model calls while the file ran (absent in records of older runs). */
  agentCalls?: AgentCallCounts | undefined
  /**
   * The `cassettes.match` patterns in effect, those that matched a request, and the calls (host
   * and path) that were model calls only by their provider host: a pattern that matched nothing
   * in a run with such calls is reported (absent when there were neither patterns nor such calls).
   */
  patterns?: { configured: string[]; matched: string[]; hostOnly: string[] } | undefined
}

/**
 * The agents' model calls of one test file, by what each turned out to be: served from a
 * cassette, made live and recorded, made live without being recorded (mode `off`, or a reply that
 * is never recorded, such as a 429), or failed without a reply (a replay miss, a failed
 * connection, a recording refused).
 */
export interface AgentCallCounts {
  replayed: number
  recorded: number
  live: number
  failed: number
  /**
   * Tokens of those calls, from each format's usage fields (streams included): replayed, and live
   * (recorded or not). Absent in records of older runs.
   */
  tokens?: { live: number; replayed: number } | undefined
}

/** The test an assertion or a model call belongs to; passed down so messages name the right test. */
export interface TestIdentity {
  /** Absolute path of the test file. */
  file: string
  /** Full name, `suite > test`. */
  name: string
  /** Vitest task id, when known. */
  id?: string | undefined
}

// Agreement of a judge with human labels (computed in calibrate/agreement-metrics.ts).

/** A proportion with its Wilson 95% interval; `value` and `interval` are `null` when `n` is 0. */
export interface Rate {
  /** How many of the `n` cases counted. */
  count: number
  /** The denominator. */
  n: number
  value: number | null
  /** Wilson score interval at 95% (z = 1.96). */
  interval: { low: number; high: number } | null
}

/**
 * The four cells of a judge-against-label table. "Pass" is the judge's verdict "met", "fail" its
 * "unmet"; "true" and "false" say whether the human label agrees.
 */
export interface AgreementCounts {
  /** Judge met, label met. */
  truePass: number
  /** Judge met, label unmet: the dangerous error for a test tool (a broken output passes). */
  falsePass: number
  /** Judge unmet, label met. */
  falseFail: number
  /** Judge unmet, label unmet. */
  trueFail: number
}

/** Agreement of one judge with the labels, over one criterion or over all of them. */
export interface AgreementMetrics {
  /** Labelled judgements. */
  n: number
  counts: AgreementCounts
  /** Judgements where the judge agrees with the label, out of `n`. */
  accuracy: Rate
  /**
   * Cohen's κ between judge and labels, or `null` when it is undefined: with no judgement, or when
   * chance agreement is 1 (every label and every verdict the same value, which n = 1 always is);
   * `kappaUndefined` says why.
   */
  kappa: number | null
  kappaUndefined?: string | undefined
  /** Judge met among the judgements labelled unmet: `falsePass / (falsePass + trueFail)`. */
  falsePass: Rate
  /** Judge unmet among the judgements labelled met: `falseFail / (falseFail + truePass)`. */
  falseFail: Rate
}

/** How consistently a judge answered with `samples > 1`. */
export interface SelfAgreement {
  samples: number
  /** Judgements on which every sample gave the same verdict. */
  unanimous: Rate
  /** Share of pairs of samples of one judgement that agree, averaged over judgements. */
  pairwise: number | null
}
