// The rubric reply is checked without zod first (replay validates every reply). That check may
// only ever accept what the zod schema accepts, and give back exactly what zod gives back; any
// other reply must go on to zod, which words the problem for the repair turn.
import { expect, test } from 'vitest'
import { validateOutput } from '../../src/judge/output-schema'
import { rubricReplySchema } from '../../src/rubric/reply-schema'

const verdict = (satisfied: unknown = true, reasoning: unknown = 'It says so.') => ({
  reasoning,
  satisfied,
})

function replies(ids: string[]): unknown[] {
  const criteria = Object.fromEntries(ids.map((id) => [id, verdict()]))
  const good = { criteria, overallAssessment: 'Fine.' }
  const first = ids[0] as string
  const without = (object: Record<string, unknown>, key: string) => {
    const { [key]: _gone, ...rest } = object
    return rest
  }
  const escaped = JSON.parse('{"__proto__": {"reasoning": "x", "satisfied": true}}')
  return [
    good,
    // Keys in another order: accepted, and given back in the schema's order.
    { overallAssessment: 'Fine.', criteria },
    {
      criteria: Object.fromEntries(
        ids.map((id) => [id, { satisfied: false, reasoning: 'Not said.' }]),
      ),
      overallAssessment: '',
    },
    // Each way of being wrong.
    without(good, 'overallAssessment'),
    without(good, 'criteria'),
    { ...good, extra: 1 },
    { ...good, overallAssessment: 3 },
    { ...good, overallAssessment: null },
    { ...good, criteria: without(criteria, first) },
    { ...good, criteria: { ...criteria, [`c${ids.length + 1}`]: verdict() } },
    { ...good, criteria: { ...criteria, [first]: verdict('true') } },
    { ...good, criteria: { ...criteria, [first]: verdict(1) } },
    { ...good, criteria: { ...criteria, [first]: verdict(true, 42) } },
    { ...good, criteria: { ...criteria, [first]: { reasoning: undefined, satisfied: true } } },
    { ...good, criteria: { ...criteria, [first]: { ...verdict(), score: 1 } } },
    { ...good, criteria: { ...criteria, [first]: { satisfied: true } } },
    { ...good, criteria: { ...criteria, [first]: null } },
    { ...good, criteria: { ...criteria, [first]: [true, 'x'] } },
    { ...good, criteria: { ...criteria, ...escaped } },
    { ...good, criteria: ids.map(() => verdict()) },
    { ...good, criteria: null },
    { ...good, criteria: 'all met' },
    JSON.parse(`{"__proto__": 1, ${JSON.stringify(good).slice(1)}`),
    Object.assign(Object.create({ inherited: true }), good),
    Object.assign(Object.create(null), good),
    [good],
    null,
    'criteria',
    42,
    undefined,
  ]
}

test('the quick check of a rubric reply accepts only what the zod schema accepts, and gives back what zod gives back', () => {
  let accepted = 0
  let cases = 0
  for (const count of [1, 2, 3, 7]) {
    const ids = Array.from({ length: count }, (_, index) => `c${index + 1}`)
    const prepared = rubricReplySchema(count)
    if (!prepared.accept) throw new Error('the rubric reply schema has no quick check')
    for (const reply of replies(ids)) {
      cases++
      const quick = prepared.accept(reply)
      const byZod = prepared.schema['~standard'].validate(reply)
      if (byZod instanceof Promise) throw new Error('zod validated asynchronously')
      if (quick === undefined) continue
      accepted++
      expect(byZod.issues).toBeUndefined()
      const value = (byZod as { value: unknown }).value
      expect(quick.value).toStrictEqual(value)
      // The same keys in the same order, as the reply's JSON is compared in that form.
      expect(JSON.stringify(quick.value)).toBe(JSON.stringify(value))
    }
  }
  // The three well-formed replies of each count took the quick way; nothing else did.
  expect(accepted).toBe(12)
  expect(cases).toBeGreaterThan(100)
})

test('a reply the quick check leaves alone is still refused by the schema, with its problem named', () => {
  const prepared = rubricReplySchema(2)
  const reply = { criteria: { c1: verdict(), c3: verdict() }, overallAssessment: 'Fine.' }
  expect(prepared.accept?.(reply)).toBeUndefined()
  const checked = validateOutput(prepared, reply)
  if (checked instanceof Promise) throw new Error('zod validated asynchronously')
  expect(checked.ok).toBe(false)
  expect(checked.ok ? '' : checked.problem).toContain('Unknown criterion id "c3"')
})
