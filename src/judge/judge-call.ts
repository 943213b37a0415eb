/** One logical judge call: a prompt, and the schema its reply must match (none: plain text). @internal */

import type { CassetteMode } from '../config/resolve-config'
import { isRubricateError, JudgeOutputError, JudgeRequestError } from '../errors'
import { messages } from '../messages'
import type {
  JudgeCall,
  JudgeCallSource,
  JudgeInput,
  JudgeReply,
  OpenAICompatibleJudge,
  ScorerStepName,
  StructuredOutputMode,
  TokenUsage,
} from '../records/records'
import type { ExchangeEvent } from '../runtime/call-context'
import { reportUndecided } from '../runtime/undecided-hooks'
import { callSignal, raceAbort } from './call-signal'
import { completeInCall, replayedFrom } from './cassette-bridge'
import { type Answer, chooseAnswer } from './choose-answer'
import { extractJson } from './extract-json'
import { type JudgeCallScope, judgeCallScope } from './judge-call-scope'
import { checkEndpointTypes, judgeLabel, type ParsedJudge, parseJudgeInput } from './judge-input'
import { judgeText } from './judge-protocol'
import {
  type EndpointRequest,
  prepareCompletion,
  StructuredOutputRejected,
  sendCompletion,
} from './openai-judge'
import { type PreparedSchema, requestSchema } from './output-schema'
import {
  type JudgeProcessor,
  processJudgeInput,
  processJudgeOutput,
  withErrorProcessors,
} from './processors'
import { resolveStructuredOutput } from './structured-output'

export interface JudgeCallOptions {
  /** The judge, already resolved through the configuration. */
  judge: JudgeInput
  step: ScorerStepName
  system?: string | undefined
  prompt: string
  /** The reply's schema; without one the reply's text is the result. */
  output?: PreparedSchema | undefined
  schemaName?: string | undefined
  temperature?: number | undefined
  seed?: number | undefined
  /** Overrides the judge object's own structured-output choice. */
  structuredOutput?: StructuredOutputMode | undefined
  jsonPromptInjection?: OpenAICompatibleJudge['jsonPromptInjection']
  maxRetries?: number | undefined
  /** Transform the messages before they reach the judge; the cassette keys on the result. */
  inputProcessors?: readonly JudgeProcessor[] | undefined
  /** Transform or check the reply's text before it is parsed. */
  outputProcessors?: readonly JudgeProcessor[] | undefined
  /** Asked whether to retry a failed request. */
  errorProcessors?: readonly JudgeProcessor[] | undefined
  /** Default 10 when `errorProcessors` is set. */
  maxProcessorRetries?: number | undefined
  signal?: AbortSignal | undefined
  /** The version of the prompt template, stored with the call's cassette entries. */
  promptVersion?: string | undefined
  /** The cassette mode chosen at the call site; unset: the configuration's. */
  cassetteMode?: CassetteMode | undefined
  /** Told about the call's record once it has succeeded or failed. */
  record?: ((call: JudgeCall) => void) | undefined
}

/** What a successful judge call gives back. @internal */
export interface JudgeCallResult {
  /** The validated value (or the text, without a schema). */
  value: unknown
  /** The raw text of the reply that was used. */
  text: string
  call: JudgeCall
}

interface Counters {
  setAttempts(n: number): void
  onRequest(): void
}

type Mode = 'json_schema' | 'auto' | 'prompt' | 'text'

/**
 * Make one logical judge call: send the prompt, extract and validate the JSON, feed an invalid
 * reply back once for repair, and record a {@link JudgeCall} whatever happens. An unusable reply
 * is `RUBRICATE_JUDGE_OUTPUT`; it never turns into a verdict.
 * @internal
 */
export async function runJudgeCall(options: JudgeCallOptions): Promise<JudgeCallResult> {
  const parsed = withOverrides(parseJudgeInput(options.judge), options)
  const exchanges: ExchangeEvent[] = []
  const usage: TokenUsage[] = []
  const started = performance.now()
  let attempts = 0
  let requests = 0
  let liveRequests = 0
  const finish = (status: JudgeCall['status']): JudgeCall => {
    const call: JudgeCall = {
      step: options.step,
      model: judgeLabel(parsed),
      status,
      source: sourceOf(exchanges),
      durationMs: Math.round(performance.now() - started),
      attemptCount: attempts,
      // Requests attempted, or exchanges reported by the transport, whichever saw more: a dropped
      // connection is a request made, though no exchange completed.
      modelCallCount: Math.max(requests, exchanges.length),
      liveRequestCount: liveRequests,
    }
    const keyed = exchanges.findLast((event) => event.key !== undefined)
    if (keyed?.key !== undefined) call.cassetteKey = keyed.key
    if (keyed?.file !== undefined) call.cassetteFile = keyed.file
    if (usage.length > 0) call.usage = sumUsage(usage)
    options.record?.(call)
    return call
  }
  const signal = callSignal(options.signal)
  const scope = judgeCallScope({
    cassetteMode: options.cassetteMode,
    promptVersion: options.promptVersion,
    onExchange: (event) => exchanges.push(event),
    onLiveRequest: () => {
      liveRequests++
    },
  })
  try {
    // Without input processors, nothing is awaited: every promise costs on the replay path.
    const processed = options.inputProcessors?.length
      ? {
          ...options,
          ...(await processJudgeInput(options.inputProcessors, options.system, options.prompt)),
        }
      : options
    const result = await attemptLoop(parsed, processed, signal, scope, usage, {
      setAttempts: (n) => {
        attempts = n
      },
      onRequest: () => {
        requests++
      },
    })
    return { ...result, call: finish('success') }
  } catch (error) {
    const record = finish('failed')
    let failure = error
    // A reply replayed from a cassette fails the same way on every replay: say where it is.
    if (error instanceof JudgeOutputError && record.source === 'replayed' && record.cassetteKey) {
      const { file, command } = replayedFrom(record.cassetteKey, scope)
      // No `cause`: the same failure, told in full, not a wrapper that rootCause() would look past.
      failure = new JudgeOutputError(
        messages.judgeOutputReplayed(error.message, file, command),
        error.rawText,
      )
    }
    // A scorer run by the agent's code, or a loop's check, may catch it: the test still hears of
    // it. Not an abort: the caller ended the call (a timeout fails the test by itself, a loop's
    // check deadline is the loop's to count).
    if (!signal.aborted) reportUndecided(failure)
    throw failure
  }
}

async function attemptLoop(
  judge: ParsedJudge,
  options: JudgeCallOptions,
  signal: AbortSignal,
  call: JudgeCallScope,
  usage: TokenUsage[],
  counters: Counters,
): Promise<{ value: unknown; text: string }> {
  const { output } = options
  // Decided per call, never remembered across calls: cassettes must see the same requests
  // whatever order the tests run in (a recorded rejection replays cheaply).
  let mode: Mode = !output
    ? 'text'
    : judge.kind === 'custom'
      ? 'prompt'
      : resolveStructuredOutput(judge.endpoint, 'The judge')
  let repair: { reply: string; problem: string } | undefined
  for (let attempt = 1; ; attempt++) {
    counters.setAttempts(attempt)
    const once = () => send(judge, options, mode, repair, signal, call, counters.onRequest)
    // An endpoint that rejects structured output is asked again with the schema in the prompt.
    const fallback = (error: unknown) => {
      if (!(error instanceof StructuredOutputRejected)) throw error
      mode = 'prompt'
      return once()
    }
    let sent: JudgeReply | Promise<JudgeReply>
    if (options.errorProcessors?.length) {
      sent = withErrorProcessors(
        options.errorProcessors,
        options.maxProcessorRetries,
        signal,
        async () => {
          try {
            return await once()
          } catch (error) {
            return await fallback(error)
          }
        },
      )
    } else {
      // A reply read from the cassettes comes back at once, and is not awaited.
      const first = once()
      sent = first instanceof Promise ? first.catch(fallback) : first
    }
    let reply = sent instanceof Promise ? await sent : sent
    if (reply.usage) usage.push(reply.usage)
    if (options.outputProcessors?.length) {
      reply = { ...reply, text: await processJudgeOutput(options.outputProcessors, reply.text) }
    }
    if (!output) return { value: reply.text, text: reply.text }
    const answer = answerOf(reply, output, options.prompt)
    const checked = answer instanceof Promise ? await answer : answer
    if (checked.ok) return { value: checked.value, text: reply.text }
    if (attempt >= 2) {
      throw new JudgeOutputError(
        messages.judgeOutputInvalid(judgeLabel(judge), checked.problem, reply.text),
        reply.text,
      )
    }
    repair = { reply: clipForRepair(reply.text), problem: checked.problem }
  }
}

/** The validated answer in a reply, or what makes the reply unusable (a promise only for an async schema). */
function answerOf(
  reply: JudgeReply,
  output: PreparedSchema,
  prompt: string,
): Answer | Promise<Answer> {
  // Checked on the reply, not its text: a custom judge may set `refusal` beside verdict JSON.
  if (typeof reply.refusal === 'string' && reply.refusal.trim() !== '') {
    return { ok: false, problem: judgeText.replyRefused(reply.refusal) }
  }
  const extracted = extractJson(reply.text)
  return extracted.ok ? chooseAnswer(output, extracted.candidates, prompt) : extracted
}

/** Longest previous reply fed back in a repair attempt, in characters. @internal */
export const REPAIR_REPLY_LIMIT = 16_000

// The repair turn only needs to show the judge what went wrong: a runaway reply (a model looping,
// a huge echo) is cut, so that one bad reply does not cost its own length again in input tokens.
function clipForRepair(text: string): string {
  if (text.length <= REPAIR_REPLY_LIMIT) return text
  const cut = text.length - REPAIR_REPLY_LIMIT
  return `${text.slice(0, REPAIR_REPLY_LIMIT)}\n[... ${cut} more characters cut]`
}

// A reply replayed from the cassettes is returned as it is, without a promise; a sync throw is
// a failure of the call like a rejection (attemptLoop is async).
function send(
  judge: ParsedJudge,
  options: JudgeCallOptions,
  mode: Mode,
  repair: { reply: string; problem: string } | undefined,
  signal: AbortSignal,
  call: JudgeCallScope,
  onRequest: () => void,
): JudgeReply | Promise<JudgeReply> {
  const label = judgeLabel(judge)
  const aborted = () => new JudgeRequestError(messages.judgeAborted(label))
  if (signal.aborted) throw aborted()
  const json = options.output?.json
  const inPrompt = mode === 'prompt' && json !== undefined
  // Mastra's jsonPromptInjection 'system': the schema goes in the system message, the user
  // message stays the step's prompt as written.
  const inSystem = inPrompt && schemaInSystem(judge, options)
  const prompt =
    inPrompt && !inSystem
      ? `${options.prompt}\n\n${judgeText.schemaInstruction(json)}`
      : options.prompt
  const system = inSystem
    ? options.system
      ? `${options.system}\n\n${judgeText.schemaInstruction(json)}`
      : judgeText.schemaInstruction(json)
    : options.system
  const instruction =
    repair && judgeText.repairInstruction(repair.problem, inPrompt ? json : undefined)
  const schemaName = options.schemaName ?? 'judge_output'
  if (judge.kind === 'endpoint') {
    const { endpoint } = judge
    const request: EndpointRequest = {
      system,
      prompt,
      repair: repair && instruction ? { reply: repair.reply, instruction } : undefined,
      responseFormat:
        (mode === 'json_schema' || mode === 'auto') && options.output
          ? {
              name: schemaName,
              schema: requestSchema(options.output),
              strict: options.output.strict,
            }
          : undefined,
      fallbackOnRejection: mode === 'auto',
      missingKey: judge.missingKey,
      seed: options.seed,
      temperature: endpoint.temperature,
    }
    const prepared = prepareCompletion(endpoint, request)
    return raceAbort(
      sendCompletion(endpoint, request, prepared, signal, onRequest, call),
      signal,
      aborted,
    )
  }
  const request = {
    prompt:
      repair && instruction
        ? `${prompt}\n\nYour previous reply was:\n${repair.reply}\n\n${instruction}`
        : prompt,
    ...(system !== undefined && { system }),
    ...(json !== undefined && { schema: json, schemaName }),
    ...(options.seed !== undefined && { seed: options.seed }),
    ...(options.temperature !== undefined && { temperature: options.temperature }),
  }
  onRequest()
  const pending = Promise.resolve()
    .then(() => completeInCall(judge.model, request, { signal }, call))
    .then(checkReply, (error: unknown) => {
      if (isRubricateError(error) || signal.aborted) throw error
      throw new JudgeRequestError(messages.customJudgeFailed(label, error), undefined, {
        cause: error,
      })
    })
  return raceAbort(pending, signal, aborted)
}

/** `jsonPromptInjection: 'system'` chosen at the call, else by the judge object (no `structuredOutput` over it). */
function schemaInSystem(judge: ParsedJudge, options: JudgeCallOptions): boolean {
  if (options.structuredOutput !== undefined) return false
  if (options.jsonPromptInjection !== undefined) return options.jsonPromptInjection === 'system'
  if (judge.kind !== 'endpoint' || judge.endpoint.structuredOutput !== undefined) return false
  return judge.endpoint.jsonPromptInjection === 'system'
}

function checkReply(reply: JudgeReply): JudgeReply {
  if (typeof reply?.text !== 'string') return { ...reply, text: '' }
  return reply
}

/** Call-level choices (a scorer step's judge fields) win over the judge object's own. */
function withOverrides(judge: ParsedJudge, options: JudgeCallOptions): ParsedJudge {
  if (judge.kind !== 'endpoint') return judge
  checkEndpointTypes(
    { temperature: options.temperature, maxRetries: options.maxRetries },
    'The judge options',
  )
  const endpoint = { ...judge.endpoint }
  if (options.temperature !== undefined) endpoint.temperature = options.temperature
  if (options.maxRetries !== undefined) endpoint.maxRetries = options.maxRetries
  if (options.structuredOutput !== undefined || options.jsonPromptInjection !== undefined) {
    endpoint.structuredOutput = resolveStructuredOutput(
      {
        structuredOutput: options.structuredOutput,
        jsonPromptInjection: options.jsonPromptInjection,
      },
      'The judge options',
    )
  }
  return { ...judge, endpoint }
}

/** The liveliest source among the exchanges: one live request makes the whole call live. */
// A call whose reply was recorded is 'recorded', even if a transient failure (a 429 that is never
// recorded) went live before it; otherwise any live exchange makes it 'live'.
function sourceOf(exchanges: ExchangeEvent[]): JudgeCallSource {
  const sources = new Set(exchanges.map((event) => event.source))
  if (sources.has('recorded')) return 'recorded'
  if (sources.has('live') || sources.size === 0) return 'live'
  return 'replayed'
}

function sumUsage(parts: TokenUsage[]): TokenUsage {
  const total = { inputTokens: 0, outputTokens: 0, totalTokens: 0 }
  for (const part of parts) {
    total.inputTokens += part.inputTokens
    total.outputTokens += part.outputTokens
    total.totalTokens += part.totalTokens
  }
  return total
}
