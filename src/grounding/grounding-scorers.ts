import { rejectUnknownKeys } from '../config/known-keys'
import { UsageError } from '../errors'
import { runJudgeCall } from '../judge/judge-call'
import { messages } from '../messages'
import { outputText, taskText } from '../output'
import type { JudgeInput } from '../records/records'
import { createScorer, type ScorerConfig } from '../scorer/create-scorer'
import { notScorable } from '../scorer/not-scorable'
import { stepInternals } from '../scorer/step-internals'
import type { PreparedRun, ScorerResult, ScorerRun } from '../scorer/types'
import { checkThreshold } from '../similarity/similarity-scorer'
import {
  GROUNDING_INSTRUCTIONS,
  GROUNDING_PROMPT_VERSION,
  type GroundingItem,
  type GroundingKind,
  groundingPrompt,
  itemsOf,
  listReplySchema,
  passagesReplySchema,
} from './grounding-prompt'

/** Options of the grounding scorers. */
export interface GroundingScorerConfig {
  /** Default: the judge configured for the run. */
  judge?: JudgeInput | undefined
  /**
   * The retrieved context: a text, a list of passages, or a function of the run that returns one
   * (the retriever, run again on the run's input). Default: the run's `additionalContext.context`
   * (`toPassScorer`'s `context` option, a `describeEval` row's).
   */
  context?: string | readonly unknown[] | ((run: ScorerRun) => unknown) | undefined
  /** The share (0 to 1) to reach. Default `1` for faithfulness, `0.8` for the relevances. */
  threshold?: number | undefined
}

/** One claim, statement or passage, as the judge found it. */
export interface GroundingJudgement {
  text: string
  /** Supported by the context (faithfulness), or relevant to the question (the relevances). */
  ok: boolean
  reasoning: string
}

/** The result of a grounding scorer: the share of items that hold, from 0 to 1. */
export type GroundingScorerResult = ScorerResult & {
  score: number
  passed: boolean
  threshold: number
  /** Every claim (faithfulness), statement (answer relevance) or passage (context relevance). */
  judgements: GroundingJudgement[]
}

/** A grounding scorer: faithfulness, answer relevance or context relevance. */
export interface GroundingScorer {
  readonly id: string
  readonly name: string
  readonly description: string
  readonly type: undefined
  readonly config: ScorerConfig
  run(run: ScorerRun): Promise<GroundingScorerResult>
}

const KEYS = ['judge', 'context', 'threshold']

/**
 * Faithfulness to the given context: the judge splits the answer into claims and checks each
 * against the context, in one call. The score is the share of claims the context supports (an
 * answer with no claims is not scorable); the reason names every unsupported claim.
 *
 * @example
 * const faithful = createFaithfulnessScorer({ context: retrievedDocs })
 * await expect(reply).toPassScorer(faithful, { input: question })
 */
export function createFaithfulnessScorer(config: GroundingScorerConfig = {}): GroundingScorer {
  return groundingScorer('faithfulness', 'Faithfulness', 1, config)
}

/**
 * Answer relevance: the judge splits the answer into statements and checks that each helps answer
 * the question (the run's `input`), in one call. The score is the share of relevant statements.
 *
 * @example
 * await expect(reply).toPassScorer(createAnswerRelevanceScorer(), { input: question })
 */
export function createAnswerRelevanceScorer(config: GroundingScorerConfig = {}): GroundingScorer {
  return groundingScorer('answer-relevance', 'Answer relevance', 0.8, config)
}

/**
 * Context relevance: each passage of the retrieved context (a list, or a text split at blank
 * lines) is judged needed to answer the question or not, in one call. The score is the share of
 * relevant passages: a measure of the retriever, not of the answer.
 *
 * @example
 * await expect(reply).toPassScorer(createContextRelevanceScorer({ context: passages }), { input: question })
 */
export function createContextRelevanceScorer(config: GroundingScorerConfig = {}): GroundingScorer {
  return groundingScorer('context-relevance', 'Context relevance', 0.8, config)
}

function groundingScorer(
  kind: GroundingKind,
  name: string,
  defaultThreshold: number,
  config: GroundingScorerConfig,
): GroundingScorer {
  const where = `create${name.replace(' ', '')}Scorer()`
  if (typeof config !== 'object' || config === null || Array.isArray(config)) {
    throw new UsageError(messages.configNotObject(where, config))
  }
  rejectUnknownKeys(where, config, KEYS)
  const threshold = checkThreshold(where, config.threshold, defaultThreshold)
  const inner = createScorer({
    id: kind,
    name,
    description: `${name} of an answer built from retrieved context, judged claim by claim.`,
    judge: { model: config.judge, instructions: GROUNDING_INSTRUCTIONS },
  })
    .analyze(async (context) => {
      const internals = stepInternals(context)
      const question = questionOf(context.run)
      if (kind !== 'faithfulness' && question === undefined) {
        throw new UsageError(messages.groundingNoQuestion(where))
      }
      // Answer relevance reads no context: the answer against the question alone.
      const passages =
        kind === 'answer-relevance'
          ? []
          : passagesOf(
              where,
              // A function is the retriever: run again on the run.
              typeof config.context === 'function'
                ? await config.context(context.run)
                : config.context,
              context.run,
            )
      const prompt = groundingPrompt(kind, {
        question,
        context:
          kind === 'faithfulness'
            ? passages.join('\n\n')
            : kind === 'context-relevance'
              ? passages
              : undefined,
        answer: kind === 'context-relevance' ? undefined : outputText(context.run.output),
      })
      const { value } = await runJudgeCall({
        judge: internals.judge(),
        step: internals.step,
        choices: internals.choices,
        system: GROUNDING_INSTRUCTIONS,
        prompt,
        output:
          kind === 'context-relevance'
            ? passagesReplySchema(passages.length)
            : listReplySchema(kind),
        schemaName: kind.replace('-', '_'),
        promptVersion: GROUNDING_PROMPT_VERSION,
        record: (call) => internals.recordJudgeCall(call),
      })
      return itemsOf(kind, value, passages)
    })
    .generateScore(({ results }) => {
      const items = results.analyzeStepResult
      if (items.length === 0) return notScorable(messages.groundingNothing(kind))
      return items.filter((item) => item.ok).length / items.length
    })
    .generateReason(({ results }) =>
      messages.groundingReason(kind, results.analyzeStepResult as GroundingItem[]),
    )
  return {
    id: inner.id,
    name: inner.name,
    description: inner.description,
    type: undefined,
    config: inner.config,
    run: async (run) => {
      const result = await inner.run(run)
      const items = (result.analyzeStepResult ?? []) as GroundingItem[]
      const judgements = items.map(({ text, ok, reasoning }) => ({ text, ok, reasoning }))
      if (result.score === undefined) return { ...result, judgements } as GroundingScorerResult
      return {
        ...result,
        score: result.score,
        threshold,
        passed: result.score >= threshold,
        judgements,
      }
    },
  }
}

function questionOf(run: PreparedRun): string | undefined {
  if (run.input === undefined || run.input === null) return undefined
  const text = taskText(run.input)
  return text === undefined || text === '' ? undefined : text
}

// Passages: a list as given (each item read as text), a text split at blank lines.
function passagesOf(where: string, configured: unknown, run: PreparedRun): string[] {
  const context = configured ?? run.additionalContext?.context
  if (context === undefined || context === null)
    throw new UsageError(messages.groundingNoContext(where))
  const passages = Array.isArray(context)
    ? context.map((item) => outputText(item))
    : outputText(context).split(/\n\s*\n/)
  const kept = passages.map((passage) => passage.trim()).filter((passage) => passage !== '')
  if (kept.length === 0) throw new UsageError(messages.groundingNoContext(where))
  return kept
}
