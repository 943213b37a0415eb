/** One logical judge call: a prompt, and the schema its reply must match (none: plain text). @internal */

import { isRubricateError, JudgeOutputError, JudgeRequestError } from '../errors'
import { messages } from '../messages'
import type {
  JudgeCall,
  JudgeCallSource,
  JudgeReply,
  OpenAICompatibleJudge,
  ScorerStepName,
  StructuredOutputMode,
  TokenUsage,
} from '../records/records'
import type { ExchangeEvent } from '../runtime/call-context'
import type { RunChoices } from '../runtime/run-choices'
import { reportUndecided } from '../runtime/undecided-hooks'
import { completeInCall, replayedFrom } from './cassette-bridge'
import { type Answer, chooseAnswer } from './choose-answer'
import { StructuredOutputRejected } from './endpoint-replies'
import { extractJson } from './extract-json'
import { callSignal, type JudgeCallScope, judgeCallScope } from './judge-call-scope'
import { type CallJudge, callJudge, type ParsedJudge, type ReplyMode } from './judge-input'
import { judgeText } from './judge-protocol'
import { type EndpointRequest, prepareCompletion, sendCompletion } from './openai-judge'
import { type PreparedSchema, requestSchema } from './output-schema'
import {
  type JudgeProcessor,
  processJudgeInput,
  processJudgeOutput,
  withErrorProcessors,
} from './processors'
import { untilAborted } from './retries'

export interface JudgeCallOptions {
  /** The judge, resolved through the configuration and parsed where it entered (`enteringJudge`). */
  judge: ParsedJudge
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
  /** The version of the prompt template, stored with the call's cassette entries. */
  promptVersion?: string | undefined
  /**
   * What the run's edge (a matcher) chose and knows: its cassette mode, its test and the test's
   * signal. Unset: the configuration's mode, the running test and its signal.
   */
  choices?: RunChoices | undefined
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

/** One judge call as it runs: what it was asked, its judge decided once, its bounds, its tally. */
interface RunningCall {
  options: JudgeCallOptions
  judge: CallJudge
  /** Starts as the judge's; `'auto'` falls back to `'prompt'` for the rest of the call. */
  mode: ReplyMode
  /** The `response_format` of an endpoint asked for structured output, built once for every attempt. */
  responseFormat: EndpointRequest['responseFormat']
  signal: AbortSignal
  scope: JudgeCallScope
  tally: CallTally
}

/** The step's texts after the input processors: what every attempt of the call sends. */
interface Texts {
  system?: string | undefined
  prompt: string
}

/** The previous reply, clipped, and what made it unusable. */
interface Repair {
  reply: string
  problem: string
}

/**
 * Make one logical judge call: send the prompt, extract and validate the JSON, feed an invalid
 * reply back once for repair, and record a {@link JudgeCall} whatever happens. An unusable reply
 * is `RUBRICATE_JUDGE_OUTPUT`; it never turns into a verdict.
 * @internal
 */
export async function runJudgeCall(options: JudgeCallOptions): Promise<JudgeCallResult> {
  const call = startCall(options)
  try {
    // Without input processors, nothing is awaited: every promise costs on the replay path.
    const { inputProcessors, system, prompt } = options
    const texts: Texts = inputProcessors?.length
      ? await processJudgeInput(inputProcessors, system, prompt)
      : options
    const result = await attemptLoop(call, texts)
    return { ...result, call: call.tally.finish('success', call.judge.label) }
  } catch (error) {
    throw failedCall(call, error)
  }
}

// What the call belongs to and counts, then its judge: a bad judge fails here, before any request.
function startCall(options: JudgeCallOptions): RunningCall {
  const tally = new CallTally(options.step, options.record)
  const { choices } = options
  const scope = judgeCallScope({
    cassetteMode: choices?.cassetteMode,
    test: choices?.test,
    promptVersion: options.promptVersion,
    onExchange: (event) => tally.exchanges.push(event),
    onLiveRequest: () => {
      tally.liveRequests++
    },
  })
  const signal = callSignal(choices?.signal)
  const judge = callJudge(options, options.output !== undefined)
  const { output } = options
  const structured = judge.judge.kind === 'endpoint' && judge.mode !== 'prompt' && output
  const responseFormat = structured
    ? {
        name: options.schemaName ?? 'judge_output',
        schema: requestSchema(output),
        strict: output.strict,
      }
    : undefined
  return { options, judge, mode: judge.mode, responseFormat, signal, scope, tally }
}

async function attemptLoop(
  call: RunningCall,
  texts: Texts,
): Promise<{ value: unknown; text: string }> {
  const { output, outputProcessors } = call.options
  let repair: Repair | undefined
  for (let attempt = 1; ; attempt++) {
    call.tally.attempts = attempt
    const reply = await sendAttempt(call, texts, repair)
    if (reply.usage) call.tally.usage.push(reply.usage)
    const text = outputProcessors?.length
      ? await processJudgeOutput(outputProcessors, reply.text)
      : reply.text
    if (!output) return { value: text, text }
    const answer = answerOf({ ...reply, text }, output, texts.prompt)
    const checked = answer instanceof Promise ? await answer : answer
    if (checked.ok) return { value: checked.value, text }
    if (attempt >= 2) {
      throw new JudgeOutputError(
        messages.judgeOutputInvalid(call.judge.label, checked.problem, text),
        text,
      )
    }
    repair = { reply: clipForRepair(text), problem: checked.problem }
  }
}

// One attempt's request. An endpoint that rejects structured output is asked again with the
// schema in the prompt; error processors may ask for the request again.
function sendAttempt(call: RunningCall, texts: Texts, repair: Repair | undefined) {
  const once = async (): Promise<JudgeReply> => {
    try {
      return await send(call, texts, repair)
    } catch (error) {
      if (!(error instanceof StructuredOutputRejected)) throw error
      call.mode = 'prompt'
      return await send(call, texts, repair)
    }
  }
  const { errorProcessors, maxProcessorRetries } = call.options
  if (!errorProcessors?.length) return once()
  return withErrorProcessors(errorProcessors, maxProcessorRetries, call.signal, once)
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

/** One request of the call, to its endpoint or its model, ended at once when the call is aborted. */
function send(call: RunningCall, texts: Texts, repair: Repair | undefined): Promise<JudgeReply> {
  const aborted = () => new JudgeRequestError(messages.judgeAborted(call.judge.label))
  if (call.signal.aborted) throw aborted()
  const turn = turnOf(call, texts, repair)
  const { judge } = call.judge
  const pending =
    judge.kind === 'endpoint' ? sendToEndpoint(call, judge, turn) : sendToModel(call, judge, turn)
  return untilAborted(pending, [call.signal], aborted)
}

/** The texts of one request: the schema where the mode puts it, and a repair's instruction. */
interface Turn extends Texts {
  repair: { reply: string; instruction: string } | undefined
}

function turnOf(call: RunningCall, texts: Texts, repair: Repair | undefined): Turn {
  const json = call.options.output?.json
  const inPrompt = call.mode === 'prompt' && json !== undefined
  const schema = inPrompt ? judgeText.schemaInstruction(json) : undefined
  // Mastra's jsonPromptInjection 'system': the schema goes in the system message, the user
  // message stays the step's prompt as written.
  const inSystem = schema !== undefined && call.judge.schemaInSystem
  return {
    system: inSystem ? (texts.system ? `${texts.system}\n\n${schema}` : schema) : texts.system,
    prompt: schema !== undefined && !inSystem ? `${texts.prompt}\n\n${schema}` : texts.prompt,
    repair: repair && {
      reply: repair.reply,
      instruction: judgeText.repairInstruction(repair.problem, inPrompt ? json : undefined),
    },
  }
}

function sendToEndpoint(
  call: RunningCall,
  judge: Extract<ParsedJudge, { kind: 'endpoint' }>,
  turn: Turn,
): Promise<JudgeReply> {
  const { endpoint } = judge
  const request: EndpointRequest = {
    ...turn,
    // After a rejection the call asks in the prompt: no `response_format` again.
    responseFormat: call.mode === 'prompt' ? undefined : call.responseFormat,
    fallbackOnRejection: call.mode === 'auto',
    missingKey: judge.missingKey,
    seed: call.options.seed,
    temperature: endpoint.temperature,
  }
  const prepared = prepareCompletion(endpoint, request)
  const onRequest = () => {
    call.tally.requests++
  }
  return sendCompletion(endpoint, request, prepared, call.signal, onRequest, call.scope)
}

// A custom model is handed one prompt: a repair's turns are written into it.
function sendToModel(
  call: RunningCall,
  judge: Extract<ParsedJudge, { kind: 'custom' }>,
  turn: Turn,
): Promise<JudgeReply> {
  const { output, schemaName, seed, temperature } = call.options
  const request = {
    prompt: turn.repair
      ? `${turn.prompt}\n\nYour previous reply was:\n${turn.repair.reply}\n\n${turn.repair.instruction}`
      : turn.prompt,
    ...(turn.system !== undefined && { system: turn.system }),
    ...(output !== undefined && { schema: output.json, schemaName: schemaName ?? 'judge_output' }),
    ...(seed !== undefined && { seed }),
    ...(temperature !== undefined && { temperature }),
  }
  call.tally.requests++
  const { signal } = call
  return Promise.resolve()
    .then(() => completeInCall(judge.model, request, { signal }, call.scope))
    .then(checkReply, (error: unknown) => {
      if (isRubricateError(error) || signal.aborted) throw error
      throw new JudgeRequestError(messages.customJudgeFailed(call.judge.label, error), undefined, {
        cause: error,
      })
    })
}

function checkReply(reply: JudgeReply): JudgeReply {
  if (typeof reply?.text !== 'string') return { ...reply, text: '' }
  return reply
}

// The failure the caller sees, once the call is recorded as failed.
function failedCall(call: RunningCall, error: unknown): unknown {
  const record = call.tally.finish('failed', call.judge.label)
  let failure = error
  // A reply replayed from a cassette fails the same way on every replay: say where it is.
  if (error instanceof JudgeOutputError && record.source === 'replayed' && record.cassetteKey) {
    const { file, command } = replayedFrom(record.cassetteKey, call.scope)
    // No `cause`: the same failure, told in full, not a wrapper that rootCause() would look past.
    failure = new JudgeOutputError(
      messages.judgeOutputReplayed(error.message, file, command),
      error.rawText,
    )
  }
  // A scorer run by the agent's code, or a loop's check, may catch it: the test still hears of
  // it. Not an abort: the caller ended the call (a timeout fails the test by itself, a loop's
  // check deadline is the loop's to count).
  if (!call.signal.aborted) reportUndecided(failure)
  return failure
}

/** What a call counts while it runs, and the {@link JudgeCall} it becomes. */
class CallTally {
  readonly exchanges: ExchangeEvent[] = []
  readonly usage: TokenUsage[] = []
  attempts = 0
  requests = 0
  liveRequests = 0
  private readonly started = performance.now()

  constructor(
    private readonly step: ScorerStepName,
    private readonly record: ((call: JudgeCall) => void) | undefined,
  ) {}

  /** The call's record, under the judge's `model` name, told to its listener. */
  finish(status: JudgeCall['status'], model: string): JudgeCall {
    const { exchanges } = this
    const call: JudgeCall = {
      step: this.step,
      model,
      status,
      source: sourceOf(exchanges),
      durationMs: Math.round(performance.now() - this.started),
      attemptCount: this.attempts,
      // Requests attempted, or exchanges reported by the transport, whichever saw more: a dropped
      // connection is a request made, though no exchange completed.
      modelCallCount: Math.max(this.requests, exchanges.length),
      liveRequestCount: this.liveRequests,
    }
    const keyed = exchanges.findLast((event) => event.key !== undefined)
    if (keyed?.key !== undefined) call.cassetteKey = keyed.key
    if (keyed?.file !== undefined) call.cassetteFile = keyed.file
    if (this.usage.length > 0) call.usage = sumUsage(this.usage)
    this.record?.(call)
    return call
  }
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
