import { z } from 'zod'
import { fixedSchema, type PreparedSchema } from '../judge/output-schema'
import type { JsonSchema } from '../records/records'

const REASONING = 'Brief reasoning, pointing to the evidence in the output.'
const SATISFIED = 'True only when the criterion is clearly and fully met.'

const verdictSchema = z.strictObject(
  {
    reasoning: z.string().describe(REASONING),
    satisfied: z.boolean().describe(SATISFIED),
  },
  {
    error: (issue) =>
      issue.input === undefined ? 'Missing: every criterion id needs a verdict.' : undefined,
  },
)

const prepared = new Map<number, PreparedSchema>()

/**
 * The strict schema of the judge's reply for criteria `c1..cN`: one required property per id,
 * reasoning before the verdict, nothing else. A missing or unknown id fails validation and goes
 * through the repair attempt with a message that names it.
 * @internal
 */
export function rubricReplySchema(count: number): PreparedSchema {
  let schema = prepared.get(count)
  if (!schema) {
    const ids = Array.from({ length: count }, (_, index) => `c${index + 1}`)
    const criteria = z.strictObject(Object.fromEntries(ids.map((id) => [id, verdictSchema])), {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? `Unknown criterion ${issue.keys.length === 1 ? 'id' : 'ids'} ${issue.keys.map((key) => `"${key}"`).join(', ')}: use exactly the ids ${ids.join(', ')}.`
          : undefined,
    })
    // Described by a JSON Schema written out (the one zod 4.6 generates), not generated at run time:
    // it is part of every judge request, so of every recorded key, and zod's output differs
    // between zod versions.
    schema = fixedSchema(z.strictObject({ criteria, overallAssessment: z.string() }), {
      type: 'object',
      properties: {
        criteria: {
          type: 'object',
          properties: Object.fromEntries(ids.map((id) => [id, verdictJson()])),
          required: ids,
          additionalProperties: false,
        },
        overallAssessment: { type: 'string' },
      },
      required: ['criteria', 'overallAssessment'],
      additionalProperties: false,
    })
    prepared.set(count, schema)
  }
  return schema
}

/** The judge's reply, once validated. @internal */
export interface RubricReply {
  criteria: Record<string, { reasoning: string; satisfied: boolean }>
  overallAssessment: string
}

function verdictJson(): JsonSchema {
  return {
    type: 'object',
    properties: {
      reasoning: { type: 'string', description: REASONING },
      satisfied: { type: 'boolean', description: SATISFIED },
    },
    required: ['reasoning', 'satisfied'],
    additionalProperties: false,
  }
}
