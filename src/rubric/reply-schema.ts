import { z } from 'zod'
import { fixedSchema, type PreparedSchema } from '../judge/output-schema'
import type { JsonSchema } from '../records'

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
    schema = fixedSchema(
      z.strictObject({ criteria, overallAssessment: z.string() }),
      {
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
      },
      acceptReply(ids),
    )
    prepared.set(count, schema)
  }
  return schema
}

/**
 * What the reply schema of `ids` gives for a well-formed reply, checked without zod: exactly
 * `criteria` (exactly the ids, each exactly a string `reasoning` and a boolean `satisfied`) and a
 * string `overallAssessment`, in plain objects as JSON.parse makes them. Anything else, including
 * every reply zod would refuse, is `undefined` and goes to zod, which says what is wrong. The value
 * is a copy in the schema's order, as zod's is. Replay validates every reply, and zod's parse was
 * the largest part of it.
 * @internal
 */
export function acceptReply(
  ids: readonly string[],
): (value: unknown) => { value: unknown } | undefined {
  return (value) => {
    if (!hasExactly(value, REPLY_KEYS) || typeof value.overallAssessment !== 'string')
      return undefined
    const { criteria } = value
    if (!hasExactly(criteria, ids)) return undefined
    const verdicts: Record<string, { reasoning: string; satisfied: boolean }> = {}
    for (const id of ids) {
      const verdict = criteria[id]
      if (!hasExactly(verdict, VERDICT_KEYS)) return undefined
      const { reasoning, satisfied } = verdict
      if (typeof reasoning !== 'string' || typeof satisfied !== 'boolean') return undefined
      verdicts[id] = { reasoning, satisfied }
    }
    return { value: { criteria: verdicts, overallAssessment: value.overallAssessment } }
  }
}

const REPLY_KEYS = ['criteria', 'overallAssessment']
const VERDICT_KEYS = ['reasoning', 'satisfied']

// A plain object (the prototype JSON.parse gives) whose own keys are exactly `keys`.
function hasExactly(value: unknown, keys: readonly string[]): value is Record<string, any> {
  if (
    typeof value !== 'object' ||
    value === null ||
    Object.getPrototypeOf(value) !== Object.prototype
  )
    return false
  const own = Object.keys(value)
  if (own.length !== keys.length) return false
  for (const key of keys) if (!Object.hasOwn(value, key)) return false
  return true
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
