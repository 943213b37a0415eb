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
 * A judge processor in rubricate's text form: any of the three hooks. `processInput` transforms
 * the messages before they reach the judge (redaction, validation); cassettes key on the request
 * as sent, after it. `processOutputResult` transforms or checks the judge's text before it is
 * parsed. `processAPIError` sees a failed request and may ask for a retry of that request only.
 */
export interface JudgeTextProcessor {
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

/**
 * A processor written for Mastra (its `Processor` from `@mastra/core/processors`, which always has
 * an `id`), used unchanged: `processInput` gets `{ messages, systemMessages, messageList, state,
 * abort }` with Mastra's stored messages and returns messages, `{ messages, systemMessages }` or
 * the list; `processOutputResult` gets the judge's reply as one assistant message (and
 * `result.text`) and returns messages or the list; `processAPIError` returns `{ retry }`. Its hooks
 * are typed as Mastra types them, which rubricate does not import, so they are `unknown` here.
 */
export interface MastraJudgeProcessor {
  readonly id: string
  readonly name?: string | undefined
  processInput?: unknown
  processOutputResult?: unknown
  processAPIError?: unknown
}

/**
 * A judge processor (Mastra's `Processor`, for the judge of a scorer): rubricate's text form, or
 * a processor written for Mastra, used as it is. A class instance, or an object with a field only
 * Mastra's `Processor` has (`name`, `processInputStep`...), gets Mastra's message format.
 */
export type JudgeProcessor = JudgeTextProcessor | MastraJudgeProcessor

// The hooks as called: with the arguments of both forms, their results checked where used.
interface Hooks {
  id?: string | undefined
  processInput?(args: object): unknown
  processOutputResult?(args: object): unknown
  processAPIError?(args: object): unknown
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
    if (isMastraProcessor(processor)) {
      list = await mastraInput(processor as Hooks, list)
      continue
    }
    const out = await (processor as JudgeTextProcessor).processInput?.({ messages: list, abort })
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
    // One call for both forms: the text form reads `text` and returns a string; Mastra's reads
    // `messages` (or `result.text`) and returns messages or the list.
    const reply = [mastraMessage('judge-reply', 'assistant', out)]
    const list = messageListOf(reply)
    const returned: unknown = await (processor as Hooks).processOutputResult?.({
      text: out,
      messages: reply,
      messageList: list,
      result: { text: out, finishReason: 'stop', steps: [] },
      state: {},
      retryCount: 0,
      abort,
    })
    const next =
      typeof returned === 'string' ? returned : replyText(returnedMessages(returned, list, reply))
    if (next === undefined) throw new UsageError(messages.processorBadText(processor.id, returned))
    out = next
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
        // Mastra's arguments too (its StreamErrorRetryProcessor waits on `abortSignal`); the
        // judge's request is not a Mastra conversation, so its messages are empty.
        const out = (await (processor as Hooks).processAPIError?.({
          error,
          retryCount,
          abort,
          abortSignal: signal,
          messages: [],
          messageList: messageListOf([]),
          stepNumber: 0,
          steps: [],
          state: {},
        })) as ErrorDecision | undefined
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

// Mastra's form of the same hooks: a processor written for a Mastra agent (`processInput` /
// `processOutputResult` over `{ messages }` of Mastra's stored messages, `processAPIError`
// returning `{ retry }`) works unchanged. Mastra is not imported: its message format
// (`MastraDBMessage`, format 2) is built and read here.

type Loose = Record<string, unknown>

// The judge's reply as a Mastra output processor left it: the text of its last assistant message.
function replyText(returned: { messages: unknown[] } | undefined): string | undefined {
  if (!returned) return undefined
  for (let i = returned.messages.length - 1; i >= 0; i--) {
    const message = returned.messages[i]
    if (mastraRole(message) === 'assistant') return mastraMessageText(message)
  }
  return undefined
}

// A Mastra input processor over the judge's messages: the system text as Mastra's
// `systemMessages`, the prompt as stored user messages; what it returns is put back as the
// judge's `{ role, content }` messages.
async function mastraInput(processor: Hooks, list: JudgeMessage[]): Promise<JudgeMessage[]> {
  const systemMessages = list
    .filter((m) => m.role === 'system')
    .map((m) => ({ role: 'system', content: m.content }))
  const given: MastraMessage[] = list
    .filter((m) => m.role === 'user')
    .map((m, index) => mastraMessage(`judge-prompt-${index}`, 'user', m.content))
  const messageList = messageListOf(given)
  const out = await processor.processInput?.({
    messages: given,
    systemMessages,
    messageList,
    state: {},
    retryCount: 0,
    abort,
  })
  const returned = returnedMessages(out, messageList, given)
  if (!returned) throw new UsageError(messages.processorBadMessages(processor.id, out))
  const rebuilt: JudgeMessage[] = []
  for (const message of [...(returned.systemMessages ?? systemMessages), ...returned.messages]) {
    const content = mastraMessageText(message)
    if (content === undefined) {
      throw new UsageError(messages.processorBadMessages(processor.id, out))
    }
    rebuilt.push({ role: mastraRole(message) === 'system' ? 'system' : 'user', content })
  }
  return rebuilt
}

/** A Mastra stored message (`MastraDBMessage`), as far as the judge's processors need it. */
interface MastraMessage {
  id: string
  role: 'user' | 'assistant' | 'system'
  createdAt: Date
  content: { format: 2; parts: { type: 'text'; text: string }[]; content?: string | undefined }
}

// Hooks and fields only Mastra's Processor has; rubricate's text form has `id` and the three hooks.
const MASTRA_ONLY = [
  'name',
  'description',
  'processInputStep',
  'processOutputStream',
  'processOutputStep',
  'processLLMRequest',
  'processLLMResponse',
  '__registerMastra',
]

/**
 * True for a processor written for Mastra: an instance of a class (Mastra's own processors and the
 * `class X implements Processor` its docs show), or an object with a field only Mastra's
 * `Processor` has (`name`, `processInputStep`...). Such a processor's `processInput` is given
 * Mastra's stored messages; a plain `{ id?, processInput }` object gets rubricate's
 * `{ role, content }` messages.
 */
function isMastraProcessor(processor: object): boolean {
  const proto = Object.getPrototypeOf(processor)
  if (proto !== Object.prototype && proto !== null) return true
  return MASTRA_ONLY.some((key) => key in processor)
}

// Not the time of the call: no judge request may depend on when it ran (cassette keys).
const EPOCH = new Date(0)

/** One Mastra stored message holding `text`. */
function mastraMessage(id: string, role: MastraMessage['role'], text: string): MastraMessage {
  return {
    id,
    role,
    createdAt: EPOCH,
    content: { format: 2, parts: [{ type: 'text', text }], content: text },
  }
}

/**
 * A stand-in for Mastra's `MessageList` around `messages`: a processor that mutates the messages
 * in place and returns the list it was given is read back from them. @internal
 */
function messageListOf(messages: MastraMessage[]): {
  get: { all: { db(): MastraMessage[] } }
} {
  return { get: { all: { db: () => messages } } }
}

/**
 * The messages a Mastra `processInput` or `processOutputResult` returned: a list of messages,
 * `{ messages, systemMessages }`, or the message list it was given (`given` then holds the
 * messages as it left them). `undefined` for anything else. @internal
 */
function returnedMessages(
  value: unknown,
  list: object,
  given: MastraMessage[],
): { messages: unknown[]; systemMessages?: unknown[] | undefined } | undefined {
  if (value === list) return { messages: given }
  if (Array.isArray(value)) return { messages: value }
  const object = value as Loose | null
  if (typeof object === 'object' && object !== null && Array.isArray(object.messages)) {
    return {
      messages: object.messages,
      systemMessages: Array.isArray(object.systemMessages) ? object.systemMessages : undefined,
    }
  }
  return undefined
}

/**
 * The text of a Mastra message (its text parts joined, else its `content` string) or of a plain
 * `{ role, content: string }` message; `undefined` when it holds no text. @internal
 */
function mastraMessageText(message: unknown): string | undefined {
  const content = (message as Loose | null)?.content
  if (typeof content === 'string') return content
  if (typeof content !== 'object' || content === null) return undefined
  const parts = (content as Loose).parts
  if (Array.isArray(parts)) {
    const texts = parts.flatMap((part) =>
      (part as Loose | null)?.type === 'text' && typeof (part as Loose).text === 'string'
        ? [(part as Loose).text as string]
        : [],
    )
    if (texts.length > 0) return texts.join('')
  }
  const text = (content as Loose).content
  return typeof text === 'string' ? text : undefined
}

/** The role of a returned message, for putting the judge's request back together. */
function mastraRole(message: unknown): unknown {
  return (message as Loose | null)?.role
}
