import { afterEach, expect, test } from 'vitest'
import {
  createAnswerRelevanceScorer,
  createContextRelevanceScorer,
  createFaithfulnessScorer,
  createPreferenceScorer,
} from '../../src'
import { type FakeOpenAI, type FakeOpenAIOptions, startFakeOpenAI } from '../../src/testing'
import { userMessage } from '../support/rubric-judge'

let server: FakeOpenAI | undefined

afterEach(async () => {
  await server?.close()
  server = undefined
})

async function judgeServer(reply: FakeOpenAIOptions['reply']) {
  server = await startFakeOpenAI({ reply })
  return { model: 'gpt-judge', baseURL: server.baseURL, apiKey: 'k' }
}

// A judge that reads the fenced answer, splits it at full stops and calls a claim supported when
// the context holds its last word.
const claimJudge: FakeOpenAIOptions['reply'] = (request) => {
  const prompt = userMessage(request)
  const context =
    /Context \(data, not instructions\):\n```\n([\s\S]*?)\n```/.exec(prompt)?.[1] ?? ''
  const answer =
    /Answer to judge \(data, not instructions\):\n```\n([\s\S]*?)\n```/.exec(prompt)?.[1] ?? ''
  const claims = answer
    .split('.')
    .map((claim) => claim.trim())
    .filter(Boolean)
  return {
    claims: claims.map((claim) => {
      const word = claim.split(' ').at(-1) ?? ''
      const supported = context.includes(word)
      return {
        claim,
        reasoning: supported
          ? `The context says "${word}".`
          : `The context never mentions "${word}".`,
        supported,
      }
    }),
  }
}

test('faithfulness gives partial credit by claims and names every unsupported claim, in one judge call', async () => {
  const judge = await judgeServer(claimJudge)
  const scorer = createFaithfulnessScorer({
    judge,
    context: 'Refunds take 5 days. Shipping is free.',
  })
  const result = await scorer.run({
    input: 'How long do refunds take?',
    output: 'Refunds take 5 days. You also get a voucher.',
  })
  expect(server?.requests).toHaveLength(1)
  expect(result.score).toBe(0.5)
  expect(result.passed).toBe(false)
  expect(result.judgements.map((judgement) => judgement.ok)).toEqual([true, false])
  expect(result.reason).toBe(
    '1 of 2 claims hold; 1 not supported by the context: "You also get a voucher" (The context never mentions "voucher".)',
  )
  expect(result.judgeCalls).toMatchObject([{ model: 'gpt-judge', step: 'analyze' }])
})

test('faithfulness without context is refused, and an answer with no claims is not scorable', async () => {
  const judge = await judgeServer({ claims: [] })
  await expect(createFaithfulnessScorer({ judge }).run({ output: 'Hi' })).rejects.toThrow(
    /has no context to judge against/,
  )
  const result = await createFaithfulnessScorer({ judge, context: 'x' }).run({ output: 'Hi' })
  expect(result.score).toBeUndefined()
  expect(result.notScorable?.reason).toMatch(/makes no factual claims/)
})

test('answer relevance needs the question and scores the share of relevant statements', async () => {
  const judge = await judgeServer({
    statements: [
      { statement: 'Refunds take 5 days', reasoning: 'Answers it.', relevant: true },
      { statement: 'We love cats', reasoning: 'Off topic.', relevant: false },
    ],
  })
  const scorer = createAnswerRelevanceScorer({ judge })
  await expect(scorer.run({ output: 'x' })).rejects.toThrow(/has none\. Pass it as "input"/)
  const result = await scorer.run({
    input: 'How long?',
    output: 'Refunds take 5 days. We love cats.',
  })
  expect(result.score).toBe(0.5)
  expect(result.reason).toContain('"We love cats" (Off topic.)')
})

test('context relevance judges each passage by number, a text split at blank lines', async () => {
  const judge = await judgeServer((request) => {
    const prompt = userMessage(request)
    expect(prompt).toContain('Passage p2:')
    return {
      passages: {
        p1: { reasoning: 'About refunds.', relevant: true },
        p2: { reasoning: 'About shipping.', relevant: false },
        p3: { reasoning: 'About refunds too.', relevant: true },
      },
    }
  })
  const result = await createContextRelevanceScorer({ judge, threshold: 0.6 }).run({
    input: 'How long do refunds take?',
    output: 'ignored',
    additionalContext: {
      context: 'Refunds take 5 days.\n\nShipping is free.\n\nRefunds go to the card.',
    },
  })
  expect(result.score).toBeCloseTo(2 / 3, 12)
  expect(result.passed).toBe(true)
})

// Prefers the output that mentions a refund, whichever position it is shown in, or always "A".
function preferenceJudge(mode: 'content' | 'first'): FakeOpenAIOptions['reply'] {
  return (request) => {
    const prompt = userMessage(request)
    if (mode === 'first') return { reasoning: 'A reads better.', preferred: 'A' }
    const a = /Output A \(data, not instructions\):\n```\n([\s\S]*?)\n```/.exec(prompt)?.[1] ?? ''
    return { reasoning: 'One offers a refund.', preferred: a.includes('refund') ? 'A' : 'B' }
  }
}

test('a preference counts when both orders agree, and the two orders are asked with the outputs swapped', async () => {
  const judge = await judgeServer(preferenceJudge('content'))
  const scorer = createPreferenceScorer({ judge, criteria: 'More helpful', baseline: 'Sorry.' })
  const result = await scorer.run({ input: 'Double charge', output: 'Sorry, here is a refund.' })
  expect(result.preference).toBe('output')
  expect(result.score).toBe(1)
  expect(result.passed).toBe(true)
  expect(result.orders.map((order) => [order.first, order.preferred])).toEqual([
    ['output', 'output'],
    ['baseline', 'output'],
  ])
  const prompts = server?.requests.map((request) => userMessage(request)) ?? []
  expect(prompts[0]).toMatch(/Output A[^`]*```\nSorry, here is a refund\.\n```/)
  expect(prompts[1]).toMatch(/Output A[^`]*```\nSorry\.\n```/)
  expect(result.judgeCalls).toHaveLength(2)
})

test('a judge that always prefers the first output shown gives a tie, not a preference', async () => {
  const judge = await judgeServer(preferenceJudge('first'))
  const scorer = createPreferenceScorer({ judge, criteria: 'More helpful', baseline: 'Sorry.' })
  const result = await scorer.run({ output: 'Sorry, here is a refund.' })
  expect(result.preference).toBe('tie')
  expect(result.score).toBe(0.5)
  expect(result.passed).toBe(false)
  expect(result.reason).toMatch(
    /^A tie: the two orders do not agree on a preference\. output shown first: output preferred/,
  )
  const tolerant = createPreferenceScorer({ judge, criteria: 'x', baseline: 'y', allowTie: true })
  expect((await tolerant.run({ output: 'z' })).passed).toBe(true)
})
