import { createRequire } from 'node:module'
import type { z } from 'zod'
import { UsageError } from '../errors'
import { messages } from '../messages'
import type { JsonSchema } from '../records/records'
import { judgeText } from './judge-protocol'

/**
 * The minimal Standard Schema v1 interface (https://standardschema.dev), so that any library
 * implementing it can describe a judge's output. zod 4 schemas implement it.
 */
export interface StandardSchemaV1<Output = unknown> {
  readonly '~standard': {
    readonly version: 1
    readonly vendor: string
    readonly validate: (value: unknown) => StandardResult<Output> | Promise<StandardResult<Output>>
    readonly types?: { readonly input: unknown; readonly output: Output } | undefined
    /** Standard JSON Schema: lets the schema describe itself as JSON Schema. */
    readonly jsonSchema?:
      | { readonly output: (options: { target: string }) => Record<string, unknown> }
      | undefined
  }
}

type StandardResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | {
      readonly issues: ReadonlyArray<{
        readonly message: string
        readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined
      }>
    }

/** The output type a Standard Schema validates to. */
export type InferOutput<S> = S extends StandardSchemaV1<infer O> ? O : unknown

/** A judge output schema with its JSON Schema worked out once. @internal */
export interface PreparedSchema {
  schema: StandardSchemaV1
  json: JsonSchema
  /** Compatible with OpenAI's strict structured outputs (all properties required, no extras). */
  strict: boolean
}

/** True for anything that implements Standard Schema v1. @internal */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  const standard = (value as { '~standard'?: { validate?: unknown } } | null)?.['~standard']
  return typeof standard === 'object' && typeof standard?.validate === 'function'
}

/**
 * Work out the JSON Schema of an output schema. The schema's own Standard JSON Schema
 * (`~standard.jsonSchema`: zod 4.2 and later, ArkType, Valibot's adapter) comes first, so a user's
 * zod is described by the user's copy, not by rubricate's; a zod 4 schema without it (before 4.2)
 * goes through rubricate's `z.toJSONSchema`; anything else needs a `toJsonSchema()` method. The
 * first two give the same JSON for the same zod schema, so the choice never changes a cassette key.
 * @internal
 */
export function prepareSchema(schema: unknown, where: string): PreparedSchema {
  if (!isStandardSchema(schema)) throw new UsageError(messages.notAnOutputSchema(where, schema))
  let json: Record<string, unknown>
  const standard = schema['~standard']
  if (standard.jsonSchema) {
    json = standard.jsonSchema.output({ target: 'draft-2020-12' })
  } else if ('_zod' in (schema as object)) {
    // Required here, not imported at load: zod is 95 modules, and a test file that replays rubric
    // assertions needs none of it (the suite figure "every test a replayed rubric assertion",
    // docs/guide/benchmarks.md). A user's zod before 4.2 is loaded already.
    const { z: zod } = createRequire(import.meta.url)('zod') as typeof import('zod')
    json = zod.toJSONSchema(schema as unknown as z.ZodType, { io: 'output' }) as Record<
      string,
      unknown
    >
  } else if (typeof (schema as { toJsonSchema?: unknown }).toJsonSchema === 'function') {
    json = (schema as unknown as { toJsonSchema: () => Record<string, unknown> }).toJsonSchema()
  } else {
    throw new UsageError(messages.outputSchemaWithoutJsonSchema(where))
  }
  // `$schema` only names the draft; some endpoints reject unknown top-level keywords.
  const { $schema: _draft, ...rest } = json
  return { schema, json: rest, strict: isStrictCompatible(rest) }
}

/**
 * An output schema of rubricate's own, validated by `schema` and described by a JSON Schema written
 * out here rather than generated: it is part of every judge request that carries it, so of their
 * cassette keys, and the JSON that zod generates for the same schema differs between zod versions
 * (4.2 and 4.6 do). A fixed text keeps every recorded key valid whatever zod a project installs.
 * @internal
 */
export function fixedSchema(schema: StandardSchemaV1, json: JsonSchema): PreparedSchema {
  return { schema, json, strict: isStrictCompatible(json) }
}

/**
 * A schema of rubricate's own that zod builds when it first validates, not when rubricate loads: a
 * test file that never validates one never loads zod (95 modules; the suite figure "every test a
 * replayed rubric assertion", docs/guide/benchmarks.md). Its first validation settles as a promise.
 * @internal
 */
export function zodSchemaOnFirstUse(build: (zod: typeof z) => StandardSchemaV1): StandardSchemaV1 {
  let built: StandardSchemaV1 | undefined
  return {
    '~standard': {
      version: 1,
      vendor: 'zod',
      validate: (value) =>
        built
          ? built['~standard'].validate(value)
          : import('zod').then(({ z: zod }) => {
              built ??= build(zod)
              return built['~standard'].validate(value)
            }),
    },
  }
}

/**
 * The JSON Schema as sent in a request's `response_format`: a copy (the prepared one stays the
 * caller's to read), exactly what JSON would carry of it; the prepared schema itself when it
 * cannot be copied that way.
 * @internal
 */
export function requestSchema(prepared: PreparedSchema): JsonSchema {
  try {
    return JSON.parse(JSON.stringify(prepared.json)) as JsonSchema
  } catch {
    return prepared.json
  }
}

type Validated = { ok: true; value: unknown } | { ok: false; problem: string }

/**
 * Validate a parsed reply: the value the schema produced, or the problems, one per line. Settled
 * at once (no promise) when the schema validates synchronously, as zod's do.
 * @internal
 */
export function validateOutput(
  prepared: PreparedSchema,
  value: unknown,
): Validated | Promise<Validated> {
  const result = prepared.schema['~standard'].validate(value)
  return typeof (result as { then?: unknown }).then === 'function'
    ? Promise.resolve(result).then(validated)
    : validated(result as StandardResult<unknown>)
}

function validated(result: StandardResult<unknown>): Validated {
  if (!result.issues) return { ok: true, value: result.value }
  const lines = result.issues.map((issue) => {
    const path = (issue.path ?? [])
      .map((part) => String(typeof part === 'object' ? part.key : part))
      .join('.')
    return judgeText.schemaIssue(path, issue.message)
  })
  return { ok: false, problem: lines.join('\n') }
}

function isStrictCompatible(node: unknown): boolean {
  if (Array.isArray(node)) return node.every(isStrictCompatible)
  if (typeof node !== 'object' || node === null) return true
  const record = node as Record<string, unknown>
  if (record.type === 'object' || record.properties !== undefined) {
    const properties = Object.keys((record.properties as object | undefined) ?? {})
    const required = new Set((record.required as string[] | undefined) ?? [])
    if (record.additionalProperties !== false) return false
    if (!properties.every((key) => required.has(key))) return false
  }
  return Object.values(record).every(isStrictCompatible)
}
