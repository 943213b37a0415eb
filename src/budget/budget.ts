import type { ModelPrice } from '../config/resolve-config'
import { UsageError } from '../errors'
import { estimateCost } from '../judge/price-table'
import { messages } from '../messages'
import type { ModelCallRecord } from '../runtime/model-call-log'

/** The limits of `toStayWithinBudget`; give at least one. Each is an upper bound, inclusive. */
export interface Budget {
  /** Model calls, retries included. */
  maxCalls?: number | undefined
  /** Tokens in (prompts), summed over the calls. */
  maxInputTokens?: number | undefined
  /** Tokens out (completions), summed over the calls. */
  maxOutputTokens?: number | undefined
  /** Tokens in and out, summed over the calls. */
  maxTokens?: number | undefined
  /** Estimated cost in US dollars, from the price table (built-in prices and `prices`). */
  maxCost?: number | undefined
  /** The latency of any one call, in milliseconds (recorded in replay, measured live). */
  maxLatencyMs?: number | undefined
  /** The latencies of all calls added up, in milliseconds. */
  maxTotalLatencyMs?: number | undefined
}

/** What a set of calls added up to. @internal */
export interface BudgetTotals {
  calls: number
  inputTokens: number
  outputTokens: number
  tokens: number
  cost?: number | undefined
  /** The slowest call's latency. */
  maxLatencyMs?: number | undefined
  totalLatencyMs: number
}

/** One limit that was gone over, and the call that went over it (from 1). @internal */
export interface BudgetOverrun {
  limit: keyof Budget
  allowed: number
  actual: number
  /** The call (from 1) at which the running total first went over, or the slow call. */
  call: number
  callLabel: string
}

const KEYS: readonly (keyof Budget)[] = [
  'maxCalls',
  'maxInputTokens',
  'maxOutputTokens',
  'maxTokens',
  'maxCost',
  'maxLatencyMs',
  'maxTotalLatencyMs',
]

/** Check a budget's shape: known keys, non-negative finite numbers, at least one. @internal */
export function checkBudget(budget: unknown): Budget {
  if (typeof budget !== 'object' || budget === null || Array.isArray(budget)) {
    throw new UsageError(messages.budgetNotObject(budget, KEYS))
  }
  const entries = Object.entries(budget)
  if (entries.length === 0) throw new UsageError(messages.budgetNotObject(budget, KEYS))
  for (const [key, value] of entries) {
    if (!KEYS.includes(key as keyof Budget)) {
      throw new UsageError(messages.invalidChoice('toStayWithinBudget() limit', key, KEYS))
    }
    if (value === undefined) continue
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      throw new UsageError(messages.notPositiveNumber(`toStayWithinBudget() limit "${key}"`, value))
    }
  }
  return budget as Budget
}

/**
 * Add up `calls` and compare them with `budget`, call by call, so each overrun names the call at
 * which it happened. A cost limit over a call whose model has no price, or whose tokens are not
 * known, is refused rather than counted as free.
 * @internal
 */
export function measureBudget(
  calls: readonly ModelCallRecord[],
  budget: Budget,
  prices: Record<string, ModelPrice>,
): { totals: BudgetTotals; overruns: BudgetOverrun[] } {
  const totals: BudgetTotals = {
    calls: 0,
    inputTokens: 0,
    outputTokens: 0,
    tokens: 0,
    totalLatencyMs: 0,
  }
  const overruns = new Map<keyof Budget, BudgetOverrun>()
  const over = (limit: keyof Budget, actual: number, index: number, call: ModelCallRecord) => {
    const allowed = budget[limit]
    if (allowed === undefined || actual <= allowed || overruns.has(limit)) return
    overruns.set(limit, {
      limit,
      allowed,
      actual,
      call: index + 1,
      callLabel: callLabel(index, call),
    })
  }
  let cost: number | undefined = budget.maxCost === undefined ? undefined : 0
  for (const [index, call] of calls.entries()) {
    totals.calls += 1
    totals.inputTokens += call.inputTokens ?? 0
    totals.outputTokens += call.outputTokens ?? 0
    totals.tokens = totals.inputTokens + totals.outputTokens
    if (call.latencyMs !== undefined) {
      totals.totalLatencyMs += call.latencyMs
      totals.maxLatencyMs = Math.max(totals.maxLatencyMs ?? 0, call.latencyMs)
      over('maxLatencyMs', call.latencyMs, index, call)
    } else if (budget.maxLatencyMs !== undefined || budget.maxTotalLatencyMs !== undefined) {
      throw new UsageError(messages.budgetUnknown('latency', callLabel(index, call)))
    }
    if (cost !== undefined) {
      const known =
        call.model !== undefined && call.inputTokens !== undefined
          ? estimateCost(
              call.model,
              {
                inputTokens: call.inputTokens,
                outputTokens: call.outputTokens ?? 0,
                totalTokens: call.inputTokens + (call.outputTokens ?? 0),
              },
              prices,
            )
          : undefined
      if (known === undefined) {
        throw new UsageError(messages.budgetUnknown('cost', callLabel(index, call)))
      }
      cost += known
      over('maxCost', cost, index, call)
    }
    over('maxCalls', totals.calls, index, call)
    over('maxInputTokens', totals.inputTokens, index, call)
    over('maxOutputTokens', totals.outputTokens, index, call)
    over('maxTokens', totals.tokens, index, call)
    over('maxTotalLatencyMs', totals.totalLatencyMs, index, call)
  }
  if (cost !== undefined) totals.cost = cost
  return { totals, overruns: KEYS.flatMap((key) => overruns.get(key) ?? []) }
}

/** `#3 agent chat/completions "gpt-4.1-mini" (replayed, support-agent/x.json)`. @internal */
export function callLabel(index: number, call: ModelCallRecord): string {
  const model = call.model === undefined ? '' : ` "${call.model}"`
  const where =
    call.cassetteFile === undefined ? call.source : `${call.source}, ${call.cassetteFile}`
  return `#${index + 1} ${call.caller} ${call.endpoint}${model} (${where})`
}
