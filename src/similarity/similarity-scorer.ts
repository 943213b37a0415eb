import { rejectUnknownKeys } from '../config/known-keys'
import { UsageError } from '../errors'
import { checkEmbedder, type EmbedderInput, embedTexts } from '../judge/embed'
import { messages } from '../messages'
import { outputText } from '../output'
import { createScorer, type ScorerConfig } from '../scorer/create-scorer'
import { stepInternals } from '../scorer/step-internals'
import type { PreparedRun, ScorerResult, ScorerRun } from '../scorer/types'
import { cosineSimilarity } from './cosine'
import { editSimilarity } from './edit-distance'

/** Options of {@link createSimilarityScorer}. */
export interface SimilarityScorerConfig {
  /** The embedding model: `'openai/<model>'`, an endpoint `{ model, baseURL?, apiKey? }`, an AI SDK embedding model, or `{ id, embed(texts) }`. */
  embedder: EmbedderInput
  /** The text to compare with. Default: the run's `groundTruth`. */
  expected?: string | undefined
  /** The cosine similarity (0 to 1) the output must reach to pass. Default `0.8`. */
  threshold?: number | undefined
}

/** Options of {@link createEditDistanceScorer}. */
export interface EditDistanceScorerConfig {
  /** The text to compare with. Default: the run's `groundTruth`. */
  expected?: string | undefined
  /** The similarity (1 minus the normalised edit distance, 0 to 1) to reach. Default `0.8`. */
  threshold?: number | undefined
  /** Compare lower-cased texts. Default `false`. */
  ignoreCase?: boolean | undefined
}

/** The result of a similarity scorer: a score from 0 to 1, its threshold and whether it passed. */
export type SimilarityScorerResult = ScorerResult & {
  score: number
  passed: boolean
  threshold: number
}

/** A scorer that compares an output with an expected text; its score is from 0 to 1. */
export interface SimilarityScorer {
  readonly id: string
  readonly name: string
  readonly description: string
  readonly type: undefined
  readonly config: ScorerConfig
  run(run: ScorerRun): Promise<SimilarityScorerResult>
}

/**
 * A scorer of semantic similarity: the cosine similarity of the output's and the expected text's
 * embeddings (negative cosines count as 0), passing at `threshold`. The embedding call is
 * recorded and replayed like a judge call. Scores are from 0 to 1.
 *
 * @example
 * const similar = createSimilarityScorer({ embedder: 'openai/text-embedding-3-small', threshold: 0.85 })
 * const { score, passed } = await similar.run({ output: reply, groundTruth: 'Your refund is on its way.' })
 */
export function createSimilarityScorer(config: SimilarityScorerConfig): SimilarityScorer {
  const where = 'createSimilarityScorer()'
  checkConfig(where, config, ['embedder', 'expected', 'threshold'])
  checkEmbedder(`${where} option "embedder"`, config.embedder)
  const threshold = checkThreshold(where, config.threshold)
  const inner = createScorer({
    id: 'semantic-similarity',
    name: 'Semantic similarity',
    description: 'Cosine similarity of the output and the expected text, embedded.',
  })
    .analyze(async (context) => {
      const internals = stepInternals(context)
      const texts = [
        outputText(context.run.output),
        expectedText(where, config.expected, context.run),
      ]
      const { vectors, call } = await embedTexts(
        config.embedder,
        texts,
        internals.step,
        internals.choices,
      )
      internals.recordJudgeCall(call)
      const cosine = cosineSimilarity(vectors[0] as number[], vectors[1] as number[])
      if (cosine === undefined) {
        throw new UsageError(
          messages.embeddingsNotComparable(
            call.model,
            (vectors[0] ?? []).length,
            (vectors[1] ?? []).length,
          ),
        )
      }
      return Math.max(0, cosine)
    })
    .generateScore(({ results }) => results.analyzeStepResult)
    .generateReason(({ score }) => messages.similarityReason('cosine similarity', score))
  return wrap(inner, threshold)
}

/**
 * A scorer of string distance, with no model: 1 minus the Levenshtein distance over the longer
 * text's length (1 for equal texts), passing at `threshold`. Scores are from 0 to 1.
 *
 * @example
 * const close = createEditDistanceScorer({ expected: 'Order A1 ships on Monday.', threshold: 0.9 })
 */
export function createEditDistanceScorer(config: EditDistanceScorerConfig = {}): SimilarityScorer {
  const where = 'createEditDistanceScorer()'
  checkConfig(where, config, ['expected', 'threshold', 'ignoreCase'])
  const threshold = checkThreshold(where, config.threshold)
  const fold = (text: string) => (config.ignoreCase === true ? text.toLowerCase() : text)
  const inner = createScorer({
    id: 'edit-distance',
    name: 'Edit distance',
    description: '1 minus the normalised Levenshtein distance to the expected text.',
  })
    .generateScore(({ run }) =>
      editSimilarity(fold(outputText(run.output)), fold(expectedText(where, config.expected, run))),
    )
    .generateReason(({ score }) => messages.similarityReason('edit similarity', score))
  return wrap(inner, threshold)
}

function wrap(
  inner: {
    id: string
    name: string
    description: string
    config: ScorerConfig
    run(run: ScorerRun): Promise<ScorerResult>
  },
  threshold: number,
): SimilarityScorer {
  return {
    id: inner.id,
    name: inner.name,
    description: inner.description,
    type: undefined,
    config: inner.config,
    run: async (run) => {
      const result = await inner.run(run)
      const score = result.score as number
      return { ...result, score, threshold, passed: score >= threshold }
    },
  }
}

function expectedText(where: string, configured: string | undefined, run: PreparedRun): string {
  if (configured !== undefined) return configured
  if (run.groundTruth === undefined || run.groundTruth === null) {
    throw new UsageError(messages.similarityNoExpected(where))
  }
  return outputText(run.groundTruth)
}

function checkConfig(where: string, config: unknown, keys: string[]): void {
  if (typeof config !== 'object' || config === null || Array.isArray(config)) {
    throw new UsageError(messages.configNotObject(where, config))
  }
  rejectUnknownKeys(where, config, keys)
  const expected = (config as { expected?: unknown }).expected
  if (expected !== undefined && typeof expected !== 'string') {
    throw new UsageError(messages.similarityBadExpected(where, expected))
  }
}

/** A threshold from 0 to 1, default 0.8. @internal */
export function checkThreshold(where: string, threshold: unknown, fallback = 0.8): number {
  if (threshold === undefined) return fallback
  if (typeof threshold !== 'number' || !(threshold >= 0 && threshold <= 1)) {
    throw new UsageError(messages.shareThreshold(`${where} option "threshold"`, threshold))
  }
  return threshold
}
