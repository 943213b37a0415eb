import type { JudgeCall, Verdict } from '../records/records'

/** What a scorer's `run()` returns, as far as the loop reads it. */
export interface LoopScorerResult {
  score?: number | undefined
  reason?: string | undefined
  /** Set by rubric scorers: whether every required criterion is met. Wins over `score`. */
  passed?: boolean | undefined
  verdicts?: Verdict[] | undefined
  judgeCalls?: JudgeCall[] | undefined
  notScorable?: { step?: string | undefined; reason?: string | undefined } | undefined
  /** Set by a rubric scorer that found no rubric: the loop refuses it. */
  noRubric?: boolean | undefined
  // No index signature: a scorer's own result type (Mastra's, say) has none, and would not fit.
}

/** Anything with a `run()`: a scorer built with `createScorer` or `createRubricScorer`, or your own. */
export interface LoopScorer {
  id?: string | undefined
  name?: string | undefined
  // `any`, not `unknown`: scorers type their run (a `type: 'agent'` scorer takes agent messages,
  // a generic one its own input and output), and a parameter typed `unknown` here would reject
  // them. The loop hands them what it has; nothing is checked at run time, as in Mastra.
  run(run: {
    input?: any
    output: any
    requestContext?: any
  }): Promise<LoopScorerResult> | LoopScorerResult
}

/** One scorer's outcome in one completion check. */
export interface ScorerCheck {
  /** The scorer's `id`, else its `name`, else `scorer <n>`. */
  id: string
  score?: number | undefined
  /** Rubric scorers: their `passed`; other scorers: `score >= 1`. */
  passed: boolean
  /** The scorer threw or did not finish within `checkTimeout`. */
  errored: boolean
  /** The scorer did not finish within `checkTimeout`. */
  timedOut: boolean
  reason?: string | undefined
  /** What the scorer threw. */
  error?: unknown
  /** The scorer's full result, when it returned one. */
  result?: LoopScorerResult | undefined
  durationMs: number
}

/** The outcome of running the scorers on one iteration's output. */
export interface CompletionCheck {
  /** 1 for the first iteration. */
  iteration: number
  /** The scorers passed as the strategy requires, and no scorer timed out. */
  complete: boolean
  /** One entry per scorer that ran (sequential checks stop early; skipped scorers are left out). */
  scorers: ScorerCheck[]
  /** The check did not finish within `checkTimeout`. */
  timedOut: boolean
  /** What the agent is told next: the failing scorers' reasons. Undefined when complete. */
  feedback: string | undefined
  durationMs: number
}

/** One agent call and the check of its output. */
export interface LoopIteration<Output = unknown> {
  output: Output
  check: CompletionCheck
}

/** What the agent function receives on each iteration. */
export interface AgentTurn<Input = unknown, Output = unknown> {
  input: Input
  /** 1 for the first call. */
  iteration: number
  /** The previous check's feedback; undefined on the first call. */
  feedback: string | undefined
  /** The earlier iterations, oldest first. */
  history: readonly LoopIteration<Output>[]
  /**
   * The loop as one conversation, to continue it instead of writing a fresh prompt: the task (the
   * input as `taskText` reads it) as a user message, then each earlier output as an assistant
   * message followed by its feedback as a user message (none under `suppressFeedback`). The AI
   * SDK's `messages` take it as it is.
   */
  messages: readonly LoopMessage[]
  /** The loop's signal (aborts when `signal` does); pass it to your model calls. */
  signal: AbortSignal | undefined
}

/** One message of {@link AgentTurn.messages}. */
export interface LoopMessage {
  role: 'user' | 'assistant'
  content: string
}

/**
 * What scorers get as `input` with `completionContext: true`: Mastra's `isTaskComplete` context, so
 * that scorers written for it (reading `run.input.originalTask`) run unchanged.
 */
export interface CompletionContext {
  iteration: number
  maxIterations: number
  /** The conversation so far, this iteration's output last. */
  messages: readonly LoopMessage[]
  /** The task's text (`'Unknown task'` when the input has none). */
  originalTask: string
  /** This iteration's output, as text. */
  primitiveResult: string
  /** The loop's `requestContext`. */
  customContext?: unknown
}

/** Options of {@link runUntilComplete}. */
export interface RunUntilCompleteOptions<Input = unknown, Output = unknown> {
  /** Scorers that decide whether the task is complete. */
  scorers: readonly LoopScorer[]
  /** `'all'` scorers must pass (none: complete), or `'any'` one of them (none: never complete). Default `'all'`. */
  strategy?: 'all' | 'any' | undefined
  /** Most agent calls. Default `5`. */
  maxSteps?: number | undefined
  /** Passed to the agent, and to every scorer as `input` (unless `completionContext`). */
  input?: Input | undefined
  /**
   * Give scorers Mastra's completion context as `input` ({@link CompletionContext}: iteration,
   * messages, originalTask...) instead of `input` as given, and the output as text, as Mastra's
   * `isTaskComplete` does. Default `false`.
   */
  completionContext?: boolean | undefined
  /** Passed to every scorer as `requestContext` (a plain object or anything with `get()`). */
  requestContext?: unknown
  /** Run the scorers of a check at once (default `true`), or one by one, stopping at the first that decides. */
  parallel?: boolean | undefined
  /** Milliseconds a check may take; scorers still running then count as errored and the check is not complete. Default `600000`. */
  checkTimeout?: number | undefined
  /** Aborts the loop: the agent call or check in progress rejects with the signal's reason. */
  signal?: AbortSignal | undefined
  /** Mastra's `suppressFeedback`: call the agent again without the failing scorers' reasons (`feedback` stays undefined). Default `false`. */
  suppressFeedback?: boolean | undefined
  /** Called after every check, complete or not. */
  onCheck?: ((check: CompletionCheck, output: Output) => void | Promise<void>) | undefined
}

/** What {@link runUntilComplete} resolves to. */
export interface RunUntilCompleteResult<Output = unknown> {
  /** The last check passed. */
  complete: boolean
  /** The last iteration's output. */
  output: Output
  iterations: LoopIteration<Output>[]
  /** The last check's feedback; undefined when complete. */
  feedback: string | undefined
}

/** The agent: called with the task and the feedback of the last check until the scorers pass. */
export type LoopAgent<Input = unknown, Output = unknown> = (
  turn: AgentTurn<Input, Output>,
) => Output | Promise<Output>
