import { UsageError } from '../errors'
import { messages } from '../messages'
import { loggedModelCalls, type ModelCallRecord } from '../runtime/model-call-log'

/** Which of the test's model calls {@link modelCalls} returns. */
export interface ModelCallFilter {
  /** `'agent'`: the code under test's calls; `'judge'`: rubricate's judge's. Default: both. */
  caller?: 'agent' | 'judge' | undefined
  /** Only calls to this endpoint (`chat/completions`, `responses`, `embeddings`...). */
  endpoint?: string | undefined
  /** Only calls to this model. */
  model?: string | undefined
}

const FILTER_KEYS = ['caller', 'endpoint', 'model']

/**
 * The model calls the running test has made so far, in order, as plain data: whose call, the
 * endpoint and model, where the reply came from, tokens in and out, and latency (the recorded
 * figures when replayed, measured when live). Give it to `toStayWithinBudget`.
 *
 * @example
 * await supportAgent(question)
 * await expect(modelCalls({ caller: 'agent' })).toStayWithinBudget({ maxCalls: 3, maxTokens: 5000 })
 */
export function modelCalls(filter: ModelCallFilter = {}): ModelCallRecord[] {
  if (typeof filter !== 'object' || filter === null || Array.isArray(filter)) {
    throw new UsageError(messages.configNotObject('modelCalls()', filter))
  }
  for (const key of Object.keys(filter)) {
    if (!FILTER_KEYS.includes(key)) {
      throw new UsageError(messages.invalidChoice('modelCalls() filter key', key, FILTER_KEYS))
    }
  }
  const { caller, endpoint, model } = filter
  if (caller !== undefined && caller !== 'agent' && caller !== 'judge') {
    throw new UsageError(
      messages.invalidChoice('modelCalls() option "caller"', caller, ['agent', 'judge']),
    )
  }
  return loggedModelCalls().filter(
    (call) =>
      (caller === undefined || call.caller === caller) &&
      (endpoint === undefined || call.endpoint === endpoint) &&
      (model === undefined || call.model === model),
  )
}
