// The OpenAI Agents SDK's run results (`run()` and `run(..., { stream: true })` of
// `@openai/agents`), read as they are: no adapter, no import of the SDK. A result is recognised by
// its public getters (`newItems`, `history`, `finalOutput`, `state`); whether a streamed run has
// finished is read from its state, as `finalOutput` itself decides it.
import { UsageError, withoutErrorPage } from '../errors'
import { outputMessages } from './output-messages'

type Loose = Record<string, unknown>

/** An Agents SDK `RunResult` or `StreamedRunResult`, as far as rubricate reads it. @internal */
export interface AgentsRunResultLike {
  newItems: unknown[]
  history: unknown[]
  finalOutput: unknown
  state: unknown
}

/** True for a `RunResult` or `StreamedRunResult` of the OpenAI Agents SDK. @internal */
export function isAgentsRunResult(value: unknown): value is AgentsRunResultLike {
  if (typeof value !== 'object' || value === null) return false
  // Getters on the class, so `in` sees them without running them.
  return (
    'newItems' in value &&
    'history' in value &&
    'finalOutput' in value &&
    'state' in value &&
    'rawResponses' in value
  )
}

/**
 * The result's run items (`newItems`), once the run has finished: a streamed run still going, or
 * one that failed, is a usage error, since its items so far are not what the agent did.
 * @internal
 */
export function agentsRunItems(result: AgentsRunResultLike): unknown[] {
  assertFinished(result)
  return result.newItems
}

/**
 * The text a judge sees for a run: `finalOutput` (a string as is, a structured output as the
 * value it is, for `outputText` to render); a run stopped for tool approvals has none, which is a
 * usage error saying to resume it.
 * @internal
 */
export function agentsFinalOutput(result: AgentsRunResultLike): unknown {
  assertFinished(result)
  const step = currentStep(result)
  if (step === 'next_step_interruption') {
    const pending = readArray(result, 'interruptions').length
    throw new UsageError(outputMessages.agentsRunInterrupted(pending))
  }
  return result.finalOutput
}

function assertFinished(result: AgentsRunResultLike): void {
  const streamed = typeof (result as unknown as Loose).toStream === 'function'
  if (!streamed) return
  const error = (result as unknown as Loose).error
  if (error !== null && error !== undefined) {
    throw new UsageError(
      outputMessages.agentsStreamFailed(
        withoutErrorPage(error instanceof Error ? error.message : String(error)),
      ),
      { cause: error },
    )
  }
  const step = currentStep(result)
  // A state without a step the SDK's own way: trust `finalOutput`, which the SDK hides until the
  // stream completes.
  const finished =
    step === undefined
      ? quietFinalOutput(result) !== undefined
      : step === 'next_step_final_output' || step === 'next_step_interruption'
  if (!finished) throw new UsageError(outputMessages.agentsStreamRunning())
}

function currentStep(result: AgentsRunResultLike): string | undefined {
  const state = result.state as { _currentStep?: { type?: unknown } } | null
  const type = state?._currentStep?.type
  return typeof type === 'string' ? type : undefined
}

// `finalOutput` warns on the console when read too early; only read when the state says nothing.
function quietFinalOutput(result: AgentsRunResultLike): unknown {
  try {
    return result.finalOutput
  } catch {
    return undefined
  }
}

function readArray(object: object, key: string): unknown[] {
  try {
    const value = (object as Loose)[key]
    return Array.isArray(value) ? value : []
  } catch {
    return []
  }
}
