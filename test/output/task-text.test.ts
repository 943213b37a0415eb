import { expect, test } from 'vitest'
import { taskText } from '../../src'
import { linked, linkedPattern } from '../support/error-page'

test('a string input is the task', () => {
  expect(taskText('I was charged twice, can I get a refund?')).toBe(
    'I was charged twice, can I get a refund?',
  )
})

test('a message list gives its first user message, parts joined', () => {
  expect(
    taskText([
      { role: 'system', content: 'You are a support agent.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Charged ' },
          { type: 'text', text: 'twice.' },
        ],
      },
      { role: 'assistant', content: 'Sorry!' },
      { role: 'user', content: 'Hello?' },
    ]),
  ).toBe('Charged twice.')
})

test("Mastra's completion context gives its originalTask", () => {
  expect(taskText({ originalTask: 'Write a haiku', iteration: 2, messages: [] })).toBe(
    'Write a haiku',
  )
})

test("Mastra's agent scorer input gives the first user message of inputMessages", () => {
  expect(
    taskText({
      inputMessages: [
        { role: 'user', content: { format: 2, parts: [{ type: 'text', text: 'Plan a trip' }] } },
      ],
      rememberedMessages: [],
      systemMessages: [],
      taggedSystemMessages: {},
    }),
  ).toBe('Plan a trip')
})

test('request shapes give their prompt, messages or input', () => {
  expect(taskText({ prompt: 'Summarise this' })).toBe('Summarise this')
  expect(taskText({ messages: [{ role: 'user', content: 'From messages' }] })).toBe('From messages')
  expect(taskText({ input: 'From input' })).toBe('From input')
})

test('no input, or a message list without a user message, is no task', () => {
  expect(taskText(undefined)).toBeUndefined()
  expect(taskText(null)).toBeUndefined()
  expect(taskText([{ role: 'system', content: 'Only a system prompt' }])).toBeUndefined()
  expect(taskText({ rubric: '- Be kind' })).toBeUndefined()
})

test('any other object is JSON with sorted keys, without the rubric', () => {
  expect(taskText({ question: 'Refund?', rubric: '- Be kind', customer: { tier: 'gold' } })).toBe(
    '{\n  "customer": {\n    "tier": "gold"\n  },\n  "question": "Refund?"\n}',
  )
})

test('a Promise input is a usage error', () => {
  expect(() => taskText(Promise.resolve('q'))).toThrowError(
    expect.objectContaining({
      code: 'RUBRICATE_USAGE',
      message: linked(
        '[rubricate] The `input` is a Promise, so the judge cannot be shown the task. Await it before passing it: `{ input: await input }`.',
        'usage',
      ),
    }),
  )
})

test('an input that cannot be read at all is a usage error saying what to pass', () => {
  const { proxy, revoke } = Proxy.revocable({}, {})
  revoke()
  expect(() => taskText(proxy)).toThrowError(
    expect.objectContaining({
      code: 'RUBRICATE_USAGE',
      message: expect.stringMatching(
        linkedPattern(
          /^\[rubricate\] The input could not be read as text for the judge: reading it threw ".+"\. Pass a string, or a plain object or array whose fields can be read\.$/,
          'usage',
        ),
      ),
    }),
  )
})
