import type { MatcherState } from 'vitest'
import { UsageError } from '../src/errors'
import { messages } from '../src/messages'
import { structuredResponse } from '../src/output/pauses-and-answers'

interface StandardSchemaLike {
  '~standard': { validate: (value: unknown) => unknown }
}

const isStandardSchema = (value: unknown): value is StandardSchemaLike =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as Partial<StandardSchemaLike>)['~standard']?.validate === 'function'

/**
 * Passes when the run gave a structured response that satisfies `expected`: a zod or any other
 * Standard Schema (it validates), or a value (deep-equal; asymmetric matchers work). Reads a
 * LangGraph agent's `structuredResponse`, LangChain's `{ raw, parsed }`, an Agents SDK run's
 * structured `finalOutput`, an AI SDK result's `output` or `object`, a Mastra result's `object`.
 * No judge is called.
 *
 * @example
 * expect(await agent.invoke(input)).toHaveStructuredResponse(z.object({ city: z.string() }))
 */
export function toHaveStructuredResponse(
  this: MatcherState,
  received: unknown,
  expected: unknown,
): { pass: boolean; message: () => string } {
  const found = structuredResponse(received)
  let problem: string | undefined
  if (!found.found) problem = messages.noStructuredResponse()
  else if (isStandardSchema(expected)) {
    const result = expected['~standard'].validate(found.value)
    if (result instanceof Promise) throw new UsageError(messages.structuredSchemaAsync())
    const issues = (result as { issues?: readonly { message?: unknown }[] }).issues
    if (issues) {
      problem = messages.structuredSchemaIssues(issues.map((issue) => String(issue.message)))
    }
  } else if (!this.equals(found.value, expected)) problem = messages.structuredDiffers()
  const negated = Boolean(this.isNot)
  return {
    pass: problem === undefined,
    message: () =>
      [
        this.utils.matcherHint(
          `${negated ? '.not' : ''}.toHaveStructuredResponse`,
          'output',
          isStandardSchema(expected) ? 'schema' : 'expected',
        ),
        '',
        negated ? messages.structuredMatchedNegated() : (problem ?? ''),
        ...(found.found
          ? [
              '',
              ...(isStandardSchema(expected)
                ? []
                : [`Expected: ${this.utils.printExpected(expected)}`]),
              `Received: ${this.utils.printReceived(found.value)}`,
            ]
          : []),
      ].join('\n'),
  }
}
