import { setTimeout as sleep } from 'node:timers/promises'
import { isRubricateError, JudgeRequestError, UsageError } from '../errors'
import { messages } from '../messages'

/** One message of a judge request, as input processors see it. */
export interface JudgeMessage {
  role: 'system' | 'user'
  content: string
}

/** Stops the judge call: the step fails with `RUBRICATE_JUDGE_REQUEST` and `reason`. */
export type ProcessorAbort = (reason?: string) => never

/** What an error processor answers: retry the failed request (after `delayMs`), or not. */
export interface ErrorDecision {
  retry: boolean
  delayMs?: number | undefined
}

/**
 * A judge processor (Mastra's `Processor`, for the judge of a scorer): any of the three hooks.
 * `processInput` transforms the messages before they reach the judge (redaction, validation);
 * cassettes key on the request as sent, after it. `processOutputResult` transforms or checks the
 * judge's text before it is parsed. `processAPIError` sees a failed request and may ask for a
 * retry of that request only.
 */
export interface JudgeProcessor {
  id?: string | undefined
  processInput?(args: {
    messages: JudgeMessage[]
    abort: ProcessorAbort
  }): JudgeMessage[] | Promise<JudgeMessage[]>
  processOutputResult?(args: { text: string; abort: ProcessorAbort }): string | Promise<string>
  processAPIError?(args: {
    error: unknown
    /** Processor retries of this request so far: 0 on the first failure. */
    retryCount: number
    abort: ProcessorAbort
  }): ErrorDecision | undefined | Promise<ErrorDecision | undefined>
}

/** Retries of a failed judge request that error processors may ask for, by default. */
export const DEFAULT_MAX_PROCESSOR_RETRIES = 10

const abort: ProcessorAbort = (reason) => {
  throw new JudgeRequestError(messages.processorAborted(reason))
}

/** Run the input processors over the judge's system message and prompt. @internal */
export async function processJudgeInput(
  processors: readonly JudgeProcessor[] | undefined,
  system: string | undefined,
  prompt: string,
): Promise<{ system: string | undefined; prompt: string }> {
  if (!processors?.length) return { system, prompt }
  let list: JudgeMessage[] = []
  if (system !== undefined) list.push({ role: 'system', content: system })
  list.push({ role: 'user', content: prompt })
  for (const processor of processors) {
    if (!processor.processInput) continue
    const out = await processor.processInput({ messages: list, abort })
    if (!Array.isArray(out) || out.some((m) => typeof m?.content !== 'string')) {
      throw new UsageError(messages.processorBadMessages(processor.id, out))
    }
    list = out
  }
  const of = (role: string) => list.filter((m) => m.role === role).map((m) => m.content)
  const systems = of('system')
  return {
    system: systems.length > 0 ? systems.join('\n\n') : undefined,
    prompt: of('user').join('\n\n'),
  }
}

/** Run the output processors over the judge's reply text. @internal */
export async function processJudgeOutput(
  processors: readonly JudgeProcessor[] | undefined,
  text: string,
): Promise<string> {
  let out = text
  for (const processor of processors ?? []) {
    if (!processor.processOutputResult) continue
    out = await processor.processOutputResult({ text: out, abort })
    if (typeof out !== 'string') throw new UsageError(messages.processorBadText(processor.id, out))
  }
  return out
}

/**
 * Send one request, and when it fails ask the error processors whether to send it again, up to
 * `maxRetries` times. Only this request is retried: never a finished step. A usage error, a
 * cassette miss or a limit is never offered to the processors. @internal
 */
export async function withErrorProcessors<T>(
  processors: readonly JudgeProcessor[] | undefined,
  maxRetries: number | undefined,
  signal: AbortSignal,
  send: () => Promise<T>,
): Promise<T> {
  const hooks = (processors ?? []).filter((p) => p.processAPIError)
  if (hooks.length === 0) return send()
  const budget = maxRetries ?? DEFAULT_MAX_PROCESSOR_RETRIES
  for (let retryCount = 0; ; retryCount++) {
    try {
      return await send()
    } catch (error) {
      if (signal.aborted || retryCount >= budget || !offered(error)) throw error
      let decision: ErrorDecision | undefined
      for (const processor of hooks) {
        const out = await processor.processAPIError?.({ error, retryCount, abort })
        if (out?.retry) {
          decision = out
          break
        }
      }
      if (!decision) throw error
      if (decision.delayMs) await sleep(decision.delayMs, undefined, { signal })
    }
  }
}

function offered(error: unknown): boolean {
  if (!isRubricateError(error)) return true
  return error.code === 'RUBRICATE_JUDGE_REQUEST'
}
