import { UsageError } from '../errors'
import { messages } from '../messages'
import type { OpenAICompatibleJudge, StructuredOutputMode } from '../records/records'

const MODES: readonly StructuredOutputMode[] = ['auto', 'json_schema', 'prompt']
const INJECTION = [true, false, 'auto', 'inline', 'system'] as const

/**
 * The structured-output mode of a judge: `structuredOutput`, else Mastra's `jsonPromptInjection`
 * (`true`, `'inline'` and `'system'` mean `'prompt'`; where the schema goes is the judge call's choice), else `'auto'`.
 * @internal
 */
export function resolveStructuredOutput(
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
  if (jsonPromptInjection !== undefined) {
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
  return 'auto'
}

/**
 * True when an error from the endpoint says it does not support `response_format` with a JSON
 * Schema: the signal for `'auto'` to retry the same call in prompt mode. Only a 400 or 422 whose
 * text names the feature counts, so an unrelated bad request still fails with its own message.
 * @internal
 */
export function isStructuredOutputRejection(status: number | undefined, text: string): boolean {
  if (status !== 400 && status !== 422) return false
  return /response_format|json_schema|structured[ _-]?output/i.test(text)
}
