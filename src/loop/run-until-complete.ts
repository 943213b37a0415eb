import { randomUUID } from 'node:crypto'
import { rejectUnknownKeys } from '../config/known-keys'
import { UsageError } from '../errors'
import { untilAborted } from '../judge/retries'
import { messages } from '../messages'
import { outputText, taskText } from '../output'
import { emitRecord } from '../runtime/record-hooks'
import { checkCompletion } from './check-completion'
import { loopRecord } from './loop-record'
import type {
  CompletionContext,
  LoopAgent,
  LoopIteration,
  LoopMessage,
  RunUntilCompleteOptions,
  RunUntilCompleteResult,
} from './types'

/**
 * Call an agent until its output passes the scorers, feeding the failing scorers' reasons back to
 * it (ARCHITECTURE.md §8.3). Scorers pass on `passed` when they report it (rubric scorers), else on
 * `score >= 1`. Every check is also reported through `onRecord`, so under Vitest the loop shows up
 * in the test's report.
 *
 * @example
 * const result = await runUntilComplete(
 *   ({ input, feedback }) => agent.generate(feedback ? `${input}\n\nFix this:\n${feedback}` : input),
 *   { scorers: [createRubricScorer({ criteria: '- Cites a source' })], maxSteps: 3, input: question },
 * )
 * expect(result.complete).toBe(true)
 */
export async function runUntilComplete<Input = unknown, Output = unknown>(
  agent: LoopAgent<Input, Output>,
  options: RunUntilCompleteOptions<Input, Output>,
): Promise<RunUntilCompleteResult<Output>> {
  const settings = validate(agent, options)
  const { signal, input } = options
  const loopId = randomUUID()
  const started = performance.now()
  const iterations: LoopIteration<Output>[] = []
  let feedback: string | undefined
  // The task as the rubric judge reads it (a message list: the user's first words); Mastra's
  // "Unknown task" when there is none.
  const task = taskText(input) ?? 'Unknown task'
  const conversation: LoopMessage[] = [{ role: 'user', content: task }]
  for (let iteration = 1; iteration <= settings.maxSteps; iteration++) {
    if (signal?.aborted) throw signal.reason
    const turn = {
      input: input as Input,
      iteration,
      feedback,
      history: iterations.slice(),
      messages: conversation.slice(),
      signal,
    }
    const output = await untilAborted(
      Promise.resolve().then(() => agent(turn)),
      [signal],
    )
    const text = outputText(output)
    conversation.push({ role: 'assistant', content: text })
    const completionContext: CompletionContext | undefined = options.completionContext
      ? {
          iteration,
          maxIterations: settings.maxSteps,
          messages: conversation.slice(),
          originalTask: task,
          primitiveResult: text,
          customContext: options.requestContext,
        }
      : undefined
    const check = await checkCompletion({
      iteration,
      output: completionContext ? completionContext.primitiveResult : output,
      input: completionContext ?? input,
      requestContext: options.requestContext,
      scorers: options.scorers,
      strategy: settings.strategy,
      parallel: settings.parallel,
      checkTimeout: settings.checkTimeout,
      signal,
    })
    iterations.push({ output, check })
    emitRecord(loopRecord(loopId, iterations, performance.now() - started))
    await options.onCheck?.(check, output)
    // Mastra's suppressFeedback: the agent is called again, but not told why.
    feedback = options.suppressFeedback ? undefined : check.feedback
    if (check.complete) break
    if (feedback !== undefined) conversation.push({ role: 'user', content: feedback })
  }
  const last = iterations.at(-1)!
  return {
    complete: last.check.complete,
    output: last.output,
    iterations,
    feedback: last.check.feedback,
  }
}

// The options runUntilComplete accepts; anything else is a usage error naming the nearest one.
const OPTION_KEYS = [
  'scorers',
  'strategy',
  'maxSteps',
  'input',
  'requestContext',
  'parallel',
  'checkTimeout',
  'signal',
  'onCheck',
  'suppressFeedback',
  'completionContext',
]

function validate(
  agent: unknown,
  options: RunUntilCompleteOptions<any, any>,
): { strategy: 'all' | 'any'; maxSteps: number; parallel: boolean; checkTimeout: number } {
  if (typeof agent !== 'function') throw new UsageError(messages.loopAgentNotFunction(agent))
  if (typeof options !== 'object' || options === null) {
    throw new UsageError(messages.configNotObject('runUntilComplete()', options))
  }
  rejectUnknownKeys('runUntilComplete()', options, OPTION_KEYS)
  if (!Array.isArray(options.scorers)) {
    throw new UsageError(messages.loopScorersNotList(options.scorers))
  }
  for (const [index, scorer] of options.scorers.entries()) {
    if (typeof (scorer as { run?: unknown } | null)?.run !== 'function') {
      throw new UsageError(messages.loopScorerInvalid(index, scorer))
    }
  }
  const strategy = options.strategy ?? 'all'
  if (strategy !== 'all' && strategy !== 'any') {
    throw new UsageError(
      messages.invalidChoice('runUntilComplete() strategy', strategy, ['all', 'any']),
    )
  }
  const maxSteps = options.maxSteps ?? 5
  if (!Number.isInteger(maxSteps) || maxSteps < 1) {
    throw new UsageError(messages.notPositiveInteger('runUntilComplete() maxSteps', maxSteps))
  }
  const checkTimeout = options.checkTimeout ?? 600_000
  if (typeof checkTimeout !== 'number' || !(checkTimeout > 0)) {
    throw new UsageError(
      messages.notPositiveNumber('runUntilComplete() checkTimeout', checkTimeout),
    )
  }
  return { strategy, maxSteps, parallel: options.parallel ?? true, checkTimeout }
}
