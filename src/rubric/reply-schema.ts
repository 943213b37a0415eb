import { z } from 'zod'
import { type PreparedSchema, prepareSchema } from '../judge/output-schema'

const verdictSchema = z.strictObject(
  {
    reasoning: z.string().describe('Brief reasoning, pointing to the evidence in the output.'),
    satisfied: z.boolean().describe('True only when the criterion is clearly and fully met.'),
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
    schema = prepareSchema(
      z.strictObject({ criteria, overallAssessment: z.string() }),
      'The rubric reply schema',
    )
    prepared.set(count, schema)
  }
  return schema
}

/** The judge's reply, once validated. @internal */
export interface RubricReply {
  criteria: Record<string, { reasoning: string; satisfied: boolean }>
  overallAssessment: string
}
