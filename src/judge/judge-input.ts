import { UsageError } from '../errors'
import { rejectUnknownKeys } from '../known-keys'
import { messages } from '../messages'
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
  // Validates both spellings now, so a typo fails before any request is made.
  resolveStructuredOutput(endpoint, 'The judge object')
  return { kind: 'endpoint', endpoint }
}

/** The model name a judge call is recorded under. @internal */
export function judgeLabel(judge: ParsedJudge): string {
  return judge.kind === 'endpoint' ? judge.endpoint.model : judge.model.id
}
