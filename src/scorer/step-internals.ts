import type { ParsedJudge } from '../judge/judge-input'
import type { PreparedSchema } from '../judge/output-schema'
import type { JudgeCall, ScorerStepName } from '../records/records'
import type { RunChoices } from '../runtime/run-choices'
import { runtimeState } from '../runtime/state'
import type { PromptStep } from './types'

/** One chained step, as the pipeline runs it. @internal */
export type StepDefinition =
  | { name: ScorerStepName; kind: 'function'; run: (context: any) => unknown }
  | {
      name: ScorerStepName
      kind: 'prompt'
      step: PromptStep<any, any>
      schema: PreparedSchema | undefined
      /** generateScore only: turns the judge's answer into the score. */
      calculateScore?: ((context: any) => unknown) | undefined
    }

// The internals of each function step's context, beside it rather than on it: invisible to
// Mastra-shaped step code (no key, no symbol), and one table for every copy of the module (the
// runtime's process part, which types a value as `unknown`: only this file writes it).
const lent = runtimeState().process.stepInternals

/** Lend `context` its internals, for the function step it is handed to. @internal */
export function lendStepInternals(context: object, internals: StepInternals): void {
  lent.set(context, internals)
}

/**
 * What the pipeline lends a function step that makes its own judge calls (the rubric scorer):
 * the step's name, the scorer's judge, the run's choices, and where to record each call.
 * @internal
 */
export interface StepInternals {
  step: ScorerStepName
  /**
   * The scorer's judge, resolved through the configuration and parsed when asked: the pipeline is
   * the one place a scorer's judge enters, and a step that calls no judge needs none configured.
   */
  judge(): ParsedJudge
  /** What the run's edge chose for its judge calls (the matcher's `cassettes` option). */
  choices: RunChoices
  recordJudgeCall(call: JudgeCall): void
}

/** The internals of a step context, or a bug error if the context did not come from a scorer. @internal */
export function stepInternals(context: object): StepInternals {
  const internals = lent.get(context) as StepInternals | undefined
  if (!internals) throw new Error('step context without internals: this is a bug in rubricate')
  return internals
}
