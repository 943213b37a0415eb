import { UsageError } from '../errors'
import { messages } from '../messages'
import type { JudgeCall, ScorerStepName } from '../records/records'
import { type ExchangeEvent, withCallContext } from '../runtime/call-context'
import type { RunChoices } from '../runtime/run-choices'
import { cachedEmbedder, judgeFetch, judgeMayGoLive } from './cassette-bridge'
import { callSignal, type JudgeCallScope, judgeCallScope } from './judge-call-scope'
import { usageOf } from './price-table'

/** An OpenAI-compatible `/embeddings` endpoint, called through the `openai` SDK. */
export interface EmbeddingEndpoint {
  /** The embedding model, e.g. `text-embedding-3-small`. */
  model: string
  /** Default: `OPENAI_BASE_URL`, else the OpenAI API. */
  baseURL?: string | undefined
  /** Default: `OPENAI_API_KEY`. */
  apiKey?: string | undefined
  /** Extra headers sent with every request. Never stored in cassettes. */
  headers?: Record<string, string> | undefined
}

/** An AI SDK embedding model (specification v2 or v3): only these members are read. */
export interface AiSdkEmbeddingModel {
  readonly specificationVersion: string
  readonly provider: string
  readonly modelId: string
  doEmbed(options: { values: string[]; abortSignal?: AbortSignal | undefined }): PromiseLike<{
    embeddings: ArrayLike<number>[]
    usage?: { tokens?: number | undefined } | undefined
  }>
}

/** A function of your own that embeds texts; `id` keys its cassette entries. */
export interface CustomEmbedder {
  id: string
  embed(texts: string[]): Promise<ArrayLike<number>[]> | ArrayLike<number>[]
}

/**
 * Every way to name an embedding model: `'openai/<model>'` (reads `OPENAI_BASE_URL` and
 * `OPENAI_API_KEY`), an OpenAI-compatible endpoint, an AI SDK embedding model, or `{ id, embed }`.
 */
export type EmbedderInput = string | EmbeddingEndpoint | AiSdkEmbeddingModel | CustomEmbedder

const DEFAULT_BASE_URL = 'https://api.openai.com/v1'
const AI_SDK_VERSIONS = ['v2', 'v3']

/**
 * Embed `texts` with `embedder`, recorded and replayed like a judge call: an endpoint's request
 * goes through the judge's `fetch` (one cassette entry per request), any other embedder through
 * `cachedEmbedder` (one entry keyed on its id and the texts). Returns one vector per text and the
 * call as a {@link JudgeCall}. `choices`: the run's cassette mode, test and the test's signal
 * (else the running test's, as a judge call's).
 * @internal
 */
export async function embedTexts(
  embedder: EmbedderInput,
  texts: string[],
  step: ScorerStepName,
  choices: RunChoices = {},
): Promise<{ vectors: number[][]; call: JudgeCall }> {
  const events: ExchangeEvent[] = []
  const started = performance.now()
  const label = embedderLabel(embedder)
  // No prompt version: an embedding request holds no prompt of rubricate's.
  const scope = judgeCallScope({
    cassetteMode: choices.cassetteMode,
    test: choices.test,
    onExchange: (event) => events.push(event),
  })
  const vectors = await embedWith(embedder, texts, callSignal(choices.signal), scope)
  if (vectors.length !== texts.length || vectors.some((vector) => vector.length === 0)) {
    throw new UsageError(messages.embedderBadReply(label, texts.length, vectors.length))
  }
  const last = events.at(-1)
  const call: JudgeCall = {
    step,
    model: label,
    status: 'success',
    source: last?.source ?? 'live',
    durationMs: performance.now() - started,
    attemptCount: 1,
    modelCallCount: Math.max(1, events.length),
    liveRequestCount: events.filter((event) => event.source !== 'replayed').length,
  }
  if (last?.key !== undefined) call.cassetteKey = last.key
  if (last?.file !== undefined) call.cassetteFile = last.file
  const usage = usageOf(last?.reply?.())
  if (usage) call.usage = usage
  return { vectors, call }
}

/** The model's name as records show it. @internal */
export function embedderLabel(embedder: EmbedderInput): string {
  if (typeof embedder === 'string') return embedder
  if (isAiSdkEmbeddingModel(embedder)) return `${embedder.provider}/${embedder.modelId}`
  if ('embed' in embedder) return embedder.id
  return embedder.model
}

/** Reject what is no embedder, naming the four accepted forms. @internal */
export function checkEmbedder(where: string, value: unknown): asserts value is EmbedderInput {
  if (typeof value === 'string' && value.includes('/')) return
  if (typeof value === 'object' && value !== null) {
    if (isAiSdkEmbeddingModel(value)) return
    const candidate = value as Record<string, unknown>
    if (typeof candidate.embed === 'function' && typeof candidate.id === 'string') return
    if (typeof candidate.model === 'string' && candidate.embed === undefined) return
  }
  throw new UsageError(messages.invalidEmbedder(where, value))
}

function isAiSdkEmbeddingModel(value: unknown): value is AiSdkEmbeddingModel {
  const model = value as Partial<AiSdkEmbeddingModel> | null
  return (
    typeof model === 'object' &&
    model !== null &&
    typeof model.doEmbed === 'function' &&
    typeof model.specificationVersion === 'string'
  )
}

async function embedWith(
  embedder: EmbedderInput,
  texts: string[],
  signal: AbortSignal | undefined,
  call: JudgeCallScope,
): Promise<number[][]> {
  if (typeof embedder === 'string') {
    const [provider, ...rest] = embedder.split('/')
    if (provider !== 'openai') throw new UsageError(messages.invalidEmbedder('embedder', embedder))
    return embedEndpoint({ model: rest.join('/') }, texts, signal, call)
  }
  if (isAiSdkEmbeddingModel(embedder)) {
    if (!AI_SDK_VERSIONS.includes(embedder.specificationVersion)) {
      throw new UsageError(
        messages.aiSdkModelVersion(
          embedderLabel(embedder),
          embedder.specificationVersion,
          AI_SDK_VERSIONS,
        ),
      )
    }
    const id = embedderLabel(embedder)
    // The provider's own request is the AI SDK's: the cassette entry is this call, so the agents'
    // path lets the request through rather than count it as an agent's call too.
    return cachedEmbedder(
      id,
      (values) =>
        withCallContext({ transport: 'judge-model' }, async () => {
          const result = await embedder.doEmbed({ values, abortSignal: signal })
          return {
            embeddings: result.embeddings.map((vector) => Array.from(vector)),
            ...(result.usage?.tokens === undefined
              ? {}
              : { usage: { input_tokens: result.usage.tokens, output_tokens: 0 } }),
          }
        }),
      call,
    )(texts)
  }
  if ('embed' in embedder) {
    return cachedEmbedder(
      embedder.id,
      async (values) => ({
        embeddings: (await embedder.embed(values)).map((vector) => Array.from(vector)),
      }),
      call,
    )(texts)
  }
  return embedEndpoint(embedder, texts, signal, call)
}

async function embedEndpoint(
  endpoint: EmbeddingEndpoint,
  texts: string[],
  signal: AbortSignal | undefined,
  call: JudgeCallScope,
): Promise<number[][]> {
  const baseURL = endpoint.baseURL ?? nonEmpty(process.env.OPENAI_BASE_URL) ?? DEFAULT_BASE_URL
  let apiKey = endpoint.apiKey ?? nonEmpty(process.env.OPENAI_API_KEY)
  if (apiKey === undefined) {
    // Replayed, the request never leaves: the SDK only needs a key to build its client.
    if (judgeMayGoLive(call)) throw new UsageError(messages.embedderNoKey(endpoint.model))
    apiKey = 'replay'
  }
  const { default: OpenAIClient } = await import('openai')
  const client = new OpenAIClient({
    baseURL,
    apiKey,
    maxRetries: 0,
    fetch: judgeFetch(call),
    ...(endpoint.headers && { defaultHeaders: endpoint.headers }),
  })
  const reply = await client.embeddings.create(
    { model: endpoint.model, input: texts },
    signal ? { signal } : undefined,
  )
  return [...reply.data]
    .sort((a, b) => a.index - b.index)
    .map((item) => Array.from(item.embedding as ArrayLike<number>))
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value
}
