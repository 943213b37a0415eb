import { expect, test } from 'vitest'
import { extractJson, fenceBodies } from '../../src/judge/extract-json'

test('a fenced JSON answer in prose is found, with backticks or tildes and an info string', () => {
  expect(fenceBodies('Here:\n```json\n{"a":1}\n```\nDone.')).toEqual(['{"a":1}'])
  expect(fenceBodies('~~~\n[1, 2]\n~~~')).toEqual(['[1, 2]'])
  expect(fenceBodies('````\ninner ``` stays\n````')).toEqual(['inner ``` stays'])
  expect(fenceBodies('```a\none\n```\ntext\n```b\ntwo\n```')).toEqual(['one', 'two'])
  const found = extractJson('The verdicts:\n```json\n{"ok": true}\n```')
  expect(found.ok && found.candidates[0]).toEqual({ value: { ok: true }, source: '{"ok": true}' })
})

test('a fence that never closes, or has no line break, holds no body', () => {
  expect(fenceBodies('```json {"a":1}')).toEqual([])
  expect(fenceBodies('```\n{"a":1}')).toEqual([])
  expect(fenceBodies('`'.repeat(5000))).toEqual([])
})
