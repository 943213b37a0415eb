// Output schemas that are not zod: any Standard Schema describes the judge's reply, sends its own
// JSON Schema and drives the repair; one that cannot describe itself is refused where it is given.
import { afterEach, expect, test } from 'vitest'
import { createScorer } from '../../src'
import { UsageError } from '../../src/errors'
import type { StandardSchemaV1 } from '../../src/judge/output-schema'
import { type FakeOpenAI, startFakeOpenAI } from '../../src/testing'
import { messagesOf } from './helpers'

let server: FakeOpenAI | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

const VERDICT_JSON_SCHEMA = {
  type: 'object',
  properties: { verdict: { type: 'string', enum: ['yes', 'no'] } },
  required: ['verdict'],
  additionalProperties: false,
}

// A Standard Schema written by hand: validates { verdict: 'yes' | 'no' } and outputs a boolean.
function handMadeSchema(describe: 'standard' | 'method' | 'none'): StandardSchemaV1<boolean> {
  const standard = {
    version: 1 as const,
    vendor: 'hand-made',
    validate: (value: unknown) => {
      const verdict = (value as { verdict?: unknown } | null)?.verdict
      return verdict === 'yes' || verdict === 'no'
        ? { value: verdict === 'yes' }
        : { issues: [{ message: 'verdict must be "yes" or "no"', path: ['verdict'] }] }
    },
    ...(describe === 'standard'
      ? { jsonSchema: { output: () => ({ $schema: 'draft', ...VERDICT_JSON_SCHEMA }) } }
      : {}),
  }
  return describe === 'method'
    ? ({
        '~standard': standard,
        toJsonSchema: () => VERDICT_JSON_SCHEMA,
      } as StandardSchemaV1<boolean>)
    : { '~standard': standard }
}

function verdictScorer(schema: StandardSchemaV1<boolean>, baseURL: string) {
  return createScorer({
    id: 'verdict',
    description: 'Asks for a yes or no',
    judge: { model: { model: 'gpt-test', baseURL, apiKey: 'k', maxRetries: 0 } },
  })
    .analyze({
      description: 'Is it polite?',
      outputSchema: schema,
      createPrompt: ({ run }) => `Is this polite? ${String(run.output)}`,
    })
    .generateScore(({ results }) => (results.analyzeStepResult ? 1 : 0))
}

test('a Standard Schema sends its own JSON Schema, and its output is what the step gets', async () => {
  server = await startFakeOpenAI({ reply: '{"verdict":"yes"}' })
  const result = await verdictScorer(handMadeSchema('standard'), server.baseURL).run({
    output: 'Thank you kindly.',
  })
  expect(result.score).toBe(1)
  expect(result.analyzeStepResult).toBe(true)
  const format = server.requests[0]?.body.response_format
  expect(format.type).toBe('json_schema')
  // `$schema` is dropped: some endpoints reject unknown top-level keywords.
  expect(format.json_schema.schema).toEqual(VERDICT_JSON_SCHEMA)
})

test('a schema with only a toJsonSchema() method works the same', async () => {
  server = await startFakeOpenAI({ reply: '{"verdict":"no"}' })
  const result = await verdictScorer(handMadeSchema('method'), server.baseURL).run({
    output: 'Go.',
  })
  expect(result.score).toBe(0)
  expect(server.requests[0]?.body.response_format.json_schema.schema).toEqual(VERDICT_JSON_SCHEMA)
})

test("a reply the Standard Schema rejects is repaired with the schema's own issue fed back", async () => {
  const replies = ['{"verdict":"maybe"}', '{"verdict":"yes"}']
  server = await startFakeOpenAI({ reply: () => replies.shift() ?? '{}' })
  const result = await verdictScorer(handMadeSchema('standard'), server.baseURL).run({
    output: 'Thanks!',
  })
  expect(result.score).toBe(1)
  expect(result.judgeCalls[0]).toMatchObject({ attemptCount: 2 })
  const repair = messagesOf(server.requests[1]).at(-1)?.content ?? ''
  expect(repair).toContain('- at "verdict": verdict must be "yes" or "no"')
})

test('a Standard Schema that cannot describe itself as JSON Schema is refused when the step is built', () => {
  expect(() => verdictScorer(handMadeSchema('none'), 'http://127.0.0.1:9/v1')).toThrow(UsageError)
  expect(() => verdictScorer(handMadeSchema('none'), 'http://127.0.0.1:9/v1')).toThrow(
    `[rubricate] The analyze step's outputSchema is a Standard Schema that cannot describe itself as JSON Schema, which the judge needs. Use a zod 4 schema, or a library that implements Standard JSON Schema ("~standard.jsonSchema").`,
  )
})

test('something that is not a schema is refused with what it is', () => {
  expect(() =>
    verdictScorer({ parse: () => true } as unknown as StandardSchemaV1<boolean>, 'http://x'),
  ).toThrow(
    `[rubricate] The analyze step's outputSchema is {"parse":"[function]"}, which is not a schema. Give a zod 4 schema or any Standard Schema.`,
  )
})

test("a zod schema is described by its own Standard JSON Schema, not by rubricate's copy of zod", async () => {
  // A schema from a project's own zod copy carries `_zod` internals of that copy; its
  // `~standard.jsonSchema` (zod 4.2 and later) is the description to trust.
  const { z } = await import('zod')
  const own = z.object({ verdict: z.enum(['yes', 'no']) }).strict()
  const described = { ...VERDICT_JSON_SCHEMA, description: "described by the schema's own copy" }
  const foreign = Object.assign(Object.create(own), {
    '~standard': {
      ...own['~standard'],
      jsonSchema: { output: () => ({ $schema: 'draft', ...described }) },
    },
  }) as unknown as StandardSchemaV1<{ verdict: 'yes' | 'no' }>
  expect('_zod' in foreign).toBe(true)
  server = await startFakeOpenAI({ reply: '{"verdict":"yes"}' })
  const scorer = createScorer({
    id: 'verdict',
    description: 'Asks for a yes or no',
    judge: { model: { model: 'gpt-test', baseURL: server.baseURL, apiKey: 'k', maxRetries: 0 } },
  })
    .analyze({ description: 'Is it polite?', outputSchema: foreign, createPrompt: () => 'Polite?' })
    .generateScore(({ results }) => (results.analyzeStepResult.verdict === 'yes' ? 1 : 0))
  expect((await scorer.run({ output: 'Thanks.' })).score).toBe(1)
  expect(server.requests[0]?.body.response_format.json_schema.schema).toEqual(described)
})
