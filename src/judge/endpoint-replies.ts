// What an OpenAI-compatible endpoint answered, as the judge reads it: a chat completion (its text,
// a refusal, its usage), or a failure, for the retry rule (`withRetries`) and as the rubricate
// error a judge call ends with, saying what happened and what to do.
import type OpenAI from 'openai'
import { isRubricateError, JudgeRequestError } from '../errors'
import { messages, show } from '../messages'
import { contentText } from '../output/message-text'
import type { JudgeReply, OpenAICompatibleJudge, TokenUsage } from '../records/records'
import { isWholeReplay } from './cassette-bridge'
import type { FailureRule, RetryBounds } from './retries'

/** The endpoint rejected `response_format`: `'auto'` retries in prompt mode. @internal */
export class StructuredOutputRejected extends Error {}

/** What a failed completion's errors name, read when each error is made. @internal */
export interface FailedCompletion {
  endpoint: OpenAICompatibleJudge
  prepared: { baseURL: string; apiKey: string | undefined }
  bounds: RetryBounds
  /** The requests attempted so far, and a rubricate error the judge's fetch parked. */
  scope: { requests: number; error?: unknown }
  /** A rejection of `response_format` becomes {@link StructuredOutputRejected}. */
  fallback: boolean
}

/**
 * The SDK's failures as the retry rule reads them. A rubricate error parked by the judge's fetch
 * is thrown as it was; an attempt's own timeout is the SDK's timeout error; its request errors
 * are read for a retry, never a user abort.
 * @internal
 */
export async function sdkFailureRule(run: FailedCompletion): Promise<FailureRule> {
  if (run.scope.error) throw run.scope.error
  // Loaded on a failure only: a replayed call that succeeds never loads the SDK.
  const sdk = await import('openai')
  return {
    timeout: () => new sdk.APIConnectionTimeoutError(),
    httpFailure: (failure) =>
      failure instanceof sdk.APIError && !(failure instanceof sdk.APIUserAbortError)
        ? { status: failure.status, headers: failure.headers as Headers | undefined }
        : undefined,
    translate: (failure) => translate(failure, run, sdk),
  }
}

/** The error of a call whose deadline passed, with the failure it cut short. @internal */
export function deadlinePassed(run: FailedCompletion, cause?: unknown): JudgeRequestError {
  const { endpoint, prepared, bounds, scope } = run
  return new JudgeRequestError(
    messages.judgeDeadline(endpoint.model, prepared.baseURL, bounds.deadlineMs, scope.requests),
    undefined,
    cause === undefined ? undefined : { cause },
  )
}

/** The error of a call caught while it waited to retry: the caller's signal fired. @internal */
export function callAborted(run: FailedCompletion): JudgeRequestError {
  return new JudgeRequestError(messages.judgeAborted(run.endpoint.model))
}

// The rubricate error a call ends with when `error` is not retried.
function translate(error: unknown, run: FailedCompletion, sdk: typeof import('openai')): unknown {
  const { endpoint, fallback } = run
  const { baseURL, apiKey } = run.prepared
  const keyless = !apiKey
  const requests = run.scope.requests
  const model = endpoint.model
  if (run.bounds.caller.aborted || error instanceof sdk.APIUserAbortError) {
    return new JudgeRequestError(messages.judgeAborted(model), undefined, { cause: error })
  }
  if (isRubricateError(error)) return error
  if (!(error instanceof sdk.APIError)) return bodyError(error, model, baseURL)
  const status = error.status
  const detail = providerMessage(error)
  if (status === undefined) {
    const problem =
      error instanceof sdk.APIConnectionTimeoutError
        ? 'a timeout'
        : `a connection error (${connectionDetail(error)})`
    return new JudgeRequestError(
      messages.judgeRetriesExhausted(model, baseURL, problem, requests),
      undefined,
      { cause: error },
    )
  }
  if (fallback && isStructuredOutputRejection(status, detail)) {
    return new StructuredOutputRejected(detail)
  }
  if (status === 401 && keyless) {
    return new JudgeRequestError(messages.judgeNoApiKey(model, baseURL), status, { cause: error })
  }
  if ([400, 401, 403, 404, 422].includes(status)) {
    return new JudgeRequestError(
      messages.judgeRequestRejected(model, baseURL, status, detail),
      status,
      { cause: error },
    )
  }
  return new JudgeRequestError(
    messages.judgeRetriesExhausted(
      model,
      baseURL,
      `HTTP ${status} (${JSON.stringify(detail)})`,
      requests,
    ),
    status,
    { cause: error },
  )
}

/** The provider's own words: `error.message` of the body, else the whole body or status text. */
function providerMessage(error: InstanceType<typeof OpenAI.APIError>): string {
  const body = error.error as { message?: unknown } | undefined
  if (typeof body?.message === 'string') return body.message
  if (body !== undefined && body !== null) return JSON.stringify(body)
  return error.message.replace(/^\d+ /, '')
}

/** A 200 reply whose body the SDK could not parse as JSON; anything else is returned as it was. */
function bodyError(error: unknown, model: string, baseURL: string): unknown {
  if (error instanceof SyntaxError) {
    return new JudgeRequestError(
      messages.judgeNotACompletion(model, baseURL, `a body that is not JSON (${error.message})`),
      200,
      { cause: error },
    )
  }
  return error
}

function connectionDetail(error: Error): string {
  const cause = error.cause
  return cause instanceof Error
    ? cause.cause instanceof Error
      ? cause.cause.message
      : cause.message
    : error.message
}

/**
 * True when an error from the endpoint says it does not support `response_format` with a JSON
 * Schema: the signal for `'auto'` to retry the same call in prompt mode. Only a 400 or 422 whose
 * text names the feature counts, so an unrelated bad request still fails with its own message.
 */
function isStructuredOutputRejection(status: number | undefined, text: string): boolean {
  if (status !== 400 && status !== 422) return false
  return /response_format|json_schema|structured[ _-]?output/i.test(text)
}

/**
 * The judge's reply in what an OpenAI-compatible endpoint answered, or `undefined` when the body
 * is not a chat completion at all (an HTML page, an empty body, another API's JSON). The text is
 * the first choice's content (a string, or the text of its parts); no choice is an empty reply.
 * A message with a refusal is a refusal, whatever its content holds (a model may refuse and still
 * write verdict JSON): its text is the refusal, so the refusing judge's words reach the error, and
 * `refusal` is set, so that nothing in it is read as a verdict.
 * @internal
 */
export function completionReply(completion: unknown): JudgeReply | undefined {
  if (typeof completion !== 'object' || completion === null) return undefined
  const { choices, model, usage } = completion as {
    choices?: unknown
    model?: unknown
    usage?: unknown
  }
  if (!Array.isArray(choices)) return undefined
  const message = (choices[0] as { message?: { content?: unknown; refusal?: unknown } } | undefined)
    ?.message
  const refusal = refusalOf(message)
  const reply: JudgeReply =
    refusal !== undefined
      ? { text: refusal, refusal }
      : // Some OpenAI-compatible servers send the content as a list of text parts.
        { text: contentText(message?.content) ?? '' }
  if (typeof model === 'string') reply.model = model
  const tokens = tokenUsage(usage)
  if (tokens) reply.usage = tokens
  return reply
}

/** The message's refusal: its `refusal` field, else the text of its `refusal` content parts. */
function refusalOf(
  message: { content?: unknown; refusal?: unknown } | undefined,
): string | undefined {
  const parts = Array.isArray(message?.content) ? (message.content as unknown[]) : []
  const texts = [message?.refusal]
  for (const part of parts) {
    if ((part as { type?: unknown } | null)?.type === 'refusal') {
      texts.push((part as { refusal?: unknown }).refusal)
    }
  }
  const refusal = texts
    .filter((text): text is string => typeof text === 'string' && text.trim() !== '')
    .join('\n')
  return refusal === '' ? undefined : refusal
}

function tokenUsage(usage: unknown): TokenUsage | undefined {
  const {
    prompt_tokens: input,
    completion_tokens: output,
    total_tokens: total,
  } = (usage ?? {}) as Record<string, unknown>
  if (typeof input !== 'number' || typeof output !== 'number') return undefined
  return {
    inputTokens: input,
    outputTokens: output,
    totalTokens: typeof total === 'number' ? total : input + output,
  }
}

/**
 * A successful reply with its body read to the end. A connection that breaks mid-body then fails
 * inside `fetch`, where the SDK counts it as a connection error and retries it (bounded), instead
 * of after `fetch`, where nothing retries it. Judge replies are small, non-streamed JSON. A
 * replayed reply is passed on as it is: its body is already in memory, so a second `Response`
 * would only copy it.
 * @internal
 */
export async function wholeBody(response: Response): Promise<Response> {
  if (!response.ok || response.body === null || isWholeReplay(response)) return response
  const body = await response.arrayBuffer()
  const headers = new Headers(response.headers)
  // The bytes are already decoded, so the length is theirs, not that of the encoded body.
  headers.delete('content-encoding')
  headers.set('content-length', String(body.byteLength))
  return new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers,
  })
}

/** How a body that is not a chat completion is named in the error. @internal */
export function bodyPreview(body: unknown): string {
  if (body === undefined || body === null || body === '') return 'an empty body'
  return `the body ${show(body)}`
}
