// Pure: a hint for tests that failed because a model client was built without an API key. The
// OpenAI SDK, the AI SDK's providers and the AI Gateway refuse to start without one, even when
// every call would be replayed from a cassette and no key would ever be sent.
import { stripVTControlCharacters } from 'node:util'
import { messages } from '../src/messages'

// The texts those clients throw: openai ("Missing credentials", older "The OPENAI_API_KEY
// environment variable is missing"), the AI SDK ("OpenAI API key is missing"), the AI Gateway
// ("No authentication provided"; the AI SDK's "Unauthenticated request to AI Gateway"), LangChain
// ("API key ... not found").
const MISSING_KEY =
  /Missing credentials|environment variable is missing|API key is missing|No authentication provided|Unauthenticated request to AI Gateway|API key (?:or Token Provider )?not found/i
const KEY_VARIABLE = /\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*_API_KEY\b/g

/**
 * The hint for a run whose errors include a missing API key, naming the variables the errors
 * name (`OPENAI_API_KEY`, `AI_GATEWAY_API_KEY`...); `undefined` when none does, or when no file
 * could replay (every mode `record` or `off`: those calls need a real key).
 * @internal
 */
export function missingKeyHint(
  errorMessages: readonly string[],
  modes: readonly string[],
): string | undefined {
  if (modes.length > 0 && !modes.includes('replay') && !modes.includes('auto')) return undefined
  // The AI SDK colours the variable's name in its message.
  const failing = errorMessages
    .map((message) => stripVTControlCharacters(message))
    .filter((message) => MISSING_KEY.test(message))
  if (failing.length === 0) return undefined
  const variables = new Set<string>()
  for (const message of failing) {
    for (const found of message.matchAll(KEY_VARIABLE)) {
      variables.add(found[0])
    }
  }
  if (variables.size === 0) variables.add('OPENAI_API_KEY')
  return messages.missingKeyInReplay(failing.length, [...variables].sort())
}
