import { expect, test } from 'vitest'
import {
  envSecrets,
  findSecret,
  redactJson,
  redactText,
  redactUrl,
  requestSecrets,
  secretSet,
} from '../../src/cassettes/redaction/redaction'
import { placeholderOf } from '../../src/cassettes/redaction/secret-patterns'

test('values of secret-named environment variables are secrets; plain words and short values are not', () => {
  const env = {
    OPENAI_API_KEY: 'sk-proj-abcDEF123456',
    GITHUB_TOKEN: 'ghp_x1y2z3w4v5',
    DB_PASSWORD: 'hunter2',
    FEATURE_KEY_MODE: 'production',
    HOME: '/root/secret-place-123',
  }
  expect(envSecrets(env).map((s) => s.label)).toEqual(['OPENAI_API_KEY', 'GITHUB_TOKEN'])
})

test('headers, query parameters and URL passwords of a request are secrets', () => {
  const url = new URL('https://user:p4ssw0rd-long@host/v1/chat?key=AIzaSy12345&api-version=2024')
  const secrets = requestSecrets(url, [
    ['authorization', 'Bearer sk-live-0123456789'],
    ['api-key', 'azure-key-0123456'],
    ['content-type', 'application/json'],
  ])
  expect(secrets).toEqual([
    { value: 'sk-live-0123456789', label: 'the "authorization" header' },
    { value: 'azure-key-0123456', label: 'the "api-key" header' },
    { value: 'AIzaSy12345', label: 'the "key" query parameter' },
    { value: 'p4ssw0rd-long', label: 'the URL' },
  ])
})

test('redaction replaces known secrets, sk- keys and Bearer tokens, and leaves the rest alone', () => {
  const set = secretSet([{ value: 'tok_12345678', label: 'X_TOKEN' }])
  expect(
    redactText(
      'use tok_12345678 or sk-abcdefghijklmnopqrstuvwx with Bearer abc.def-123456 to Bear news',
      set,
    ),
  ).toBe(
    `use ${placeholderOf('tok_12345678')} or ${placeholderOf('sk-abcdefghijklmnopqrstuvwx')} with Bearer ${placeholderOf('abc.def-123456')} to Bear news`,
  )
  const body = { a: ['x tok_12345678'], b: { c: 1 } }
  const out = redactJson(body, set) as typeof body
  expect(out).toEqual({ a: [`x ${placeholderOf('tok_12345678')}`], b: { c: 1 } })
  expect(out.b).toBe(body.b)
  const clean = { a: 'nothing here' }
  expect(redactJson(clean, set)).toBe(clean)
})

test('the rescan finds a secret that survived, with its path, including in object keys', () => {
  const set = secretSet([{ value: 'tok_12345678', label: 'X_TOKEN' }])
  expect(findSecret({ response: { json: { list: ['ok', 'tok_12345678'] } } }, set)).toEqual({
    label: 'X_TOKEN',
    path: 'response.json.list[1]',
  })
  expect(findSecret({ a: { tok_12345678: 1 } }, set)).toEqual({
    label: 'X_TOKEN',
    path: 'a.tok_12345678',
  })
  expect(findSecret({ a: 'sk-abcdefghijklmnopqrstuvwxyz' }, set)?.label).toBe('an "sk-..." API key')
  expect(findSecret({ a: 'fine' }, set)).toBeUndefined()
})

test('a JSON-escaped form of a secret is found in raw stream text', () => {
  const set = secretSet([{ value: 'pa"ss\\word1', label: 'P_SECRET' }])
  const raw = `data: ${JSON.stringify({ text: 'pa"ss\\word1' })}\n\n`
  expect(redactText(raw, set)).toBe(`data: {"text":"${placeholderOf('pa"ss\\word1')}"}\n\n`)
})

test('URLs shown in messages lose their userinfo and secret query parameters', () => {
  expect(redactUrl('https://u:pw@api.example.com/v1/chat/completions?api-version=1&key=abc')).toBe(
    'https://api.example.com/v1/chat/completions?api-version=1&key=%5BREDACTED%5D',
  )
})

test('a changed key, another header or another text is redacted with the secrets of its own set', () => {
  const instructions = `You are a grader. ${'Judge each criterion on its own. '.repeat(20)}`
  const first = secretSet(
    [{ value: 'env-secret-AAAA1111', label: 'MY_TOKEN' }],
    requestSecrets(undefined, [['authorization', 'Bearer sk-first-0123456789']]),
  )
  expect(Object.isFrozen(first.secrets)).toBe(true)
  const rotated = secretSet(
    [{ value: 'env-secret-BBBB2222', label: 'MY_TOKEN' }],
    requestSecrets(undefined, [['authorization', 'Bearer sk-second-0123456789']]),
  )
  expect(rotated).not.toBe(first)
  const text = `${instructions} env-secret-AAAA1111 env-secret-BBBB2222 sk-first-0123456789`
  // Long enough to be remembered; asked twice under each set.
  for (let i = 0; i < 2; i++) {
    expect(redactText(text, first)).toBe(
      `${instructions} ${placeholderOf('env-secret-AAAA1111')} env-secret-BBBB2222 ${placeholderOf('sk-first-0123456789')}`,
    )
    expect(redactText(text, rotated)).toBe(
      `${instructions} env-secret-AAAA1111 ${placeholderOf('env-secret-BBBB2222')} sk-first-0123456789`,
    )
  }
  // More texts than are remembered, then the first again: still redacted.
  for (let i = 0; i < 100; i++) redactText(`${instructions} ${i} env-secret-AAAA1111`, first)
  expect(redactText(text, first)).toContain(placeholderOf('env-secret-AAAA1111'))
})

test('a secret set is made again when a secret changes, and kept while the secrets are the same', () => {
  const first = secretSet([{ value: 'sk-first-0123456789', label: 'A_KEY' }])
  expect(secretSet([{ value: 'sk-first-0123456789', label: 'A_KEY' }])).toBe(first)
  const changed = secretSet([{ value: 'sk-second-0123456789', label: 'A_KEY' }])
  expect(changed).not.toBe(first)
  expect(redactText('sk-second-0123456789', changed)).not.toContain('sk-second')
  // A new label is a new set: a refusal names where the secret came from.
  const relabelled = secretSet([{ value: 'sk-second-0123456789', label: 'B_KEY' }])
  expect(relabelled.secrets[0]?.label).toBe('B_KEY')
})

test("two sets used in turn, a request's and the output's, are each kept", () => {
  const env = [{ value: 'sk-env-0123456789', label: 'A_KEY' }]
  const carried = [{ value: 'sk-carried-0123456789', label: 'the "authorization" header' }]
  const request = secretSet(env, carried)
  const output = secretSet(env)
  expect(secretSet(env, carried)).toBe(request)
  expect(secretSet(env)).toBe(output)
})
