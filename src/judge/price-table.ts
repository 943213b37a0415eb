import type { ModelPrice } from '../config/resolve-config'
import type { TokenUsage } from '../records/records'

/**
 * Built-in prices in US dollars per million tokens, for cost estimates (`maxCost`, the reporter's
 * summary): OpenAI's list prices for standard processing. Merged under `prices` from the
 * configuration. A name is matched exactly; a dated snapshot (`gpt-4.1-mini-2025-04-14`) or a
 * `-latest` alias falls back to its undated name, and nothing else does: `o3-pro` and
 * `o3-deep-research` cost several times `o3`, so a prefix would price them far too low for a cost
 * cap. A snapshot priced unlike its undated name is listed on its own.
 * @internal
 */
export const BUILT_IN_PRICES: Readonly<Record<string, ModelPrice>> = {
  'gpt-4.1': { input: 2, output: 8 },
  'gpt-4.1-mini': { input: 0.4, output: 1.6 },
  'gpt-4.1-nano': { input: 0.1, output: 0.4 },
  'gpt-4o': { input: 2.5, output: 10 },
  'gpt-4o-2024-05-13': { input: 5, output: 15 },
  'gpt-4o-mini': { input: 0.15, output: 0.6 },
  'gpt-5': { input: 1.25, output: 10 },
  'gpt-5-mini': { input: 0.25, output: 2 },
  'gpt-5-nano': { input: 0.05, output: 0.4 },
  'gpt-5-pro': { input: 15, output: 120 },
  o3: { input: 2, output: 8 },
  'o3-pro': { input: 20, output: 80 },
  'o3-deep-research': { input: 10, output: 40 },
  'o3-mini': { input: 1.1, output: 4.4 },
  'o4-mini': { input: 1.1, output: 4.4 },
  'o4-mini-deep-research': { input: 2, output: 8 },
}

// A snapshot date (`-2024-08-06`, `-20240806`, the older `-0613`) or `-latest`, at the end.
const SNAPSHOT = /-(?:latest|\d{4}-\d{2}-\d{2}|\d{8}|(?:0[1-9]|1[0-2])\d{2})$/

/**
 * The price of a model, or `undefined` when neither table knows it: the name as given, else
 * without a provider prefix (`openai/gpt-4.1`), each else without a snapshot suffix.
 * @internal
 */
export function priceOf(
  model: string,
  prices: Record<string, ModelPrice> = {},
): ModelPrice | undefined {
  const table: Record<string, ModelPrice> = { ...BUILT_IN_PRICES, ...prices }
  const names = [model]
  if (model.includes('/')) names.push(model.slice(model.lastIndexOf('/') + 1))
  for (const name of [...names]) {
    const undated = name.replace(SNAPSHOT, '')
    if (undated !== name) names.push(undated)
  }
  const known = names.find((name) => Object.hasOwn(table, name))
  return known === undefined ? undefined : table[known]
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
