// The rubric reply's check stands in for zod's schema on a well-formed reply, so that a replayed
// assertion never loads zod: it must accept exactly what zod accepts, with the same value.
import { expect, test } from 'vitest'
import { z } from 'zod'
import { validateOutput } from '../../src/judge/output-schema'
import {
  rubricReplySchema,
  rubricReplyZodSchema,
  wellFormedReply,
} from '../../src/rubric/reply-schema'

const verdict = { reasoning: 'It says so.', satisfied: true }
const ok = (criteria: unknown, extra: Record<string, unknown> = {}) => ({
  criteria,
  overallAssessment: 'Fine.',
  ...extra,
})

// JSON, as a judge's reply is parsed: every shape the check must tell apart.
const replies: unknown[] = [
  ok({ c1: verdict, c2: { reasoning: '', satisfied: false } }),
  ok({ c2: verdict, c1: verdict }),
  ok({ c1: verdict }),
  ok({ c1: verdict, c2: verdict, c3: verdict }),
  ok({ c1: verdict, c3: verdict }),
  ok({ c1: verdict, c2: { ...verdict, extra: 1 } }),
  ok({ c1: verdict, c2: { reasoning: 'x' } }),
  ok({ c1: verdict, c2: { reasoning: 1, satisfied: true } }),
  ok({ c1: verdict, c2: { reasoning: 'x', satisfied: 'true' } }),
  ok({ c1: verdict, c2: null }),
  ok({ c1: verdict, c2: [verdict] }),
  ok([verdict, verdict]),
  ok(null),
  ok({ c1: verdict, c2: verdict }, { extra: 'x' }),
  { criteria: { c1: verdict, c2: verdict } },
  { criteria: { c1: verdict, c2: verdict }, overallAssessment: 3 },
  JSON.parse(
    '{"criteria":{"c1":{"reasoning":"a","satisfied":true},"c2":{"reasoning":"b","satisfied":false},"__proto__":{}},"overallAssessment":"x"}',
  ),
  JSON.parse(
    '{"__proto__":{"criteria":{}},"criteria":{"c1":{"reasoning":"a","satisfied":true},"c2":{"reasoning":"b","satisfied":true}},"overallAssessment":"x"}',
  ),
  'a text',
  null,
  [],
  42,
]

test('the rubric reply check accepts exactly the replies zod accepts, with the value zod returns', () => {
  const ids = ['c1', 'c2']
  const schema = rubricReplyZodSchema(z, ids)
  for (const reply of replies) {
    const zodResult = schema['~standard'].validate(reply) as { value?: unknown; issues?: unknown }
    const checked = wellFormedReply(reply, ids)
    if (zodResult.issues) expect(checked, JSON.stringify(reply)).toBeUndefined()
    else expect(checked, JSON.stringify(reply)).toEqual(zodResult.value)
  }
})

test('a reply the check refuses is validated by zod, with the message that names the problem', async () => {
  const prepared = rubricReplySchema(2)
  expect(validateOutput(prepared, ok({ c1: verdict, c2: verdict }))).toEqual({
    ok: true,
    value: ok({ c1: verdict, c2: verdict }),
  })
  const refused = await validateOutput(prepared, ok({ c1: verdict, c3: verdict }))
  expect(refused.ok).toBe(false)
  expect((refused as { problem: string }).problem).toContain(
    'Unknown criterion id "c3": use exactly the ids c1, c2.',
  )
  expect((refused as { problem: string }).problem).toContain(
    'Missing: every criterion id needs a verdict.',
  )
})
