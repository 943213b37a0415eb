import type { RubricCriteriaInput, ScorerLike } from '../matchers/types'
import type { ConversationMessage } from '../src/conversation/simulated-user'
import type { JudgeInput } from '../src/records/records'

export type { ConversationMessage }

/** One scripted turn of a multi-turn row: the user's message and what its reply must satisfy. */
export interface EvalTurn {
  /** The user's message. */
  input: unknown
  /** A reference answer for this turn's rubric judge. */
  expected?: unknown
  /** A rubric this turn's reply must satisfy (besides the eval's `turnCriteria`). */
  criteria?: RubricCriteriaInput | undefined
}

/** What the task is given at each turn of a multi-turn row, besides the row. */
export interface EvalConversation {
  /** The turn, from 1. */
  turn: number
  /** This turn's user message. */
  input: unknown
  /** The conversation so far, this turn's user message last. */
  messages: readonly ConversationMessage[]
}

/**
 * A simulated user: a second model, with instructions of its own, that plays the user of every
 * row without `turns` until its goal (`row.goal`) is reached, `stop` says so, or `maxTurns`.
 * Its calls go through the judge's path, so they are recorded in the cassettes and replayed.
 */
export interface SimulatedUserOptions<Row extends EvalRow = EvalRow> {
  /** Who the user is and how they write: a text, or a function of the row. */
  instructions: string | ((row: Row) => string)
  /** The model that plays the user. Default: the judge configured for the run. */
  model?: JudgeInput | undefined
  /** The most turns (user message and reply) a conversation may have. Default `5`. */
  maxTurns?: number | undefined
  /** Called after each reply: `true` ends the conversation. */
  stop?: ((messages: readonly ConversationMessage[]) => boolean) | undefined
}

/**
 * One row of an eval's data. `input` is what the task gets and the judge is shown; `expected`,
 * `groundTruth` and `context` are passed on to the scorers; `name` names the row's test. A CSV
 * row holds strings; other fields are kept and reach `task` as they are.
 */
export interface EvalRow {
  input?: unknown
  expected?: unknown
  groundTruth?: unknown
  context?: unknown
  name?: string | undefined
  /** A scripted conversation: the task runs once per turn, with the conversation so far. */
  turns?: readonly EvalTurn[] | undefined
  /** With a simulated user: the goal it pursues. */
  goal?: string | undefined
  [field: string]: unknown
}

/** Where the rows come from: a list, a function that returns one, or a `.json`/`.jsonl`/`.csv` file. */
export type EvalData<Row extends EvalRow = EvalRow> =
  | readonly Row[]
  | (() => readonly Row[] | Promise<readonly Row[]>)
  | string
  | URL

/** What a scorer function is given for one row. */
export interface EvalScorerArgs<Row extends EvalRow = EvalRow, Output = unknown> {
  input: Row['input']
  /**
   * The task's output; for a multi-turn row, the whole conversation as messages (a user message
   * then its reply, turn by turn), from which `toolCalls()` and `trajectoryText()` read the calls
   * of every turn's reply.
   */
  output: Output
  expected: Row['expected']
  groundTruth: Row['groundTruth']
  context: Row['context']
  row: Row
}

/** What a scorer function returns: a score, a score with metadata, or `null` to skip the row. */
export type EvalScorerResult =
  | number
  | { score: number; metadata?: Record<string, unknown> | undefined }
  | null

/**
 * A scorer function, the shape evalite and autoevals scorers have. Its name (or `id`) names it in
 * the report. `metadata.rationale` (or `metadata.reason`) is shown as its reason.
 */
export type EvalScorerFn<Row extends EvalRow = EvalRow, Output = unknown> = (
  args: EvalScorerArgs<Row, Output>,
) => EvalScorerResult | Promise<EvalScorerResult>

/** A scorer of an eval: one from `createScorer`/`createRubricScorer`, or a function. */
export type EvalScorer<Row extends EvalRow = EvalRow, Output = unknown> =
  | ScorerLike
  | EvalScorerFn<Row, Output>

/**
 * A scorer with gates of its own: the score each row must reach (`threshold`), whether lower is
 * better (`direction: 'max'`), a gate on its mean over the suite (`mean`), and its weight in the
 * eval's weighted `mean` gate.
 *
 * @example
 * { scorer: hallucinationRate, direction: 'max', threshold: 0.5, mean: 0.2 }
 */
export interface EvalScorerGate<Row extends EvalRow = EvalRow, Output = unknown> {
  scorer: EvalScorer<Row, Output>
  /** The score it must reach on each row (at most, with `direction: 'max'`). Default: the eval's `threshold`. */
  threshold?: number | undefined
  /** `'max'`: lower is better (a hallucination or toxicity rate); `threshold` is then required. Default `'min'`. */
  direction?: 'min' | 'max' | undefined
  /**
   * The lowest and highest score it gives. A score outside it (or not a finite number) makes the
   * row an error. Default: the scorer's own `range` property, else `[0, 1]`.
   */
  range?: readonly [min: number, max: number] | undefined
  /** The suite's gate on its mean score over every scored trial (at most, with `direction: 'max'`). */
  mean?: number | undefined
  /** The share of trials its `mean` gate needs scored (skips leave trials out). Default: the eval's `minCoverage`. */
  minCoverage?: number | undefined
  /** Its weight in the eval's weighted `mean` gate. Default `1`. */
  weight?: number | undefined
}

/** Options of {@link describeEval}. */
export interface DescribeEvalOptions<Row extends EvalRow = EvalRow, Output = unknown> {
  /** The rows: a list, a function returning one, or the path of a `.json`, `.jsonl` or `.csv` file (relative to the test file). */
  data: EvalData<Row>
  /**
   * Produces the output to judge from a row (your agent, prompt or pipeline). For a multi-turn
   * row (`turns`, or a simulated user) it runs once per turn and is given the conversation so far.
   */
  task: (row: Row, conversation: EvalConversation) => Output | Promise<Output>
  /** A rubric every output must satisfy, or a function of the row that returns one. */
  criteria?: RubricCriteriaInput | ScorerLike | ((row: Row) => RubricCriteriaInput) | undefined
  /** Scorers that judge each output; each must reach `threshold` (its own, in a gate entry). */
  scorers?: readonly (EvalScorer<Row, Output> | EvalScorerGate<Row, Output>)[] | undefined
  /** The score each scorer must reach on a row. Default `1` (a rubric scorer: its own `passed`). */
  threshold?: number | undefined
  /**
   * The suite's gate: the share of rows that must pass. Default `1` (every row). Below 1, a failing
   * row's test passes and is marked as tolerated, and the suite fails when the share of passing
   * rows falls under the gate.
   */
  passRate?: number | undefined
  /**
   * A gate on the weighted mean of every scorer's mean score (the rubric of `criteria` counts with
   * weight 1; a `direction: 'max'` scorer counts as `1 - mean`; a scorer with a `range` counts as
   * its share of it). The suite fails under it.
   */
  mean?: number | undefined
  /**
   * The share of trials (rows times `trials`) a mean gate needs scored to be met; a scorer that
   * returns `null` leaves a trial unscored. Default `1`: every trial, so that a mean over the few
   * rows a scorer chose cannot stand for the dataset. Lower it when skipped rows are expected.
   */
  minCoverage?: number | undefined
  /** A rubric every reply of a multi-turn row must satisfy, judged turn by turn. */
  turnCriteria?: RubricCriteriaInput | undefined
  /** Plays the user of multi-turn rows that have no `turns` of their own. */
  simulatedUser?: SimulatedUserOptions<Row> | undefined
  /** Run each row's task this many times, each trial recorded apart. Default `1`. */
  trials?: number | undefined
  /** The share of a row's trials that must pass for the row to pass. Default `1` (every trial). */
  trialPassRate?: number | undefined
  /** Run the rows as `test.concurrent` (at most `maxConcurrency` at once). Default `false`. */
  concurrent?: boolean | undefined
  /** Timeout of each row's test in milliseconds. Default: Vitest's `testTimeout`. */
  timeout?: number | undefined
}
