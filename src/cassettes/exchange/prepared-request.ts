import { currentCallContext } from '../../call-context'
import { UsageError } from '../../errors'
import { messages } from '../../messages'
import {
  envSecrets,
  freshEnvSecrets,
  recentEnvSecrets,
  redactJson,
  redactText,
  requestSecrets,
  type Secret,
  type SecretSet,
  secretSet,
} from '../redaction/redaction'
import {
  computeKey,
  keyBody,
  keyQuery,
  type RequestQuery,
  requestModel,
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
  /** The environment's secrets used, to check before writing that none appeared since. */
  envSecrets: Secret[]
  input: RequestInput
}

/** The user's `cassettes.redact` hook. @internal */
export type RedactHook = (entry: any) => any

/**
 * Prepare a request for a lookup, redacted of the environment's secrets as read at most a second
 * ago: before a miss is reported or anything is written, {@link refreshPrepared} keys it again
 * with the environment as it is now. @internal
 */
export function prepareRequest(input: RequestInput): PreparedRequest {
  // The trial is taken now, in the caller's context: a later refresh (before writing) may run
  // outside it, and must key the request the same way.
  const trial = input.trial ?? currentCallContext().trial
  // A `redact` hook sees each request once: it is keyed with the environment as it is now, so
  // that the refresh before a miss or a write has nothing to key again.
  const env = input.redact ? envSecrets() : recentEnvSecrets()
  return prepareWith(trial === input.trial ? input : { ...input, trial }, env)
}

/**
 * The request prepared again if the environment gained or lost a secret since it was keyed (the
 * environment is read once a second on the replay path): a lookup that missed is then tried
 * again, and what is written is redacted of it and keyed as a replay will key it.
 * @internal
 */
export function refreshPrepared(prepared: PreparedRequest): PreparedRequest {
  const env = freshEnvSecrets()
  const same =
    env.length === prepared.envSecrets.length &&
    env.every((secret, i) => secret.value === prepared.envSecrets[i]?.value)
  return same ? prepared : prepareWith(prepared.input, env)
}

function prepareWith(input: RequestInput, env: Secret[]): PreparedRequest {
  // Pairs (the judge's) are told apart first: the first read of the global `Headers` loads
  // Node's fetch, milliseconds that a replayed call never needs.
  const headers =
    input.headers === undefined || Array.isArray(input.headers)
      ? (input.headers ?? [])
      : headerPairs(input.headers)
  const secrets = secretSet(
    env,
    headers.length || input.url ? requestSecrets(input.url, headers) : [],
  )
  const parsed = typeof input.body === 'string' ? parseBody(input.body) : input.body
  let body = keyBody(
    typeof parsed === 'string' ? redactText(parsed, secrets) : redactJson(parsed, secrets),
  )
  if (input.normalize) body = normalizeStrings(body, input.normalize)
  if (input.redact) body = keyBody(hookRequest(input.redact, input.method, input.endpoint, body))
  const rawQuery = keyQuery(input.method, input.url, input.queryInKey)
  const query = rawQuery && (redactJson(rawQuery, secrets) as RequestQuery)
  return {
    method: input.method,
    endpoint: input.endpoint,
    body,
    query,
    key: computeKey(input.endpoint, body, input.trial, input.method, query),
    trial: input.trial,
    model: requestModel(body, input.url?.pathname),
    secrets,
    envSecrets: env,
    input,
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
  try {
    const result = hook(entry)
    return (result ?? entry) as T
  } catch (error) {
    throw new UsageError(
      messages.redactHookFailed(error instanceof Error ? error.message : String(error)),
      { cause: error },
    )
  }
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
    const out = normalize(value)
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
