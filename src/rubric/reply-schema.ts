import type { z } from 'zod'
import {
  fixedSchema,
  type PreparedSchema,
  type StandardSchemaV1,
  zodSchemaOnFirstUse,
} from '../judge/output-schema'
import type { JsonSchema } from '../records/records'

const REASONING = 'Brief reasoning, pointing to the evidence in the output.'
const SATISFIED = 'True only when the criterion is clearly and fully met.'

/**
 * The strict schema of the judge's reply for criteria `c1..cN`: one required property per id,
 * reasoning before the verdict, nothing else. A missing or unknown id fails validation and goes
 * through the repair attempt with a message that names it.
 * @internal
 */
export function rubricReplySchema(count: number): PreparedSchema {
  // Built for each call, not kept per count: a well-formed reply (every replayed one of a passing
  // suite) never reaches zod, so nothing costly is built twice.
  const ids = Array.from({ length: count }, (_, index) => `c${index + 1}`)
  // Described by a JSON Schema written out (the one zod 4.6 generates), not generated at run time:
  // it is part of every judge request, so of every recorded key, and zod's output differs
  // between zod versions.
  return fixedSchema(replyValidator(ids), {
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
}

/** The judge's reply, once validated. @internal */
export interface RubricReply {
  criteria: Record<string, { reasoning: string; satisfied: boolean }>
  overallAssessment: string
}

/**
 * The reply's validator: zod's schema ({@link rubricReplyZodSchema}), loaded only for a reply that
 * {@link wellFormedReply} does not accept, which says why: a replayed suite never loads zod (the
 * figure "every test a replayed rubric assertion", docs/guide/benchmarks.md).
 * test/rubric/reply-schema.test.ts holds the check to accept exactly what zod accepts.
 */
function replyValidator(ids: readonly string[]): StandardSchemaV1 {
  const zodSchema = zodSchemaOnFirstUse((zod) => rubricReplyZodSchema(zod, ids))
  return {
    '~standard': {
      version: 1,
      vendor: 'rubricate',
      validate(value) {
        const reply = wellFormedReply(value, ids)
        return reply ? { value: reply } : zodSchema['~standard'].validate(value)
      },
    },
  }
}

/**
 * The reply as zod's schema would return it (a copy of the members it names, in its order), when
 * zod's schema would accept it; `undefined` otherwise.
 * @internal
 */
export function wellFormedReply(value: unknown, ids: readonly string[]): RubricReply | undefined {
  if (!isPlainRecord(value) || !hasExactly(value, 2)) return undefined
  const { criteria, overallAssessment } = value
  if (typeof overallAssessment !== 'string' || !isPlainRecord(criteria)) return undefined
  if (!hasExactly(criteria, ids.length)) return undefined
  const verdicts: RubricReply['criteria'] = {}
  for (const id of ids) {
    if (!Object.hasOwn(criteria, id)) return undefined
    const verdict = criteria[id]
    if (!isPlainRecord(verdict) || !hasExactly(verdict, 2)) return undefined
    const { reasoning, satisfied } = verdict
    if (typeof reasoning !== 'string' || typeof satisfied !== 'boolean') return undefined
    verdicts[id] = { reasoning, satisfied }
  }
  return { criteria: verdicts, overallAssessment }
}

/**
 * zod's schema of the reply, which says what is wrong with a reply that is not well formed. @internal
 */
export function rubricReplyZodSchema(zod: typeof z, ids: readonly string[]): StandardSchemaV1 {
  const verdictSchema = zod.strictObject(
    {
      reasoning: zod.string().describe(REASONING),
      satisfied: zod.boolean().describe(SATISFIED),
    },
    {
      error: (issue) =>
        issue.input === undefined ? 'Missing: every criterion id needs a verdict.' : undefined,
    },
  )
  const criteria = zod.strictObject(Object.fromEntries(ids.map((id) => [id, verdictSchema])), {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `Unknown criterion ${issue.keys.length === 1 ? 'id' : 'ids'} ${issue.keys.map((key) => `"${key}"`).join(', ')}: use exactly the ids ${ids.join(', ')}.`
        : undefined,
  })
  return zod.strictObject({ criteria, overallAssessment: zod.string() })
}

// Members are counted as zod's strict objects count them: own enumerable string keys.
function hasExactly(record: Record<string, unknown>, count: number): boolean {
  let keys = 0
  for (const key in record) if (Object.hasOwn(record, key)) keys++
  return keys === count
}

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  const proto = Object.getPrototypeOf(value)
  return proto === Object.prototype || proto === null
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
