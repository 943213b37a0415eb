import { UsageError } from '../errors'
import { rejectUnknownKeys } from '../known-keys'
import { messages, show } from '../messages'
import type { JudgeInput, JudgeModel, OpenAICompatibleJudge } from '../records'
import { resolveStructuredOutput } from './structured-output'

/** A judge input, sorted into the two kinds of transport. @internal */
export type ParsedJudge =
  | { kind: 'endpoint'; endpoint: OpenAICompatibleJudge }
  | { kind: 'custom'; model: JudgeModel }

const ENDPOINT_KEYS = new Set([
  'model',
  'baseURL',
  'apiKey',
  'headers',
  'query',
  'temperature',
  'structuredOutput',
  'jsonPromptInjection',
  'maxRetries',
  'timeoutMs',
])

/**
 * Sort a {@link JudgeInput} into an OpenAI-compatible endpoint or a custom model, and reject
 * anything else with a message that lists the three accepted forms. `'openai/<model>'` leaves
 * `baseURL` and `apiKey` unset: they are read from the environment when the call is made.
 * @internal
 */
export function parseJudgeInput(input: JudgeInput): ParsedJudge {
  if (typeof input === 'string') {
    const match = /^openai\/(.+)$/.exec(input.trim())
    if (!match?.[1]?.trim()) throw new UsageError(messages.invalidJudge(input))
    return { kind: 'endpoint', endpoint: { model: match[1].trim() } }
  }
  if (typeof input !== 'object' || input === null) {
    throw new UsageError(messages.invalidJudge(input))
  }
  if (typeof (input as JudgeModel).complete === 'function') {
    const model = input as JudgeModel
    if (typeof model.id !== 'string' || model.id === '') {
      throw new UsageError(messages.invalidJudge(input))
    }
    return { kind: 'custom', model }
  }
  const endpoint = input as OpenAICompatibleJudge
  if (typeof endpoint.model !== 'string' || endpoint.model.trim() === '') {
    throw new UsageError(messages.invalidJudge(input))
  }
  rejectUnknownKeys('The judge object', endpoint, [...ENDPOINT_KEYS])
  checkEndpointTypes(endpoint, 'The judge object')
  // Validates both spellings now, so a typo fails before any request is made.
  resolveStructuredOutput(endpoint, 'The judge object')
  return { kind: 'endpoint', endpoint }
}

/** Longest delay Node's timers take; a longer `timeoutMs` would fire after 1 ms. */
const MAX_TIMEOUT_MS = 2_147_483_647

/**
 * Reject judge options of the wrong type before any request: the SDK would otherwise fail with
 * an error of its own (a number as `apiKey`, a string as `headers`) or go on silently (a
 * negative `maxRetries`, a `timeoutMs` of -1 timing out every request at once). The values of
 * `apiKey`, `headers` and `query` may be secrets, so only their kind is shown.
 * @internal
 */
export function checkEndpointTypes(
  endpoint: Partial<Record<keyof OpenAICompatibleJudge, unknown>>,
  where: string,
): void {
  const fail = (key: string, expected: string, got: string): never => {
    throw new UsageError(messages.judgeOptionType(where, key, expected, got))
  }
  const { apiKey, baseURL, headers, query, temperature, maxRetries, timeoutMs } = endpoint
  if (apiKey !== undefined && (typeof apiKey !== 'string' || apiKey.trim() === '')) {
    fail('apiKey', 'a non-empty string (or left out, to use OPENAI_API_KEY)', kindOf(apiKey))
  }
  if (baseURL !== undefined && typeof baseURL !== 'string') {
    fail('baseURL', 'a URL string such as "http://localhost:11434/v1"', show(baseURL))
  }
  for (const [key, value] of [
    ['headers', headers],
    ['query', query],
  ] as const) {
    if (value === undefined) continue
    const expected = `an object of ${key === 'headers' ? 'header names' : 'parameter names'} to string values, such as { "${key === 'headers' ? 'api-key' : 'api-version'}": "..." }`
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      fail(key, expected, kindOf(value))
    }
    for (const [name, item] of Object.entries(value as object)) {
      if (typeof item !== 'string') fail(key, expected, `${kindOf(item)} at "${name}"`)
    }
  }
  if (
    temperature !== undefined &&
    !(typeof temperature === 'number' && Number.isFinite(temperature) && temperature >= 0)
  ) {
    fail('temperature', 'a number >= 0', show(temperature))
  }
  if (maxRetries !== undefined && !(Number.isInteger(maxRetries) && (maxRetries as number) >= 0)) {
    fail('maxRetries', 'a whole number >= 0', show(maxRetries))
  }
  if (
    timeoutMs !== undefined &&
    !(
      Number.isInteger(timeoutMs) &&
      (timeoutMs as number) > 0 &&
      (timeoutMs as number) <= MAX_TIMEOUT_MS
    )
  ) {
    fail('timeoutMs', `a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS}`, show(timeoutMs))
  }
}

function kindOf(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'a list'
  if (typeof value === 'string') return value.trim() === '' ? 'an empty string' : 'a string'
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`
}

/** The model name a judge call is recorded under. @internal */
export function judgeLabel(judge: ParsedJudge): string {
  return judge.kind === 'endpoint' ? judge.endpoint.model : judge.model.id
}
