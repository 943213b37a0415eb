import type { ModelPrice } from '../config'
import type { TokenUsage } from '../records'

/**
 * Built-in prices in US dollars per million tokens, for cost estimates (`maxCost`, the reporter's
 * summary). Merged under `prices` from the configuration. A dated model id
 * (`gpt-4.1-mini-2025-04-14`) uses the price of its longest listed prefix.
 * @internal
 */
export const BUILT_IN_PRICES: Readonly<Record<string, ModelPrice>> = {
  'gpt-4.1': { input: 2, output: 8 },
  'gpt-4.1-mini': { input: 0.4, output: 1.6 },
  'gpt-4.1-nano': { input: 0.1, output: 0.4 },
  'gpt-4o': { input: 2.5, output: 10 },
  'gpt-4o-mini': { input: 0.15, output: 0.6 },
  'gpt-5': { input: 1.25, output: 10 },
  'gpt-5-mini': { input: 0.25, output: 2 },
  'gpt-5-nano': { input: 0.05, output: 0.4 },
  o3: { input: 2, output: 8 },
  'o3-mini': { input: 1.1, output: 4.4 },
  'o4-mini': { input: 1.1, output: 4.4 },
}

/** The price of a model, or `undefined` when neither table knows it. @internal */
export function priceOf(
  model: string,
  prices: Record<string, ModelPrice> = {},
): ModelPrice | undefined {
  const table = { ...BUILT_IN_PRICES, ...prices }
  const name =
    model.includes('/') && !(model in table) ? model.slice(model.lastIndexOf('/') + 1) : model
  if (table[name]) return table[name]
  let best: string | undefined
  for (const known of Object.keys(table)) {
    if (name.startsWith(`${known}-`) && (!best || known.length > best.length)) best = known
  }
  return best ? table[best] : undefined
}

/** Estimated cost of one call in US dollars, or `undefined` for a model without a price. @internal */
export function estimateCost(
  model: string,
  usage: TokenUsage,
  prices: Record<string, ModelPrice> = {},
): number | undefined {
  const price = priceOf(model, prices)
  if (!price) return undefined
  return (usage.inputTokens * price.input + usage.outputTokens * price.output) / 1_000_000
}

/** Token usage of a reply (chat completions, responses, or a `JudgeReply`), if it reports any. @internal */
export function usageOf(json: unknown): TokenUsage | undefined {
  const usage = (json as { usage?: Record<string, unknown> } | null)?.usage
  if (!usage || typeof usage !== 'object') return undefined
  const input = num(usage.prompt_tokens) ?? num(usage.input_tokens) ?? num(usage.inputTokens)
  const output =
    num(usage.completion_tokens) ?? num(usage.output_tokens) ?? num(usage.outputTokens) ?? 0
  if (input === undefined) return undefined
  return {
    inputTokens: input,
    outputTokens: output,
    totalTokens: num(usage.total_tokens) ?? input + output,
  }
}

function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined
}
