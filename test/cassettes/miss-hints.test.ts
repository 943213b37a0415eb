import { expect, test } from 'vitest'
import { looksLikeDateOrId, messages } from '../../src/messages'

test('the normalize hint is given when the changed part looks like a date, a time or an id on both sides', () => {
  const volatile: [string, string][] = [
    ['Today is 2026-01-01.', 'Today is 2026-01-02.'],
    ['at 09:15 sharp', 'at 10:42 sharp'],
    ['order req_8f3a9c21 shipped', 'order req_77b1e0d4 shipped'],
    ['id 3f2c1a4e-1b2c-4d5e-9f00-aa11bb22cc33', 'id 9a8b7c6d-1b2c-4d5e-9f00-aa11bb22cc33'],
    ['ts=1767225600', 'ts=1767312000'],
  ]
  for (const [before, after] of volatile)
    expect(looksLikeDateOrId(before, after), before).toBe(true)
})

test('no normalize hint for a reworded criterion or a changed word', () => {
  const worded: [string, string][] = [
    ['Paris is in France', 'Paris is in Germany'],
    ['- Acknowledges the double charge', '- Acknowledges the charge'],
    ['Answer in 3 sentences', 'Answer in 4 sentences'],
  ]
  for (const [before, after] of worded) expect(looksLikeDateOrId(before, after), before).toBe(false)
  expect(
    messages.cassetteMissTextChange({
      path: 'messages[1].content',
      before: '…in France',
      after: '…in Germany',
    }),
  ).toBe('messages[1].content was "…in France", is now "…in Germany"')
  expect(
    messages.cassetteMissTextChange({
      path: 'messages[0].content',
      before: 'Date: 2026-01-01',
      after: 'Date: 2026-01-02',
    }),
  ).toBe(
    'messages[0].content was "Date: 2026-01-01", is now "Date: 2026-01-02" (a date or an id? cassettes.normalize can make it constant before keying)',
  )
})

test('the miss message says that recording needs a key and the real base URL', () => {
  const text = messages.cassetteMiss({
    what: 'judge call',
    modeReason: 'CI is set',
    consequence: '',
    facts: [],
    command: 'RUBRICATE_CASSETTES=auto npx vitest run a.test.ts -t "x"',
    dir: '__cassettes__/',
  })
  expect(text.split('\n').at(-1)).toBe(
    'Recording calls the model live: it needs its API key (OPENAI_API_KEY for an "openai/..." model) and its real base URL (OPENAI_BASE_URL, when it is not api.openai.com).',
  )
})

test('a host name that is not found is reported as one, with the base URL to check, not as rate limiting', () => {
  // The detail as a live run printed it, with no DNS answer for api.openai.com.
  const problem = 'a connection error (getaddrinfo ENOTFOUND api.openai.com)'
  const text = messages.judgeRetriesExhausted(
    'gpt-4.1-mini',
    'https://api.openai.com/v1',
    problem,
    3,
  )
  expect(text).toContain(
    `failed with ${problem} after 3 requests. The host name of that address was not found (DNS), so waiting will not help. Check the base URL (OPENAI_BASE_URL, or baseURL in the judge object) and that this machine is online.`,
  )
  expect(text).not.toContain('rate limiting')
})
