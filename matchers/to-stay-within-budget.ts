import type { MatcherState } from 'vitest'
import { UsageError } from '../src/errors'
import { messages } from '../src/messages'
import type { ModelCallRecord } from '../src/runtime/model-call-log'
import { currentRuntime } from '../src/runtime/runtime'
import type { Evaluation } from './failure-message'
import { runAssertion } from './run-assertion'

type AsyncResult = Promise<{ pass: boolean; message: () => string }>

/**
 * The model calls given (`modelCalls()`, the running test's) stay within every limit of the
 * budget: calls, tokens in and out, cost from the price table, latency. Replayed, the figures are
 * the recorded ones, so the verdict is the same on every run; recorded or live, they are measured.
 * A failure names the call at which each limit was gone over. Recorded beside the verdicts.
 *
 * @example
 * await expect(modelCalls({ caller: 'agent' })).toStayWithinBudget({ maxCalls: 3, maxTokens: 5000 })
 */
export function toStayWithinBudget(
  this: MatcherState,
  received: unknown,
  budget: unknown,
): AsyncResult {
  return runAssertion({
    kind: 'scorer',
    matcher: 'toStayWithinBudget',
    state: this,
    received,
    receivedLabel: 'modelCalls',
    expectedLabel: 'budget',
    preview: () => '',
    scorerId: () => 'budget',
    async evaluate(): Promise<Evaluation> {
      const calls = modelCallList(received)
      const { checkBudget, measureBudget, callLabel } = await import('../src/budget/budget')
      const limits = checkBudget(budget)
      const { totals, overruns } = measureBudget(calls, limits, currentRuntime().config().prices)
      const lines = calls.map((call, index) => callLabel(index, call))
      return {
        satisfied: overruns.length === 0,
        reason: messages.budgetSummary(totals),
        judgeCalls: [],
        scorerId: 'budget',
        // For the failure text; a budget that held needs no more than its reason.
        ...(overruns.length > 0 ? { metadata: { overruns, calls: lines } } : {}),
      }
    },
    explain(evaluation, negated) {
      const metadata = evaluation.metadata as
        | {
            overruns?: { limit: string; allowed: number; actual: number; callLabel: string }[]
            calls: string[]
          }
        | undefined
      const head = negated ? messages.budgetWithinNegated() : messages.budgetOver()
      const lines = [head, '']
      for (const overrun of metadata?.overruns ?? []) {
        lines.push(
          `  ✗ ${messages.budgetOverrun(overrun.limit, overrun.allowed, overrun.actual, overrun.callLabel)}`,
        )
      }
      lines.push(
        '',
        `  ${evaluation.reason ?? ''}`,
        '',
        ...(metadata?.calls ?? []).map((line) => `    ${line}`),
      )
      return lines.join('\n')
    },
  })
}

function modelCallList(value: unknown): ModelCallRecord[] {
  const isCall = (item: unknown) =>
    typeof item === 'object' &&
    item !== null &&
    typeof (item as ModelCallRecord).endpoint === 'string' &&
    ((item as ModelCallRecord).caller === 'agent' || (item as ModelCallRecord).caller === 'judge')
  if (!Array.isArray(value) || !value.every(isCall)) {
    throw new UsageError(messages.budgetNotCalls(value))
  }
  return value as ModelCallRecord[]
}
