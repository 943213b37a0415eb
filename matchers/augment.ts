import type {} from 'vitest'
import type {
  ExpectedToolCall,
  LabelsInput,
  RubricCriteriaInput,
  ScorerLike,
  ToAgreeWithLabelsOptions,
  ToBeGroundedInOptions,
  ToBePreferredOverOptions,
  ToBeSemanticallySimilarToOptions,
  ToBeSimilarByEditDistanceOptions,
  ToHaveToolCallsOptions,
  ToMatchTrajectoryOptions,
  ToPassScorerOptions,
  ToSatisfyRubricOptions,
} from './types'

// Typed on `Assertion`, not `Matchers`: the asymmetric form (`expect.toSatisfyRubric`) cannot work
// for async matchers, so it must not type-check. Both return `Promise<void>` so that lint rules
// against floating promises catch a missing `await`. Declared without type parameters: Vitest 4
// declares `Assertion<T = any>` and Vitest 5 `Assertion<R = void, T = unknown>`, and a merging
// declaration must repeat them exactly (TS2428) or, as here, declare none, which both accept.
declare module 'vitest' {
  interface Assertion {
    /**
     * Ask the judge whether the value satisfies every required criterion of a rubric.
     * `.not` passes when at least one required criterion is unmet. Must be awaited.
     *
     * @example
     * await expect(reply).toSatisfyRubric('- Acknowledges the double charge\n- (optional) Gives a timeframe')
     */
    toSatisfyRubric(
      criteria: RubricCriteriaInput | ScorerLike,
      options?: ToSatisfyRubricOptions,
    ): Promise<void>
    /**
     * Run a scorer on the value; passes when its score reaches the threshold (default `1`).
     * A list of scorers passes when each does (`aggregate: 'all'`) or their mean reaches the
     * threshold (`'mean'`). Must be awaited.
     */
    toPassScorer(
      scorer: ScorerLike | readonly ScorerLike[],
      options?: ToPassScorerOptions,
    ): Promise<void>
    /**
     * The agent called the tool `name`, with arguments holding `args` when given. Reads an OpenAI
     * chat completion or Responses object, an AI SDK result or its steps, a Mastra agent result,
     * or a list of messages. Synchronous: no judge is called.
     *
     * @example
     * expect(result).toHaveCalledTool('lookup_order', { id: 'A1' })
     */
    toHaveCalledTool(name: string, args?: unknown): void
    /**
     * The agent made exactly these tool calls (in this order unless `ordered: false`; arguments
     * compared as a subset unless `args: 'exact'`). Synchronous: no judge is called.
     */
    toHaveToolCalls(expected: readonly ExpectedToolCall[], options?: ToHaveToolCallsOptions): void
    /**
     * The agent's tool calls match a reference trajectory (a message list or result of any shape
     * the tool-call matchers read, or a list of `{ name, args? }` calls or tool names), in
     * `mode` `'strict'` (default), `'unordered'`, `'subset'` or `'superset'`. Synchronous: no
     * judge is called.
     *
     * @example
     * expect(result).toMatchTrajectory(reference.messages, { mode: 'unordered', args: 'exact' })
     */
    toMatchTrajectory(reference: unknown, options?: ToMatchTrajectoryOptions): void
    /**
     * The run is paused: a LangGraph state, snapshot or stream stopped at `interrupt()`, or an
     * OpenAI Agents SDK run stopped for tool approvals. Synchronous: no judge is called.
     *
     * @example
     * expect(await graph.invoke(input, config)).toHaveBeenInterrupted()
     */
    toHaveBeenInterrupted(): void
    /**
     * The run's structured response (LangGraph `structuredResponse`, LangChain `{ raw, parsed }`,
     * an Agents SDK structured `finalOutput`, AI SDK `output`/`object`, Mastra `object`) matches a
     * zod or other Standard Schema, or deep-equals a value. Synchronous: no judge is called.
     */
    toHaveStructuredResponse(expected: unknown): void
    /**
     * A call of the tool `name` returned `result` (deep-equal), or any result when it is left
     * out. Synchronous: no judge is called.
     */
    toHaveToolResult(name: string, result?: unknown): void
    /**
     * Calibrate the judge under test against human labels: passes when Cohen's κ, the false-pass
     * rate and the others meet the thresholds given. Must be awaited; has no `.not`.
     *
     * @example
     * await expect('openai/gpt-4.1-mini').toAgreeWithLabels('evals/labels.jsonl', { minKappa: 0.6, maxFalsePass: 0.1 })
     */
    toAgreeWithLabels(labels: LabelsInput, options?: ToAgreeWithLabelsOptions): Promise<void>
    /**
     * The value's embedding is close to `expected`'s (cosine at least `threshold`, default 0.8).
     * The embedding calls are recorded and replayed. Must be awaited.
     *
     * @example
     * await expect(reply).toBeSemanticallySimilarTo('Your refund is on its way.', { embedder: 'openai/text-embedding-3-small' })
     */
    toBeSemanticallySimilarTo(
      expected: string,
      options: ToBeSemanticallySimilarToOptions,
    ): Promise<void>
    /** The value is close to `expected` by normalised edit distance (default 0.8); no model is called. Must be awaited. */
    toBeSimilarByEditDistance(
      expected: string,
      options?: ToBeSimilarByEditDistanceOptions,
    ): Promise<void>
    /**
     * Every claim of the value is supported by `context` (or the share given as `threshold`); a
     * failure names the unsupported claims. One judge call. Must be awaited.
     *
     * @example
     * await expect(reply).toBeGroundedIn(retrievedDocs, { input: question })
     */
    toBeGroundedIn(context: unknown, options?: ToBeGroundedInOptions): Promise<void>
    /**
     * The judge prefers the value over `baseline` on `criteria`, asked twice with the order
     * swapped: a preference counts only when both orders agree. Must be awaited.
     *
     * @example
     * await expect(newReply).toBePreferredOver(oldReply, 'More helpful and accurate', { input: question })
     */
    toBePreferredOver(
      baseline: unknown,
      criteria: string,
      options?: ToBePreferredOverOptions,
    ): Promise<void>
    /**
     * The model calls given (`modelCalls()` from `rubricate`) stay within every limit of `budget`.
     * Replayed, the recorded figures count. Must be awaited.
     *
     * @example
     * await expect(modelCalls({ caller: 'agent' })).toStayWithinBudget({ maxCalls: 3, maxTokens: 5000 })
     */
    toStayWithinBudget(budget: import('../src/budget/budget').Budget): Promise<void>
  }
  interface TaskMeta {
    /** One record per rubricate assertion of the test. */
    rubricate?: import('../src/records/records').RubricateRecord[]
    /** On a file task: the cassette usage of that test file. */
    rubricateCassettes?: import('../src/records/records').CassetteUsageRecord
  }
}
