import { rejectUnknownKeys } from '../config/known-keys'
import { UsageError } from '../errors'
import { messages, show } from '../messages'
import type {
  JudgeInput,
  JudgeModel,
  MastraModelConfig,
  OpenAICompatibleJudge,
  StructuredOutputMode,
} from '../records/records'
import { resolveJudge } from '../runtime/runtime'
import { aiSdkJudge, isAiSdkModel } from './ai-sdk-judge'
import { PROVIDER_NAMES, providerEndpoint } from './providers'

/** A judge input, sorted into the two kinds of transport. @internal */
export type ParsedJudge =
  | {
      kind: 'endpoint'
      endpoint: OpenAICompatibleJudge
      /** The endpoint's structured-output mode, resolved once from its two spellings. */
      mode: StructuredOutputMode
      /** The provider's key variable, when it is unset: a live call fails naming it. */
      missingKey?: string | undefined
    }
  | { kind: 'custom'; model: JudgeModel }

/** How one call asks for its reply: as text, by `response_format`, or with the schema in the prompt. @internal */
export type ReplyMode = StructuredOutputMode | 'text'

/** The judge choices a call may make over the judge object's own (a scorer step's judge fields). @internal */
export interface JudgeChoices {
  /** The judge, parsed where it entered the call ({@link enteringJudge}). */
  judge: ParsedJudge
  temperature?: number | undefined
  maxRetries?: number | undefined
  structuredOutput?: StructuredOutputMode | undefined
  jsonPromptInjection?: OpenAICompatibleJudge['jsonPromptInjection']
}

/** The judge of one call, parsed and decided once, before its first request. @internal */
export interface CallJudge {
  judge: ParsedJudge
  /** The model name the call is recorded under. */
  label: string
  /**
   * Decided per call, never remembered across calls: cassettes must see the same requests
   * whatever order the tests run in (a recorded rejection replays cheaply).
   */
  mode: ReplyMode
  /** Mastra's `jsonPromptInjection: 'system'`: the schema goes in the system message. */
  schemaInSystem: boolean
}

// The two object forms of a judge, as an unknown key names them.
const MASTRA_CONFIG = { where: 'The judge model config', keys: ['id', 'url', 'apiKey', 'headers'] }
const ENDPOINT = {
  where: 'The judge object',
  keys: [
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
    'deadlineMs',
  ],
}

/**
 * The judge a call site names (a scorer's or a step's `judge.model`, a simulated user's `model`),
 * resolved through the configuration and parsed: where a judge enters, so a typo'd key fails
 * there, once, and the calls made with it (samples, groups, attempts) share the parse.
 * @internal
 */
export function enteringJudge(callSite?: JudgeInput | undefined): ParsedJudge {
  return parseJudgeInput(resolveJudge(callSite))
}

/**
 * The judge of one call: the call's own choices over the judge object's, and how the reply is
 * asked for, decided once for all its attempts.
 * @internal
 */
export function callJudge(choices: JudgeChoices, withSchema: boolean): CallJudge {
  const parsed = choices.judge
  const judge = withOverrides(parsed, choices)
  const mode: ReplyMode = !withSchema ? 'text' : judge.kind === 'custom' ? 'prompt' : judge.mode
  return { judge, label: judgeLabel(judge), mode, schemaInSystem: schemaInSystem(parsed, choices) }
}

/** Call-level choices (a scorer step's judge fields) win over the judge object's own. */
function withOverrides(judge: ParsedJudge, choices: JudgeChoices): ParsedJudge {
  if (judge.kind !== 'endpoint') return judge
  const { temperature, maxRetries, structuredOutput, jsonPromptInjection } = choices
  checkEndpointTypes({ temperature, maxRetries }, 'The judge options')
  const endpoint = { ...judge.endpoint }
  if (temperature !== undefined) endpoint.temperature = temperature
  if (maxRetries !== undefined) endpoint.maxRetries = maxRetries
  if (structuredOutput === undefined && jsonPromptInjection === undefined) {
    return { ...judge, endpoint }
  }
  const mode = resolveStructuredOutput(
    { structuredOutput, jsonPromptInjection },
    'The judge options',
  )
  return { ...judge, endpoint: { ...endpoint, structuredOutput: mode }, mode }
}

/** `jsonPromptInjection: 'system'` chosen at the call, else by the judge object (no `structuredOutput` over it). */
function schemaInSystem(judge: ParsedJudge, choices: JudgeChoices): boolean {
  if (choices.structuredOutput !== undefined) return false
  if (choices.jsonPromptInjection !== undefined) return choices.jsonPromptInjection === 'system'
  if (judge.kind !== 'endpoint' || judge.endpoint.structuredOutput !== undefined) return false
  return judge.endpoint.jsonPromptInjection === 'system'
}

/**
 * Sort a {@link JudgeInput} into an OpenAI-compatible endpoint or a custom model, and reject
 * anything else with a message that lists the three accepted forms. `'openai/<model>'` leaves
 * `baseURL` and `apiKey` unset: they are read from the environment when the call is made.
 * @internal
 */
export function parseJudgeInput(
  input: JudgeInput,
  env: NodeJS.ProcessEnv = process.env,
): ParsedJudge {
  if (typeof input === 'string') return providerJudge(input, undefined, env)
  if (typeof input !== 'object' || input === null) {
    throw new UsageError(messages.invalidJudge(input))
  }
  if (isAiSdkModel(input)) return { kind: 'custom', model: aiSdkJudge(input) }
  if (typeof (input as JudgeModel).complete === 'function') {
    const model = input as JudgeModel
    if (typeof model.id !== 'string' || model.id === '') {
      throw new UsageError(messages.invalidJudge(input))
    }
    return { kind: 'custom', model }
  }
  const config = input as MastraModelConfig
  const mastra = typeof config.id === 'string' && (input as { model?: unknown }).model === undefined
  const endpoint = input as OpenAICompatibleJudge
  if (!mastra && (typeof endpoint.model !== 'string' || endpoint.model.trim() === '')) {
    throw new UsageError(messages.invalidJudge(input))
  }
  const form = mastra ? MASTRA_CONFIG : ENDPOINT
  rejectUnknownKeys(form.where, input, form.keys)
  if (mastra) return providerJudge(config.id, config, env)
  checkEndpointTypes(endpoint, 'The judge object')
  // Resolved now, so a typo in either spelling fails before any request is made.
  return { kind: 'endpoint', endpoint, mode: resolveStructuredOutput(endpoint, 'The judge object') }
}

/** Longest delay Node's timers take; a longer `timeoutMs` would fire after 1 ms. */
const MAX_TIMEOUT_MS = 2_147_483_647

/**
 * Reject judge options of the wrong type before any request: the SDK would otherwise fail with
 * an error of its own (a number as `apiKey`, a string as `headers`) or go on silently (a
 * negative `maxRetries`, a `timeoutMs` of -1 timing out every request at once). The values of
 * `apiKey`, `headers` and `query` may be secrets, so only their kind is shown.
 */
function checkEndpointTypes(
  endpoint: Partial<Record<keyof OpenAICompatibleJudge, unknown>>,
  where: string,
): void {
  const fail = (key: string, expected: string, got: string): never => {
    throw new UsageError(messages.judgeOptionType(where, key, expected, got))
  }
  const { apiKey, baseURL, headers, query, temperature, maxRetries, timeoutMs, deadlineMs } =
    endpoint
  if (apiKey !== undefined && (typeof apiKey !== 'string' || apiKey.trim() === '')) {
    fail('apiKey', 'a non-empty string (or left out, to use OPENAI_API_KEY)', kindOf(apiKey))
  }
  if (baseURL !== undefined && typeof baseURL !== 'string') {
    fail('baseURL', 'a URL string such as "http://localhost:11434/v1"', show(baseURL))
  }
  // Checked one after the other, without a list of pairs: this runs on every judge call.
  if (headers !== undefined) checkStringMap(headers, 'headers', fail)
  if (query !== undefined) checkStringMap(query, 'query', fail)
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
  if (
    deadlineMs !== undefined &&
    !(
      Number.isInteger(deadlineMs) &&
      (deadlineMs as number) > 0 &&
      (deadlineMs as number) <= MAX_TIMEOUT_MS
    )
  ) {
    fail(
      'deadlineMs',
      `a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS}`,
      show(deadlineMs),
    )
  }
}

function checkStringMap(
  value: unknown,
  key: 'headers' | 'query',
  fail: (key: string, expected: string, got: string) => never,
): void {
  const expected = () =>
    `an object of ${key === 'headers' ? 'header names' : 'parameter names'} to string values, such as { "${key === 'headers' ? 'api-key' : 'api-version'}": "..." }`
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    fail(key, expected(), kindOf(value))
  }
  const map = value as Record<string, unknown>
  for (const name in map) {
    if (Object.hasOwn(map, name) && typeof map[name] !== 'string') {
      fail(key, expected(), `${kindOf(map[name])} at "${name}"`)
    }
  }
}

function kindOf(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'a list'
  if (typeof value === 'string') return value.trim() === '' ? 'an empty string' : 'a string'
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`
}

/**
 * `'<provider>/<model>'` (and Mastra's `{ id, url, apiKey, headers }`) as an endpoint: the
 * provider's OpenAI-compatible API, its base URL from `<PROVIDER>_BASE_URL` or the default, its
 * key from its conventional variable. `openai/` keeps reading `OPENAI_*` when the call is made.
 */
function providerJudge(
  id: string,
  config: MastraModelConfig | undefined,
  env: NodeJS.ProcessEnv,
): ParsedJudge {
  const match = /^([^/\s]+)\/(.+)$/.exec(id.trim())
  const model = match?.[2]?.trim()
  if (!match?.[1] || !model) throw new UsageError(messages.invalidJudge(id))
  const provider = providerEndpoint(match[1])
  if (!provider) {
    throw new UsageError(messages.unknownJudgeProvider(id, match[1], PROVIDER_NAMES))
  }
  const endpoint: OpenAICompatibleJudge = { model }
  if (config?.url !== undefined) endpoint.baseURL = config.url
  if (config?.apiKey !== undefined) endpoint.apiKey = config.apiKey
  if (config?.headers !== undefined) endpoint.headers = config.headers
  if (match[1] === 'openai') return { kind: 'endpoint', endpoint, mode: 'auto' }
  endpoint.baseURL ??= nonEmpty(env[provider.baseURLVariable]) ?? provider.baseURL
  const key = provider.keyVariable && nonEmpty(env[provider.keyVariable])
  if (endpoint.apiKey === undefined && key) endpoint.apiKey = key
  const missingKey =
    endpoint.apiKey === undefined && provider.keyVariable ? provider.keyVariable : undefined
  // A provider that needs no key (Ollama) gets a placeholder, never a stray OPENAI_API_KEY.
  if (!provider.keyVariable && endpoint.apiKey === undefined) endpoint.apiKey = 'ollama'
  return { kind: 'endpoint', endpoint, mode: 'auto', ...(missingKey && { missingKey }) }
}

function nonEmpty(value: string | undefined): string | undefined {
  return value?.trim() ? value.trim() : undefined
}

/**
 * Check a judge given at construction (a scorer's or a step's `judge.model`, a rubric scorer's
 * `model`): a malformed string, an unknown provider or a bad model config fails here, not at the
 * first run. Keys are not required yet: replayed calls need none.
 * @internal
 */
export function checkJudgeInput(input: unknown): void {
  if (input === undefined) return
  if (typeof input === 'string' || isAiSdkModel(input)) parseJudgeInput(input as JudgeInput)
  else if (typeof (input as { id?: unknown } | null)?.id === 'string') {
    parseJudgeInput(input as JudgeInput)
  }
}

/** The model name a judge call is recorded under. @internal */
export function judgeLabel(judge: ParsedJudge): string {
  return judge.kind === 'endpoint' ? judge.endpoint.model : judge.model.id
}

const MODES: readonly StructuredOutputMode[] = ['auto', 'json_schema', 'prompt']
const INJECTION = [true, false, 'auto', 'inline', 'system'] as const

/**
 * The structured-output mode of a judge: `structuredOutput`, else Mastra's `jsonPromptInjection`
 * (`true`, `'inline'` and `'system'` mean `'prompt'`; where the schema goes is the judge call's choice), else `'auto'`.
 */
function resolveStructuredOutput(
  options: Pick<OpenAICompatibleJudge, 'structuredOutput' | 'jsonPromptInjection'>,
  where: string,
): StructuredOutputMode {
  const { structuredOutput, jsonPromptInjection } = options
  if (structuredOutput !== undefined) {
    if (!MODES.includes(structuredOutput)) {
      throw new UsageError(
        messages.invalidChoice(`${where} structuredOutput`, structuredOutput, MODES),
      )
    }
    return structuredOutput
  }
  if (jsonPromptInjection === undefined) return 'auto'
  if (!(INJECTION as readonly unknown[]).includes(jsonPromptInjection)) {
    throw new UsageError(
      messages.invalidChoice(`${where} jsonPromptInjection`, jsonPromptInjection, [
        'true',
        'false',
        'auto',
        'inline',
        'system',
      ]),
    )
  }
  if (jsonPromptInjection === 'auto') return 'auto'
  return jsonPromptInjection === false ? 'json_schema' : 'prompt'
}
