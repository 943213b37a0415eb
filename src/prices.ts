/**
 * Model prices for cost estimates (the reporter's summary; `maxCost`). A small built-in table of
 * common OpenAI judge models, in US dollars per million tokens as published by OpenAI in 2025;
 * the `prices` option adds models or overrides these.
 */
import type { ModelPrice } from './config'
import type { TokenUsage } from './records'

/** Built-in prices, USD per million tokens. @internal */
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
  'o4-mini': { input: 1.1, output: 4.4 },
}

/**
 * The price of a model: the user's table first, then the built-in one. A name is tried as given,
 * without a provider prefix (`openai/gpt-4.1-mini`), and without a date suffix
 * (`gpt-4.1-mini-2025-04-14`, the name the API answers with).
 * @internal
 */
export function priceFor(
  model: string,
  prices: Readonly<Record<string, ModelPrice>> = {},
): ModelPrice | undefined {
  const bare = model.includes('/') ? model.slice(model.lastIndexOf('/') + 1) : model
  const undated = bare.replace(/-\d{4}-\d{2}-\d{2}$/, '')
  for (const table of [prices, BUILT_IN_PRICES]) {
    for (const name of [model, bare, undated]) {
      const price = table[name]
      if (price) return price
    }
  }
  return undefined
}

/** The cost of one call in US dollars. @internal */
export function costOf(usage: TokenUsage, price: ModelPrice): number {
  return (usage.inputTokens * price.input + usage.outputTokens * price.output) / 1_000_000
}
