import { UsageError } from '../errors'
import { type InferOutput, prepareSchema, type StandardSchemaV1 } from '../judge/output-schema'
import { messages } from '../messages'
import type { ScorerStepName } from '../records/records'
import { checkPromptStep, checkScorerOptions } from './check-scorer-options'
import type { NotScorable } from './not-scorable'
import { runPipeline } from './run-pipeline'
import type { StepDefinition } from './step-internals'
import type {
  FunctionStep,
  PromptStep,
  ReasonStepContext,
  ScorePromptStep,
  ScorerJudgeOptions,
  ScorerOptions,
  ScorerResult,
  ScorerRun,
  ScorerRunInputForAgent,
  ScorerRunOutputForAgent,
  StepContext,
  StepValue,
} from './types'

/** A scorer's identity and judge, as Mastra exposes it on `scorer.config`. */
export interface ScorerConfig {
  id: string
  name: string
  description: string
  judge?: ScorerJudgeOptions | undefined
  type?: 'agent' | undefined
}

/**
 * A scorer built with {@link createScorer}. The builder is immutable: each step method returns a
 * new scorer. `TPre` and `TAnalyze` are what the preprocess and analyze steps produce.
 */
export class Scorer<TInput = any, TOutput = any, TPre = undefined, TAnalyze = undefined> {
  readonly id: string
  readonly name: string
  readonly description: string
  readonly type: 'agent' | undefined
  readonly config: ScorerConfig
  readonly #options: ScorerOptions<TInput, TOutput>
  readonly #steps: readonly StepDefinition[]

  /** @internal Use {@link createScorer}. */
  constructor(options: ScorerOptions<TInput, TOutput>, steps: readonly StepDefinition[] = []) {
    if (typeof options !== 'object' || options === null || Array.isArray(options)) {
      throw new UsageError(messages.configNotObject('createScorer()', options))
    }
    if (typeof options.id !== 'string' || options.id.trim() === '') {
      throw new UsageError(messages.scorerMissingId())
    }
    // Checked once, by the first scorer of a chain; every step method builds on its options.
    if (steps.length === 0) checkScorerOptions(options)
    this.#options = options
    this.#steps = steps
    this.id = options.id
    this.name = options.name ?? options.id
    this.description = options.description
    this.type = options.type
    this.config = {
      id: this.id,
      name: this.name,
      description: this.description,
      judge: options.judge,
      type: options.type,
    }
  }

  /** First step: prepare what later steps use. A prompt step with an `outputSchema` returns the parsed object. */
  preprocess<S extends StandardSchemaV1>(
    step: PromptStep<StepContext<TInput, TOutput, TPre, TAnalyze>, S> & { outputSchema: S },
  ): Scorer<TInput, TOutput, InferOutput<S>, TAnalyze>
  preprocess(
    step: PromptStep<StepContext<TInput, TOutput, TPre, TAnalyze>>,
  ): Scorer<TInput, TOutput, string, TAnalyze>
  preprocess<R>(
    step: FunctionStep<StepContext<TInput, TOutput, TPre, TAnalyze>, R>,
  ): Scorer<TInput, TOutput, StepValue<R>, TAnalyze>
  preprocess(step: unknown): Scorer<TInput, TOutput, any, TAnalyze> {
    return this.#with('preprocess', step)
  }

  /** Analyse the run. A prompt step with an `outputSchema` returns the parsed object. */
  analyze<S extends StandardSchemaV1>(
    step: PromptStep<StepContext<TInput, TOutput, TPre, TAnalyze>, S> & { outputSchema: S },
  ): Scorer<TInput, TOutput, TPre, InferOutput<S>>
  analyze(
    step: PromptStep<StepContext<TInput, TOutput, TPre, TAnalyze>>,
  ): Scorer<TInput, TOutput, TPre, string>
  analyze<R>(
    step: FunctionStep<StepContext<TInput, TOutput, TPre, TAnalyze>, R>,
  ): Scorer<TInput, TOutput, TPre, StepValue<R>>
  analyze(step: unknown): Scorer<TInput, TOutput, TPre, any> {
    return this.#with('analyze', step)
  }

  /**
   * Produce the score (required). A prompt step asks the judge for `{ "score": number }`, or, as
   * Mastra documents it, for its `outputSchema`, which `calculateScore` turns into the score.
   */
  generateScore<S extends StandardSchemaV1>(
    step: ScorePromptStep<StepContext<TInput, TOutput, TPre, TAnalyze>, S> & {
      outputSchema: S
      calculateScore: NonNullable<
        ScorePromptStep<StepContext<TInput, TOutput, TPre, TAnalyze>, S>['calculateScore']
      >
    },
  ): Scorer<TInput, TOutput, TPre, TAnalyze>
  generateScore(
    step:
      | ScorePromptStep<StepContext<TInput, TOutput, TPre, TAnalyze>>
      | FunctionStep<
          StepContext<TInput, TOutput, TPre, TAnalyze>,
          number | NotScorable | Promise<number | NotScorable>
        >,
  ): Scorer<TInput, TOutput, TPre, TAnalyze>
  generateScore(
    step:
      | ScorePromptStep<StepContext<TInput, TOutput, TPre, TAnalyze>, any>
      | FunctionStep<
          StepContext<TInput, TOutput, TPre, TAnalyze>,
          number | NotScorable | Promise<number | NotScorable>
        >,
  ): Scorer<TInput, TOutput, TPre, TAnalyze> {
    return this.#with('generateScore', step)
  }

  /** Explain the score. A prompt step returns the judge's text. */
  generateReason(
    step:
      | PromptStep<ReasonStepContext<TInput, TOutput, TPre, TAnalyze>>
      | FunctionStep<
          ReasonStepContext<TInput, TOutput, TPre, TAnalyze>,
          string | NotScorable | Promise<string | NotScorable>
        >,
  ): Scorer<TInput, TOutput, TPre, TAnalyze> {
    return this.#with('generateReason', step)
  }

  /**
   * Run the steps in the order they were chained. A failing step rejects with `ScorerRunError`
   * (`failedStep`, `completedSteps`, the partial `result`, and the step's error as `cause`).
   */
  run(run: ScorerRun<TInput, TOutput>): Promise<ScorerResult<TInput, TOutput, TPre, TAnalyze>> {
    return runPipeline(this.#options, this.#steps, run)
  }

  #with(name: ScorerStepName, step: unknown): Scorer<TInput, TOutput, any, any> {
    if (this.#steps.some((existing) => existing.name === name)) {
      throw new UsageError(messages.scorerStepDuplicated(this.id, name))
    }
    return new Scorer(this.#options, [...this.#steps, define(this.id, name, step)])
  }
}

function define(id: string, name: ScorerStepName, step: unknown): StepDefinition {
  if (typeof step === 'function') return { name, kind: 'function', run: step as () => unknown }
  const prompt = step as PromptStep<unknown, any> | null
  if (typeof prompt !== 'object' || prompt === null || typeof prompt.createPrompt !== 'function') {
    throw new UsageError(messages.scorerBadStep(id, name, step))
  }
  checkPromptStep(id, name, prompt)
  const { calculateScore } = prompt as ScorePromptStep<unknown, any>
  if (name === 'generateScore') {
    if (calculateScore !== undefined && typeof calculateScore !== 'function') {
      throw new UsageError(messages.scorerBadCalculateScore(id, calculateScore))
    }
    // Mastra's documentation: a prompt-mode generateScore with a schema needs calculateScore,
    // since nothing else says which field of the answer is the score.
    if (prompt.outputSchema !== undefined && calculateScore === undefined) {
      throw new UsageError(messages.scorerSchemaWithoutCalculateScore(id))
    }
  }
  const withSchema = prompt.outputSchema !== undefined && name !== 'generateReason'
  return {
    name,
    kind: 'prompt',
    step: prompt,
    schema: withSchema
      ? prepareSchema(prompt.outputSchema, `The ${name} step's outputSchema`)
      : undefined,
    calculateScore,
  }
}

/**
 * Build a scorer from steps, compatible with Mastra's `createScorer`: chain `.preprocess()`,
 * `.analyze()`, `.generateScore()` (required) and `.generateReason()`, each a function or a
 * prompt object that asks the judge, then call `.run({ input, output })`.
 *
 * @example
 * const polite = createScorer({ id: 'polite', description: 'Is the reply polite?', judge: { model: 'openai/gpt-4.1-mini', instructions: 'You grade tone.' } })
 *   .analyze({ description: 'Judge the tone', createPrompt: ({ run }) => `Is this polite? ${run.output}`, outputSchema: z.object({ polite: z.boolean() }) })
 *   .generateScore(({ results }) => (results.analyzeStepResult.polite ? 1 : 0))
 * const { score } = await polite.run({ output: 'Thanks for asking!' })
 */
export function createScorer(
  options: ScorerOptions<ScorerRunInputForAgent, ScorerRunOutputForAgent> & { type: 'agent' },
): Scorer<ScorerRunInputForAgent, ScorerRunOutputForAgent>
export function createScorer<TInput = any, TOutput = any>(
  options: ScorerOptions<TInput, TOutput>,
): Scorer<TInput, TOutput>
export function createScorer(options: ScorerOptions): Scorer {
  return new Scorer(options)
}
