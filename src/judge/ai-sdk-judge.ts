import { UsageError } from '../errors'
import { messages } from '../messages'
import type {
  AiSdkLanguageModel,
  JudgeModel,
  JudgeReply,
  JudgeRequest,
  TokenUsage,
} from '../records/records'
import { withCallContext } from '../runtime/call-context'

const SUPPORTED = ['v2', 'v3']

/** True when `value` looks like an AI SDK language model (it has `doGenerate` and a model id). @internal */
export function isAiSdkModel(value: unknown): value is AiSdkLanguageModel {
  const model = value as Partial<AiSdkLanguageModel> | null
  return (
    typeof model === 'object' &&
    model !== null &&
    typeof model.doGenerate === 'function' &&
    typeof model.modelId === 'string' &&
    typeof model.specificationVersion === 'string'
  )
}

/**
 * A {@link JudgeModel} over an AI SDK language model, made afresh at each call (it holds nothing
 * but the model). Its calls go
 * through `cached()` like any custom model's, so one judge call is one cassette entry (keyed on
 * the judge request and `<provider>/<modelId>`), and a replay never calls the model. The live
 * call runs with the call context's `transport` set to `'judge-model'`, so the agents' msw
 * handlers let the provider's own HTTP request through, not recording it again as an agent call.
 * @internal
 */
export function aiSdkJudge(model: AiSdkLanguageModel): JudgeModel {
  if (!SUPPORTED.includes(model.specificationVersion)) {
    throw new UsageError(
      messages.aiSdkModelVersion(
        `${model.provider}/${model.modelId}`,
        model.specificationVersion,
        SUPPORTED,
      ),
    )
  }
  return {
    id: `${model.provider}/${model.modelId}`,
    complete: (request, options) => generate(model, request, options.signal),
  }
}

async function generate(
  model: AiSdkLanguageModel,
  request: JudgeRequest,
  signal: AbortSignal | undefined,
): Promise<JudgeReply> {
  const options = generateOptions(request, signal)
  return judgeReply(await doGenerate(model, options))
}

type GenerateResult = {
  content?: { type: string; text?: string }[]
  usage?: Record<string, unknown>
  response?: { modelId?: string }
}

function generateOptions(
  request: JudgeRequest,
  signal: AbortSignal | undefined,
): Record<string, unknown> {
  const prompt: unknown[] = []
  if (request.system !== undefined) prompt.push({ role: 'system', content: request.system })
  prompt.push({ role: 'user', content: [{ type: 'text', text: request.prompt }] })
  const options: Record<string, unknown> = { prompt }
  if (request.schema !== undefined) {
    options.responseFormat = {
      type: 'json',
      schema: request.schema,
      ...(request.schemaName !== undefined && { name: request.schemaName }),
    }
  }
  if (request.temperature !== undefined) options.temperature = request.temperature
  if (request.seed !== undefined) options.seed = request.seed
  if (signal) options.abortSignal = signal
  return options
}

// The provider's own HTTP request is the model's: the agents' msw handlers let it through rather
// than record it again as an agent's call (the judge call is recorded as one entry).
async function doGenerate(
  model: AiSdkLanguageModel,
  options: Record<string, unknown>,
): Promise<GenerateResult> {
  return (await withCallContext({ transport: 'judge-model' }, () =>
    model.doGenerate(options),
  )) as GenerateResult
}

function judgeReply(result: GenerateResult): JudgeReply {
  const text = (result.content ?? [])
    .filter((part) => part.type === 'text' && typeof part.text === 'string')
    .map((part) => part.text)
    .join('')
  const reply: JudgeReply = { text }
  const usage = usageOf(result.usage)
  if (usage) reply.usage = usage
  const id = result.response?.modelId
  if (typeof id === 'string') reply.model = id
  return reply
}

// v2 reports numbers; v3 reports `{ total, ... }` objects for input and output tokens.
function usageOf(usage: Record<string, unknown> | undefined): TokenUsage | undefined {
  if (!usage) return undefined
  const count = (value: unknown): number | undefined =>
    typeof value === 'number'
      ? value
      : typeof (value as { total?: unknown } | null)?.total === 'number'
        ? (value as { total: number }).total
        : undefined
  const inputTokens = count(usage.inputTokens)
  const outputTokens = count(usage.outputTokens)
  if (inputTokens === undefined && outputTokens === undefined) return undefined
  const total = typeof usage.totalTokens === 'number' ? usage.totalTokens : undefined
  return {
    inputTokens: inputTokens ?? 0,
    outputTokens: outputTokens ?? 0,
    totalTokens: total ?? (inputTokens ?? 0) + (outputTokens ?? 0),
  }
}
