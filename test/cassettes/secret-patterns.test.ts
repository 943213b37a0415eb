// Every string of every request is checked for well-known key formats, first by one scan for
// their marks (ANY_MARK). That scan may never miss a mark, or a key would go unredacted.
import { expect, test } from 'vitest'
import {
  ANY_MARK,
  KEY_FORMATS,
  keyFormatIn,
  redactKeyFormats,
} from '../../src/cassettes/redaction/secret-patterns'

const SURROUNDINGS: [string, string][] = [
  ['', ''],
  ['prose before ', ' and after'],
  ['glued', 'glued'],
  ['- a bullet, ', '\n'],
  ['"', '"'],
  ['sss_ggg_', '___'],
  ['---', '---'],
]

test('the scan for marks finds every mark of every key format, wherever it stands', () => {
  let checked = 0
  for (const format of KEY_FORMATS) {
    for (const mark of format.marks) {
      for (const [before, after] of SURROUNDINGS) {
        expect(ANY_MARK.test(`${before}${mark}${after}`), `${format.label}: ${mark}`).toBe(true)
        checked++
      }
    }
  }
  expect(checked).toBe(KEY_FORMATS.flatMap((format) => format.marks).length * SURROUNDINGS.length)
})

test('a key of each format holds one of its marks, and is redacted', () => {
  const keys: Record<string, string> = {
    'a PEM private key':
      '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----',
    'a GitHub token': 'ghp_abcdefghijklmnopqrstuvwxyz0123456789',
    'a Stripe key': 'sk_live_abcdefghij0123',
    'an AWS access key id': 'AKIAABCDEFGHIJKLMNOP',
    'a Google API key': 'AIzaSyA1234567890abcdefghijklmnopqrstuv',
    'a Slack token': 'xoxb-1234567890-abcdef',
    'a Hugging Face token': 'hf_abcdefghijklmnopqrstuvwxyz01234567',
    'a Groq key': 'gsk_abcdefghijklmnopqrstuvwxyz',
    'an xAI key': 'xai-abcdefghijklmnopqrstuvwxyz',
    'an "sk-..." API key': 'sk-proj-abcdefghijklmnopqrstuvwxyz',
    'a "Bearer ..." token': 'Bearer abcdefgh12345678',
    'a password in a URL': 'postgres://app:s3cret-pw@db.internal/app',
  }
  expect(Object.keys(keys).sort()).toEqual(KEY_FORMATS.map((format) => format.label).sort())
  for (const format of KEY_FORMATS) {
    const text = `The output says ${keys[format.label]} in passing.`
    expect(
      format.marks.some((mark) => text.includes(mark)),
      format.label,
    ).toBe(true)
    expect(keyFormatIn(text), format.label).toBeDefined()
    expect(redactKeyFormats(text), format.label).toContain('[REDACTED:')
  }
})

test('text that holds no mark is given back as it is, without a pattern run over it', () => {
  const prose =
    'Grade the output below against each criterion of this rubric.\n- Judge each criterion independently.\nc1. [required] Mentions refund: skills, risk, a task (sk is fine), hf, gsk, A-grade, B: ok.'
  expect(ANY_MARK.test(prose)).toBe(false)
  expect(redactKeyFormats(prose)).toBe(prose)
  expect(keyFormatIn(prose)).toBeUndefined()
})
