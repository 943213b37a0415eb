import { randomUUID } from 'node:crypto'
import { z } from 'zod'
import { currentCallContext, withCallContext } from '../call-context'
import { resolveJudge } from '../config'
import { ScorerRunError, UsageError } from '../errors'
import { runJudgeCall } from '../judge/judge-call'
import { prepareSchema } from '../judge/output-schema'
import { messages } from '../messages'
import { isThenable } from '../output'
import { emitRecord } from '../record-hooks'
import type { JudgeCall, ScorerStepName } from '../records'
import { isNotScorable } from './not-scorable'
import { plainRunRecord } from './plain-run-record'
import type { StepDefinition } from './step-internals'
import { STEP_INTERNALS, type StepInternals } from './step-internals'
import type { ScorerJudgeOptions, ScorerOptions, ScorerRun } from './types'

const SCORE_SCHEMA = prepareSchema(z.strictObject({ score: z.number() }), 'The score schema')

const RESULT_KEYS: Record<ScorerStepName, string> = {
  preprocess: 'preprocessStepResult',
  analyze: 'analyzeStepResult',
  generateScore: 'score',
  generateReason: 'reason',
}

/**
 * Run a scorer's steps on one run and assemble its result (ARCHITECTURE.md §5). A run that no
 * matcher or loop records (a plain `scorer.run()` in a test, as Mastra users write it) is
 * reported through `emitRecord`, so it shows in the reporter with its calls, tokens and cost.
 * @internal
 */
export function runPipeline(
  options: ScorerOptions,
  steps: readonly StepDefinition[],
  input: ScorerRun,
): Promise<any> {
  return recordedRun(options.id, input, () => runSteps(options, steps, input))
}

/**
 * Run `fn`, a scorer's whole run, and report it as a plain run unless a matcher, a loop or an
 * outer run records it: the runs beneath are not reported again. @internal
 */
export function recordedRun<T>(id: string, input: ScorerRun, fn: () => Promise<T>): Promise<T> {
  if (currentCallContext().recordsScorerRuns) return fn()
  const started = performance.now()
  return withCallContext({ recordsScorerRuns: true }, fn).then(
    (result) => {
      emitRecord(plainRunRecord(id, input, result, performance.now() - started))
      return result
    },
    (error: unknown) => {
      emitRecord(plainRunRecord(id, input, error, performance.now() - started))
      throw error
    },
  )
}

async function runSteps(
  options: ScorerOptions,
  steps: readonly StepDefinition[],
  input: ScorerRun,
): Promise<any> {
  if (!steps.some((step) => step.name === 'generateScore')) {
    throw new UsageError(messages.scorerMissingGenerateScore(options.id))
  }
  if (typeof input !== 'object' || input === null) {
    throw new UsageError(messages.scorerRunNotObject(options.id, input))
  }
  const judgeCalls: JudgeCall[] = []
  const completedSteps: string[] = []
  const outputs: Record<string, unknown> = {}
  let prepared: ScorerRun = input
  const fail = (step: string, error: unknown, base: object): ScorerRunError => {
    const produced = completedSteps.length > 0 || judgeCalls.length > 0
    return new ScorerRunError(
      messages.scorerRunFailed(options.id, step, error),
      {
        failedStep: step,
        completedSteps: [...completedSteps],
        result: produced ? { ...base, ...outputs, judgeCalls } : undefined,
      },
      { cause: error },
    )
  }
  if (options.prepareRun) {
    try {
      prepared = await options.prepareRun(input)
    } catch (error) {
      throw fail('prepareRun', error, input)
    }
  }
  const run = { ...prepared, runId: prepared.runId ?? randomUUID() }
  const results: Record<string, unknown> = {
    preprocessStepResult: undefined,
    analyzeStepResult: undefined,
  }
  let score: number | undefined
  for (const step of steps) {
    const context: Record<string, unknown> = { run, results: { ...results } }
    if (step.name === 'generateReason') context.score = score
    let value: unknown
    try {
      if (step.kind === 'function') {
        const internals: StepInternals = {
          step: step.name,
          judge: options.judge ?? {},
          recordJudgeCall: (call) => judgeCalls.push(call),
        }
        Object.defineProperty(context, STEP_INTERNALS, { value: internals })
        // A step that answers at once is not awaited: every promise costs on the replay path.
        const out = step.run(context)
        value = isThenable(out) ? await out : out
      } else {
        value = await runPromptStep(options.judge, step, context, outputs, judgeCalls)
      }
      if (step.name === 'generateScore' && !isNotScorable(value)) {
        if (typeof value !== 'number' || !Number.isFinite(value)) {
          throw new UsageError(messages.scorerBadScore(options.id, value))
        }
      }
    } catch (error) {
      throw fail(step.name, error, run)
    }
    if (isNotScorable(value)) {
      // Mastra's shape: no `score` key at all, so nothing mistakes the run for a scored one.
      const result: Record<string, unknown> = { ...run, ...results, ...outputs, judgeCalls }
      delete result.score
      result.notScorable = { step: step.name, reason: value.reason }
      return result
    }
    if (step.name === 'generateScore') score = value as number
    const key = RESULT_KEYS[step.name]
    if (key in results) results[key] = value
    outputs[key] = value
    completedSteps.push(step.name)
  }
  return { ...run, ...results, score, reason: undefined, ...outputs, judgeCalls }
}

async function runPromptStep(
  scorerJudge: ScorerJudgeOptions | undefined,
  step: Extract<StepDefinition, { kind: 'prompt' }>,
  context: Record<string, unknown>,
  outputs: Record<string, unknown>,
  judgeCalls: JudgeCall[],
): Promise<unknown> {
  const prompt = await step.step.createPrompt(context)
  outputs[`${step.name}Prompt`] = prompt
  const judge = { ...definedOnly(scorerJudge), ...definedOnly(step.step.judge) }
  const isScore = step.name === 'generateScore'
  const calculate = isScore ? step.calculateScore : undefined
  // The fixed `{ score }` reply only when the step gives neither a schema nor calculateScore.
  const output = calculate ? step.schema : isScore ? SCORE_SCHEMA : step.schema
  const { value } = await runJudgeCall({
    judge: resolveJudge(judge.model),
    step: step.name,
    system: judge.instructions,
    prompt,
    output,
    schemaName: output === SCORE_SCHEMA ? 'score' : `${step.name}_result`,
    temperature: judge.temperature,
    seed: judge.seed,
    structuredOutput: judge.structuredOutput,
    jsonPromptInjection: judge.jsonPromptInjection,
    // With error processors, the SDK does not retry unless told to: the two never multiply.
    maxRetries: judge.maxRetries ?? (judge.errorProcessors?.length ? 0 : undefined),
    inputProcessors: judge.inputProcessors,
    outputProcessors: judge.outputProcessors,
    errorProcessors: judge.errorProcessors,
    maxProcessorRetries: judge.maxProcessorRetries,
    record: (call) => judgeCalls.push(call),
  })
  if (calculate) return await calculate({ ...context, analyzeStepResult: value })
  return isScore ? (value as { score: number }).score : value
}

/** Only the fields that are set, so a step's `undefined` does not erase the scorer's value. */
function definedOnly(options: ScorerJudgeOptions | undefined): ScorerJudgeOptions {
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(options ?? {}))
    if (value !== undefined) out[key] = value
  return out as ScorerJudgeOptions
}
