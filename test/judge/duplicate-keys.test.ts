import { expect, test } from 'vitest'
import { duplicateKey } from '../../src/judge/duplicate-keys'
import { extractJson } from '../../src/judge/extract-json'

test('duplicateKey finds a key held twice at any depth, and says where', () => {
  expect(duplicateKey('{"a":1,"a":2}')).toEqual({ key: 'a', path: '' })
  expect(duplicateKey('{"x":{"y":[{"k":1},{"k":2,"k":3}]}}')).toEqual({ key: 'k', path: 'x.y[1]' })
  expect(duplicateKey('[[1,2],{"b":{},"c":[],"b":null}]')).toEqual({ key: 'b', path: '[1]' })
})

test('duplicateKey compares keys after decoding their escapes', () => {
  expect(duplicateKey('{"satisfied":false,"\\u0073atisfied":true}')).toEqual({
    key: 'satisfied',
    path: '',
  })
  expect(duplicateKey('{"a\\"b":1,"a\\u0022b":2}')).toEqual({ key: 'a"b', path: '' })
  expect(duplicateKey('{"\\ud83d\\ude00":1,"😀":2}')).toEqual({ key: '😀', path: '' })
})

test('duplicateKey counts equal keys in different objects, values equal to keys and keys inside strings as distinct', () => {
  expect(duplicateKey('{"a":{"a":1},"b":{"a":2}}')).toBeUndefined()
  expect(duplicateKey('{"a":"a","b":"a"}')).toBeUndefined()
  expect(duplicateKey('{"note":"{\\"a\\":1,\\"a\\":2}","a":[",\\"a\\""]}')).toBeUndefined()
  expect(duplicateKey('{"a":1,"A":2,"a ":3}')).toBeUndefined()
  expect(duplicateKey('[{"a":1},{"a":1}]')).toBeUndefined()
})

test('a reply with a duplicated key anywhere is unusable, even beside a clean candidate', () => {
  expect(extractJson('{"a":1,"a":2}')).toEqual({
    ok: false,
    problem:
      'The reply\'s JSON has the key "a" twice in the same object, so it is unclear which value you meant. Reply with one JSON object in which every key appears once.',
  })
  expect(extractJson('Clean: {"ok":true} and {"x":{"y":1,"y":2}}')).toMatchObject({
    ok: false,
    problem: expect.stringContaining('the key "y" twice in the same object (at "x")'),
  })
  expect(extractJson('```json\n{"a":[1,{"b":1,"b":1}]}\n```')).toMatchObject({ ok: false })
  expect(extractJson('{"a":1,"b":{"a":2}}')).toEqual({
    ok: true,
    candidates: [{ value: { a: 1, b: { a: 2 } }, source: '{"a":1,"b":{"a":2}}' }],
  })
})

test('prose brackets are skipped without parsing, deeply indented JSON is still found', () => {
  const indented = `Verdict: {\n${' '.repeat(200)}"a": 1}`
  expect(extractJson(indented)).toEqual({
    ok: true,
    candidates: [{ value: { a: 1 }, source: `{\n${' '.repeat(200)}"a": 1}` }],
  })
  expect(extractJson('[required] and {name} then [1, 2]')).toEqual({
    ok: true,
    candidates: [{ value: [1, 2], source: '[1, 2]' }],
  })
  expect(extractJson('[tag] [true, null] [nope]')).toEqual({
    ok: true,
    candidates: [{ value: [true, null], source: '[true, null]' }],
  })
})

test("a reply that is not JSON is described in JSON.parse's own words, for the repair turn", () => {
  // Node 22 adds "(line 1 column 27)" to the same message.
  expect(extractJson('{"criteria": {"c1": {"reas')).toEqual({
    ok: false,
    problem: expect.stringMatching(
      /^The reply is not valid JSON: Unterminated string in JSON at position 26( \(line 1 column 27\))?$/,
    ),
  })
})
