// Every text rubricate sends to a judge is part of a cassette key (the grounding and pairwise
// prompts too, under GROUNDING_PROMPT_VERSION and PAIRWISE_PROMPT_VERSION): the simulated user's prompt
// (under SIMULATED_USER_PROMPT_VERSION), the rubric prompt (under
// RUBRIC_PROMPT_VERSION) and the judge protocol of prompt mode and the repair turn (under
// JUDGE_PROTOCOL_VERSION). Each version's text is pinned here by a fingerprint, so rewording a
// line without bumping its version fails this test instead of silently turning every committed
// cassette into a miss. A deliberate change: bump the version, add its fingerprint below, and
// re-record the examples (`npm run examples:record`).
import { createHash } from 'node:crypto'
import { expect, test } from 'vitest'
import {
  SIMULATED_USER_INSTRUCTIONS,
  SIMULATED_USER_PROMPT_VERSION,
  simulatedUserPrompt,
} from '../../src/conversation/simulated-user'
import {
  GROUNDING_INSTRUCTIONS,
  GROUNDING_PROMPT_VERSION,
  groundingPrompt,
  listReplySchema,
  passagesReplySchema,
} from '../../src/grounding/grounding-prompt'
import { JUDGE_PROTOCOL_VERSION, judgeText } from '../../src/judge/judge-protocol'
import {
  PAIRWISE_INSTRUCTIONS,
  PAIRWISE_PROMPT_VERSION,
  pairwisePrompt,
  pairwiseReplySchema,
} from '../../src/pairwise/pairwise-prompt'
import { parseCriteria } from '../../src/rubric/criteria'
import { rubricReplySchema } from '../../src/rubric/reply-schema'
import {
  RUBRIC_INSTRUCTIONS,
  RUBRIC_PROMPT_VERSION,
  rubricPrompt,
} from '../../src/rubric/rubric-prompt'

const FINGERPRINTS: Record<string, string> = {
  'rubric-v1': '20df7f24923257be',
  'judge-v1': 'fff82a48058a732f',
  'simulated-user-v1': '65f9f03957dd9793',
  'grounding-v1': '197e682231e3ede7',
  'pairwise-v1': 'd284c7d6dd57a6b9',
  'rubric-v2': '8062a3130b8d3b7f',
  'simulated-user-v2': 'd4ad35a40da38e2c',
}

const fingerprint = (parts: readonly string[]) =>
  createHash('sha256').update(parts.join('\n\u0000\n')).digest('hex').slice(0, 16)

test('the rubric prompt is the one its version names', () => {
  const criteria = parseCriteria(
    '- Acknowledges the charge\n- (optional) Gives a timeframe',
    'rubric',
  )
  const text = fingerprint([
    RUBRIC_INSTRUCTIONS,
    rubricPrompt(criteria, 'Can I get a refund?', 'Yes, within 5 days.'),
    rubricPrompt(criteria, undefined, ''),
    rubricPrompt(criteria, 'Task', 'Output', { reference: 'The reference', context: 'A policy' }),
    rubricPrompt(criteria, 'Task', '{"turn":1,"speaker":"user","text":"Hi"}', {}, 'conversation'),
    rubricPrompt(criteria, 'Task', '{"toolCalls":0}', {}, 'trajectory'),
    JSON.stringify(rubricReplySchema(2).json),
  ])
  expect({ version: RUBRIC_PROMPT_VERSION, fingerprint: text }).toEqual({
    version: RUBRIC_PROMPT_VERSION,
    fingerprint: FINGERPRINTS[RUBRIC_PROMPT_VERSION],
  })
})

test('the judge protocol (prompt mode, the repair turn) is the one its version names', () => {
  const schema = { type: 'object', properties: { score: { type: 'number' } }, required: ['score'] }
  const text = fingerprint([
    judgeText.schemaInstruction(schema),
    judgeText.repairInstruction('- at "score": Expected number', schema),
    judgeText.repairInstruction('The reply was empty.', undefined),
    judgeText.replyEmpty(),
    judgeText.replyNotJson('Unexpected token'),
    judgeText.schemaIssue('criteria.c1', 'Required'),
    judgeText.schemaIssue('', 'Required'),
    judgeText.replyAmbiguous(2),
    judgeText.replyDuplicateKey('satisfied', 'criteria.c2'),
    judgeText.replyDuplicateKey('criteria', ''),
    judgeText.replyRefused('I cannot help with that.'),
    judgeText.replyQuoted(),
  ])
  expect({ version: JUDGE_PROTOCOL_VERSION, fingerprint: text }).toEqual({
    version: JUDGE_PROTOCOL_VERSION,
    fingerprint: FINGERPRINTS[JUDGE_PROTOCOL_VERSION],
  })
})

test('the simulated user’s prompt is the one its version names', () => {
  const text = fingerprint([
    SIMULATED_USER_INSTRUCTIONS,
    simulatedUserPrompt('A customer charged twice.', 'Get a refund', []),
    simulatedUserPrompt('A customer.', undefined, [
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello, how can I help?' },
    ]),
  ])
  expect({ version: SIMULATED_USER_PROMPT_VERSION, fingerprint: text }).toEqual({
    version: SIMULATED_USER_PROMPT_VERSION,
    fingerprint: FINGERPRINTS[SIMULATED_USER_PROMPT_VERSION],
  })
})

test('the grounding prompts are the ones their version names', () => {
  const text = fingerprint([
    GROUNDING_INSTRUCTIONS,
    groundingPrompt('faithfulness', { question: 'Q?', context: 'C.', answer: 'A.' }),
    groundingPrompt('faithfulness', { context: 'C.', answer: 'A.' }),
    groundingPrompt('answer-relevance', { question: 'Q?', answer: 'A.' }),
    groundingPrompt('context-relevance', { question: 'Q?', context: ['P1.', 'P2.'] }),
    JSON.stringify(listReplySchema('faithfulness').json),
    JSON.stringify(listReplySchema('answer-relevance').json),
    JSON.stringify(passagesReplySchema(2).json),
  ])
  expect({ version: GROUNDING_PROMPT_VERSION, fingerprint: text }).toEqual({
    version: GROUNDING_PROMPT_VERSION,
    fingerprint: FINGERPRINTS[GROUNDING_PROMPT_VERSION],
  })
})

test('the pairwise preference prompt is the one its version names', () => {
  const text = fingerprint([
    PAIRWISE_INSTRUCTIONS,
    pairwisePrompt('More helpful', 'The task', 'First', 'Second'),
    pairwisePrompt('More helpful', undefined, 'First', 'Second'),
    JSON.stringify(pairwiseReplySchema().json),
  ])
  expect({ version: PAIRWISE_PROMPT_VERSION, fingerprint: text }).toEqual({
    version: PAIRWISE_PROMPT_VERSION,
    fingerprint: FINGERPRINTS[PAIRWISE_PROMPT_VERSION],
  })
})
