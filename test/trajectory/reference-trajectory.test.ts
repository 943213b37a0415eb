// Reference trajectories in the tool-call scorer (issue 39, item 3): agentevals' four modes under
// each way of comparing arguments, the edge cases where a first-fit pairing scores too low, and
// the usage errors. The output and the reference are OpenAI chat message lists, as a tool loop
// leaves them.
import { expect, test } from 'vitest'
import { createToolCallScorer } from '../../src'

type Config = Parameters<typeof createToolCallScorer>[0]

function assistant(...calls: [name: string, args: unknown][]) {
  return {
    role: 'assistant',
    content: null,
    tool_calls: calls.map(([name, args], index) => ({
      id: `call_${name}_${index}`,
      type: 'function',
      function: { name, arguments: JSON.stringify(args) },
    })),
  }
}

// search, then a lookup with a flag the reference does not hold, then the refund.
const output = [
  { role: 'user', content: 'Refund A1' },
  assistant(['search', { q: 'A1' }]),
  { role: 'tool', tool_call_id: 'call_search_0', content: '["A1"]' },
  assistant(['lookup_order', { id: 'A1', verbose: true }], ['refund', { id: 'A1' }]),
  { role: 'assistant', content: 'Refunded.' },
]
const reference = [
  { role: 'user', content: 'Refund A1' },
  assistant(['lookup_order', { id: 'A1' }]),
  assistant(['refund', { id: 'A1' }]),
]

const score = async (config: Config, out: unknown = output) =>
  (await createToolCallScorer(config).run({ output: out })).score
const reason = async (config: Config, out: unknown = output) =>
  (await createToolCallScorer(config).run({ output: out })).reason

// Compares the order id alone.
const sameId = (want: unknown, got: unknown) =>
  (want as { id?: unknown }).id === (got as { id?: unknown }).id

test('each mode under each argument mode gives its partial credit', async () => {
  // exact: the lookup does not fit (it has "verbose"), so it is missing and its call is extra.
  // subset, ignore and sameId: both reference calls fit; search is the one extra call.
  const expected = {
    strict: { exact: 1 / 4, subset: 2 / 3, ignore: 2 / 3, sameId: 2 / 3 },
    unordered: { exact: 1 / 4, subset: 2 / 3, ignore: 2 / 3, sameId: 2 / 3 },
    // Only the calls made count: 1 of 3 fits the reference exactly, 2 of 3 otherwise.
    subset: { exact: 1 / 3, subset: 2 / 3, ignore: 2 / 3, sameId: 2 / 3 },
    // Extras allowed: 1 of 2 reference calls exactly, both otherwise.
    superset: { exact: 1 / 2, subset: 1, ignore: 1, sameId: 1 },
  }
  const argModes = { exact: 'exact', subset: 'subset', ignore: 'ignore', sameId } as const
  for (const [mode, byArgs] of Object.entries(expected)) {
    for (const [name, want] of Object.entries(byArgs)) {
      const args = argModes[name as keyof typeof argModes]
      expect(
        await score({ reference, mode: mode as Config['mode'], args }),
        `${mode}, args ${name}`,
      ).toBeCloseTo(want, 10)
    }
  }
})

test('strict wants the reference order; unordered takes any order', async () => {
  const swapped = [assistant(['refund', { id: 'A1' }]), assistant(['lookup_order', { id: 'A1' }])]
  const made = [assistant(['lookup_order', { id: 'A1' }], ['refund', { id: 'A1' }])]
  expect(await score({ reference: swapped, mode: 'unordered' }, made)).toBe(1)
  // The refund is matched in order; the lookup was made, but before it: out of order, not extra.
  expect(await score({ reference: swapped, mode: 'strict' }, made)).toBe(0.5)
  expect(await reason({ reference: swapped, mode: 'strict' }, made)).toBe(
    '1 of 2 reference calls matched (strict); matched refund {"id":"A1"}; out of order lookup_order {"id":"A1"}: score 0.5',
  )
})

test('the reason names the calls matched, missing and extra, with their arguments', async () => {
  expect(await reason({ reference, mode: 'strict', args: 'exact' })).toBe(
    '1 of 2 reference calls matched (strict); matched refund {"id":"A1"}; missing lookup_order {"id":"A1"}; extra (counted against) search {"q":"A1"}, lookup_order {"id":"A1","verbose":true}: score 0.25',
  )
  expect(await reason({ reference, mode: 'superset' })).toBe(
    '2 of 2 reference calls matched (superset); matched lookup_order {"id":"A1"}, refund {"id":"A1"}; extra (allowed) search {"q":"A1"}: score 1',
  )
})

test('argsByTool compares one tool its own way', async () => {
  const ref = [
    { name: 'search', args: { q: 'anything' } },
    { name: 'lookup_order', args: { id: 'A1' } },
    { name: 'refund', args: { id: 'A1' } },
  ]
  // Exactly, only the refund fits: 1 of 3, and the search and the lookup are extra.
  expect(await score({ reference: ref, mode: 'strict', args: 'exact' })).toBeCloseTo(1 / 5, 10)
  expect(
    await score({
      reference: ref,
      mode: 'strict',
      args: 'exact',
      argsByTool: { search: 'ignore', lookup_order: 'subset' },
    }),
  ).toBe(1)
})

test('an empty reference: superset always holds, the others want no calls', async () => {
  expect(await score({ reference: [], mode: 'superset' })).toBe(1)
  for (const mode of ['strict', 'unordered', 'subset'] as const) {
    expect(await score({ reference: [], mode })).toBe(0)
    expect(await score({ reference: [], mode }, [])).toBe(1)
  }
})

test('duplicate calls count once each, in the reference and in the output', async () => {
  const twice = ['search', 'search']
  expect(await score({ reference: twice, mode: 'superset' }, [assistant(['search', {}])])).toBe(0.5)
  const thrice = [assistant(['search', { q: 1 }], ['search', { q: 2 }], ['search', { q: 3 }])]
  expect(await score({ reference: twice, mode: 'unordered' }, thrice)).toBeCloseTo(2 / 3, 10)
  expect(await score({ reference: twice, mode: 'superset' }, thrice)).toBe(1)
  expect(await score({ reference: twice, mode: 'subset' }, thrice)).toBeCloseTo(2 / 3, 10)
})

test('the same tool twice with different arguments is paired to match both', async () => {
  // The first reference call (no arguments given) fits both calls; first-fit would give it the
  // B2 lookup and leave the second reference call unmatched.
  const ref = [{ name: 'lookup_order' }, { name: 'lookup_order', args: { id: 'B2' } }]
  const made = [assistant(['lookup_order', { id: 'B2' }], ['lookup_order', { id: 'A1' }])]
  expect(await score({ reference: ref, mode: 'unordered' }, made)).toBe(1)
  expect(await score({ expected: ref }, made)).toBe(1)
})

test('in order, the longest run of expected calls made in order is credited', async () => {
  // First-fit in order matches x at the last call and then nothing: 1 of 3.
  const made = [assistant(['a', {}], ['b', {}], ['x', {}])]
  const expected = [{ name: 'x' }, { name: 'a' }, { name: 'b' }]
  expect(await score({ expected, order: 'strict' }, made)).toBeCloseTo(2 / 3, 10)
  expect(await score({ reference: expected, mode: 'strict' }, made)).toBeCloseTo(2 / 3, 10)
})

test('asymmetric matchers in the reference arguments match as in toEqual', async () => {
  const ref = [{ name: 'lookup_order', args: { id: expect.stringMatching(/^A/), verbose: true } }]
  expect(await score({ reference: ref, mode: 'superset', args: 'exact' })).toBe(1)
})

test('a plain list of calls, tool names and a message list give the same reference', async () => {
  for (const ref of [
    reference,
    [
      { name: 'lookup_order', args: { id: 'A1' } },
      { name: 'refund', args: { id: 'A1' } },
    ],
  ]) {
    expect(await score({ reference: ref, mode: 'superset', args: 'exact' })).toBe(0.5)
  }
  expect(
    await score({ reference: ['lookup_order', 'refund'], mode: 'superset', args: 'exact' }),
  ).toBe(1)
})

test('a call whose arguments are not JSON cannot be told missing', async () => {
  const raw = [
    {
      role: 'assistant',
      tool_calls: [
        { id: 'c1', type: 'function', function: { name: 'refund', arguments: '{id: A1' } },
      ],
    },
  ]
  await expect(
    createToolCallScorer({ reference, mode: 'superset' }).run({ output: raw }),
  ).rejects.toMatchObject({
    cause: {
      message: expect.stringContaining(
        'A call of the tool "refund" has arguments that are not JSON ("{id: A1", the raw text the model sent)',
      ),
    },
  })
  // By name alone, the call counts.
  expect(await score({ reference, mode: 'superset', argsByTool: { refund: 'ignore' } }, raw)).toBe(
    0.5,
  )
})

test('bad reference options are usage errors that say what to write', () => {
  expect(() => createToolCallScorer({ reference, expected: [] })).toThrow(
    '[rubricate] createToolCallScorer() got both "reference" and "expected"',
  )
  expect(() => createToolCallScorer({ mode: 'strict' })).toThrow(
    '[rubricate] createToolCallScorer() needs the calls the agent should make: "expected", a list such as [{ name: \'lookup_order\', args: { id: \'A1\' } }], or "reference"',
  )
  expect(() => createToolCallScorer({ reference, order: 'strict' })).toThrow(
    '[rubricate] createToolCallScorer() got "mode" and "order", which both say how calls are compared.',
  )
  expect(() => createToolCallScorer({ reference, mode: 'exact' as never })).toThrow(
    '[rubricate] createToolCallScorer() option "mode" is "exact", which is not supported. Use one of "strict", "unordered", "subset", "superset".',
  )
  expect(() => createToolCallScorer({ reference, args: 'loose' as never })).toThrow(
    'createToolCallScorer() option "args" is "loose"',
  )
  expect(() =>
    createToolCallScorer({ reference, argsByTool: { search: 'fuzzy' as never } }),
  ).toThrow('createToolCallScorer() option "argsByTool.search" is "fuzzy"')
  expect(() => createToolCallScorer({ reference: { text: 'hi' } })).toThrow(
    '[rubricate] createToolCallScorer() option "reference" got a reference trajectory it cannot read. Give a list of calls such as [{ name: \'lookup_order\', args: { id: \'A1\' } }] (or tool names), or a message list or result that toHaveCalledTool() reads. The reader said: No tool calls can be read from an object with keys "text"',
  )
})
