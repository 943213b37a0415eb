// Mastra's processors as they are (issue 29, item 7): the real `@mastra/core` processors, and
// processors written against its `Processor` type, used unchanged as a scorer judge's processors
// beside rubricate's text form. The judge is a fake OpenAI server on loopback.
import type { MastraDBMessage } from '@mastra/core/agent/message-list'
import type { Processor } from '@mastra/core/processors'
import {
  StreamErrorRetryProcessor as MastraRetryProcessor,
  UnicodeNormalizer,
} from '@mastra/core/processors'
import { afterEach, expect, test } from 'vitest'
import { createScorer, type JudgeProcessor } from '../../src'
import { rootCause } from '../../src/errors'
import {
  type FakeOpenAI,
  type FakeOpenAIOptions,
  fakeReply,
  startFakeOpenAI,
} from '../../src/testing'
import { linked } from '../support/error-page'
import { rejectionOf } from './helpers'

let server: FakeOpenAI | undefined

afterEach(async () => {
  await server?.close()
  server = undefined
})

async function endpoint(reply: FakeOpenAIOptions['reply']) {
  server = await startFakeOpenAI({ reply })
  return { model: 'gpt-test', baseURL: server.baseURL, apiKey: 'sk-test', maxRetries: 0 }
}

function scorer(judge: Record<string, unknown>) {
  return createScorer({ id: 'm', description: 'm', judge: judge as never }).generateScore({
    description: 's',
    createPrompt: ({ run }) => `Score  this:\n\n\n${run.output}`,
  })
}

// A Mastra output processor as its docs write one: it reads the reply's text parts and returns
// the messages, changed.
class ScoreLineParser implements Processor<'score-line-parser'> {
  readonly id = 'score-line-parser'
  processOutputResult({ messages }: { messages: MastraDBMessage[] }): MastraDBMessage[] {
    return messages.map((message) => {
      const text = message.content.parts
        .map((part) => (part.type === 'text' ? part.text : ''))
        .join('')
      const score = Number(text.split('=')[1])
      const json = JSON.stringify({ score })
      return { ...message, content: { ...message.content, parts: [{ type: 'text', text: json }] } }
    })
  }
}

test("Mastra's UnicodeNormalizer normalises the judge's prompt, and an output processor written for Mastra parses its reply", async () => {
  const model = await endpoint('SCORE=0.25')
  const result = await scorer({
    model,
    instructions: 'Grade  it.',
    inputProcessors: [new UnicodeNormalizer({ collapseWhitespace: true })],
    outputProcessors: [new ScoreLineParser()],
  }).run({ output: 'ﬁne' })
  expect(result.score).toBe(0.25)
  // Mastra hands system messages apart (`systemMessages`): the normaliser changes the prompt only.
  expect(server?.requests[0]?.body.messages).toEqual([
    { role: 'system', content: 'Grade  it.' },
    { role: 'user', content: 'Score this:\nfine' },
  ])
})

test('a Mastra input processor may return { messages, systemMessages } or the message list it changed in place', async () => {
  const model = await endpoint({ score: 1 })
  const system: Processor = {
    id: 'system-rewriter',
    name: 'System rewriter',
    processInput: ({ messages, systemMessages }) => {
      for (const message of systemMessages) {
        if (message.role === 'system') message.content = `${message.content} Be strict.`
      }
      return { messages, systemMessages }
    },
  }
  const inPlace: Processor = {
    id: 'in-place',
    name: 'In place',
    processInput: ({ messages, messageList }) => {
      for (const message of messages) {
        for (const part of message.content.parts) {
          if (part.type === 'text') part.text = part.text.toUpperCase()
        }
      }
      return messageList
    },
  }
  await scorer({ model, instructions: 'Grade.', inputProcessors: [system, inPlace] }).run({
    output: 'ok',
  })
  expect(server?.requests[0]?.body.messages).toEqual([
    { role: 'system', content: 'Grade. Be strict.' },
    { role: 'user', content: 'SCORE  THIS:\n\n\nOK' },
  ])
})

test("Mastra's own StreamErrorRetryProcessor retries a failed judge request", async () => {
  const model = await endpoint([fakeReply.status(503), { score: 0.5 }])
  const retry = new MastraRetryProcessor({
    maxRetries: 1,
    matchers: [(error) => error instanceof Error && /503/.test(error.message)],
  })
  const result = await scorer({ model, errorProcessors: [retry] }).run({ output: 'x' })
  expect(result.score).toBe(0.5)
  expect(server?.requests).toHaveLength(2)
})

test('rubricate processors in the text form work as before beside Mastra ones', async () => {
  const model = await endpoint('SCORE=0.75')
  const redact: JudgeProcessor = {
    processInput: ({ messages }) =>
      messages.map((m) => ({ ...m, content: m.content.replace('secret', '[x]') })),
  }
  const result = await scorer({
    model,
    inputProcessors: [redact, new UnicodeNormalizer()],
    outputProcessors: [new ScoreLineParser()],
  }).run({ output: 'a secret' })
  expect(result.score).toBe(0.75)
  expect(server?.requests[0]?.body.messages.at(-1).content).toBe('Score this:\na [x]')
})

test('a Mastra processor that returns something else is a usage error that names both forms', async () => {
  const model = await endpoint({ score: 1 })
  const broken = { id: 'broken', name: 'Broken', processInput: () => 42 }
  const error = await rejectionOf(scorer({ model, inputProcessors: [broken] }).run({ output: 'x' }))
  expect((rootCause(error) as Error).message).toBe(
    linked(
      '[rubricate] The judge input processor "broken" returned 42 from processInput, which is not a list of { role, content } messages with text content (rubricate\'s form) nor Mastra\'s stored messages, { messages, systemMessages } or the message list it was given (a processor written for Mastra). Return the messages it was given, changed.',
      'usage',
    ),
  )
  expect(server?.requests).toHaveLength(0)
})
