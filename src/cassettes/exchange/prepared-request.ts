import { UsageError } from '../../errors'
import { messages } from '../../messages'
import { currentCallContext } from '../../runtime/call-context'
import { redactRequest, type SecretSet } from '../redaction/redaction'
import { canonicalJson } from '../store/canonical-json'
import {
  computeKey,
  keyBody,
  keyQuery,
  type RequestQuery,
  requestModel,
  sha256Hex,
} from '../store/cassette-key'

/**
 * A request made ready for the store: its body parsed, redacted, stripped of non-semantic fields
 * and passed through the user's `redact` hook, then keyed. The same steps run at record and at
 * replay time, so a key never depends on a secret or on which machine recorded it.
 */

/** What a request is prepared from. @internal */
export interface RequestInput {
  method: string
  endpoint: string
  /** The raw body text, or an already parsed value (`cached()` passes its `JudgeRequest`). */
  body: string | unknown
  url?: URL | undefined
  /**
   * Key the query of a POST too (a provider's native API, a `match` pattern, a provider host),
   * without its secret-named parameters. Default: only the query of a request that is not a POST.
   */
  queryInKey?: boolean | undefined
  headers?: Headers | [string, string][] | undefined
  redact?: RedactHook | undefined
  /** The user's `cassettes.normalize`, run on every string of the body after redaction. */
  normalize?: ((text: string) => string) | undefined
  /** The `describeEval` trial the request belongs to; read from the call context when unset. */
  trial?: number | undefined
}

/** @internal */
export interface PreparedRequest {
  method: string
  endpoint: string
  /** The body as keyed and stored. */
  body: unknown
  /** The redacted query of a request that is not a POST (part of its key); unset otherwise. */
  query: RequestQuery | undefined
  key: string
  /** The `describeEval` trial, part of the key and stored with the entry; unset outside trials. */
  trial: number | undefined
  /** The model the request names: the body's `model`, else the one in its path. */
  model: string | undefined
  /** The secrets of this exchange, for redacting the reply and the rescan. */
  secrets: SecretSet
  /** The n-th identical request of its test (from 2), part of the key; unset for the first. */
  occurrence: number | undefined
  /** A digest of the body before the `redact` hook changed it, part of the key; unset when it did not. */
  hook: string | undefined
  input: RequestInput
}

/** The user's `cassettes.redact` hook. @internal */
export type RedactHook = (entry: any) => any

/**
 * Prepare a request: redacted of the secrets known now (the environment is read afresh, so a
 * secret set a moment ago is never keyed in), normalised, hooked and keyed. @internal
 */
export function prepareRequest(input: RequestInput): PreparedRequest {
  const trial = input.trial ?? currentCallContext().trial
  // Pairs (the judge's) are told apart first: the first read of the global `Headers` loads
  // Node's fetch.
  const headers =
    input.headers === undefined || Array.isArray(input.headers)
      ? (input.headers ?? [])
      : headerPairs(input.headers)
  const parsed = typeof input.body === 'string' ? parseBody(input.body) : input.body
  const rawQuery = keyQuery(input.method, input.url, input.queryInKey)
  const redacted = redactRequest(input.url, headers, parsed, rawQuery)
  const { body, hook } = keyedBody(input, redacted.body)
  const query = redacted.query as RequestQuery | undefined
  return {
    method: input.method,
    endpoint: input.endpoint,
    body,
    query,
    key: computeKey(input.endpoint, body, trial, input.method, query, { hook }),
    trial,
    model: requestModel(body, input.url?.pathname),
    secrets: redacted.secrets,
    occurrence: undefined,
    hook,
    input: trial === input.trial ? input : { ...input, trial },
  }
}

/**
 * The redacted body as it is keyed: without its non-semantic fields, normalised, through the
 * user's hook, and a digest of what the hook changed (unset when it changed nothing).
 */
function keyedBody(
  input: RequestInput,
  redacted: unknown,
): { body: unknown; hook: string | undefined } {
  let body = keyBody(redacted, input.endpoint)
  // Two tests' requests that normalise alike share a key, never a reply: each test is served
  // only the entries it recorded itself (ARCHITECTURE.md §7.2), so no merge check is needed.
  if (input.normalize) body = normalizeStrings(body, input.normalize)
  if (!input.redact) return { body, hook: undefined }
  const before = canonicalJson(body)
  const hooked = keyBody(
    hookRequest(input.redact, input.method, input.endpoint, body),
    input.endpoint,
  )
  // A hook that masks what tells two requests apart (a customer's name) must not make them
  // one key, which would serve one's reply to the other: the key keeps a digest of what the
  // hook replaced, as the built-in placeholders keep a digest of each secret.
  const hook = canonicalJson(hooked) !== before ? sha256Hex(before).slice(0, 16) : undefined
  return { body: hooked, hook }
}

/**
 * The same request as the n-th identical one of its test (ARCHITECTURE.md §7.10): keyed with its
 * occurrence from the second on, so that each is answered by the reply recorded for it.
 * @internal
 */
export function atOccurrence(prepared: PreparedRequest, occurrence: number): PreparedRequest {
  if (occurrence < 2) return prepared
  const { endpoint, body, trial, method, query, hook } = prepared
  return {
    ...prepared,
    occurrence,
    key: computeKey(endpoint, body, trial, method, query, { occurrence, hook }),
  }
}

/** Run the user's hook on the request alone (`response` undefined); returns the body it leaves. @internal */
export function hookRequest(
  hook: RedactHook,
  method: string,
  endpoint: string,
  body: unknown,
): unknown {
  const draft = {
    v: 1,
    request: { method, endpoint, body: structuredClone(body) },
    response: undefined,
  }
  return runHook(hook, draft).request?.body
}

/** Run the user's hook, turning a throw into a usage error that says how it is called. @internal */
export function runHook<T>(hook: RedactHook, entry: T): T {
  let result: unknown
  try {
    result = hook(entry)
  } catch (error) {
    throw new UsageError(
      messages.redactHookFailed(error instanceof Error ? error.message : String(error)),
      { cause: error },
    )
  }
  if (result === undefined || result === null) return entry
  const request = (result as { request?: unknown }).request
  // Anything but an entry (a string, a promise, an entry without its request) would key or write
  // garbage: say so now, instead of sending the request live under a key nothing can replay.
  if (
    typeof result !== 'object' ||
    typeof (result as { then?: unknown }).then === 'function' ||
    request === null ||
    typeof request !== 'object'
  ) {
    throw new UsageError(messages.redactHookResult(result))
  }
  return result as T
}

/** The name/value pairs of `Headers`. @internal */
export function headerPairs(headers: Headers): [string, string][] {
  const pairs: [string, string][] = []
  headers.forEach((value, name) => {
    pairs.push([name, value])
  })
  return pairs
}

function parseBody(text: string): unknown {
  if (!text) return ''
  const first = text.trimStart()[0]
  if (first !== '{' && first !== '[') return text
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

/** Every string of a body (object keys aside) through the user's `cassettes.normalize`. */
function normalizeStrings(value: unknown, normalize: (text: string) => string): unknown {
  if (typeof value === 'string') {
    let out: unknown
    try {
      out = normalize(value)
    } catch (error) {
      throw new UsageError(
        messages.normalizeHookFailed(error instanceof Error ? error.message : String(error)),
        { cause: error },
      )
    }
    if (typeof out !== 'string') {
      throw new UsageError(messages.notFunctionResult('cassettes.normalize', out))
    }
    return out
  }
  if (Array.isArray(value)) return value.map((item) => normalizeStrings(item, normalize))
  if (value === null || typeof value !== 'object') return value
  const out: Record<string, unknown> = {}
  for (const [name, item] of Object.entries(value)) out[name] = normalizeStrings(item, normalize)
  return out
}
