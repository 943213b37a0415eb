// Group 2: the judge answers, but not with a usable verdict. Each reply is repaired when the JSON
// can be found leniently; otherwise it is fed back once, and a second bad reply is
// RUBRICATE_JUDGE_OUTPUT holding the raw text. No bad reply ever counts as a satisfied criterion.
import { stripVTControlCharacters } from 'node:util'
import { describe, expect, test } from 'vitest'
import { toPassScorer, toSatisfyRubric } from '../../matchers'
import { createRubricScorer, type JudgeModel } from '../../src'
import { REPAIR_REPLY_LIMIT } from '../../src/judge/judge-call'
import { type FakeReply, fakeReply } from '../../src/testing'
import { useCassetteFolder } from '../cassettes/support'
import {
  failureOf,
  judgeRubric,
  judgeServer,
  PASSING_VERDICT,
  RUBRIC,
  SPLIT_VERDICT,
  SPLIT_VERDICTS,
} from './support'

expect.extend({ toSatisfyRubric, toPassScorer })

const SPLIT = JSON.stringify(SPLIT_VERDICT)
const ALL_MET = JSON.stringify(PASSING_VERDICT)
const verdicts = (c1: unknown, c2: unknown) => ({
  criteria: { c1, c2 },
  overallAssessment: 'Fine.',
})
const met = { reasoning: 'Yes.', satisfied: true }
const MET = JSON.stringify(met)

/** A reply found leniently: the verdicts are the judge's, with no repair round trip. */
const lenient: { name: string; text: string | FakeReply }[] = [
  {
    name: 'JSON in a ```json fence with prose around it',
    text: `Here is my grading:\n\`\`\`json\n${SPLIT}\n\`\`\`\nLet me know if you need more.`,
  },
  { name: 'JSON in a bare ``` fence', text: `\`\`\`\n${SPLIT}\n\`\`\`` },
  { name: 'JSON in a ~~~ fence', text: `~~~json\n${SPLIT}\n~~~` },
  { name: 'JSON after a sentence of prose', text: `After careful review, my verdict is ${SPLIT}` },
  { name: 'JSON followed by a remark', text: `${SPLIT}\n\nHope this helps!` },
  { name: 'JSON behind a byte-order mark and blank lines', text: `\uFEFF\n\n  ${SPLIT}\n\n` },
  {
    name: 'pretty-printed JSON with CRLF line ends',
    text: JSON.stringify(SPLIT_VERDICT, null, 2).replace(/\n/g, '\r\n'),
  },
  {
    name: 'content sent as a list of text parts instead of a string',
    text: completionWith({ role: 'assistant', content: [{ type: 'text', text: SPLIT }] }),
  },
  {
    name: 'a huge but valid reply (a 1 MB overall assessment)',
    text: JSON.stringify({ ...SPLIT_VERDICT, overallAssessment: 'Long. '.repeat(180_000) }),
  },
]

interface BadReply {
  name: string
  /** What the judge answers: assistant text, or a whole HTTP reply. */
  reply: string | FakeReply
  /** The raw text the error holds (default: the reply's text). */
  raw?: string
  /** A line the repair turn must carry, naming what was wrong. */
  problem?: string
}

const bad: BadReply[] = [
  { name: 'an empty reply', reply: '', problem: 'The reply was empty.' },
  { name: 'a reply of only whitespace', reply: ' \n\t ', problem: 'The reply was empty.' },
  { name: 'a refusal in plain words', reply: "I'm sorry, but I can't help with grading this." },
  {
    name: 'a verdict in prose that claims every criterion is met',
    reply: 'Both criteria are clearly satisfied. Great answer!',
  },
  { name: 'a truncated reply (cut mid-string)', reply: SPLIT.slice(0, 60) },
  {
    name: 'a reply cut by the token limit (finish_reason "length")',
    reply: fakeReply.text(ALL_MET.slice(0, 90), { finishReason: 'length' }),
    raw: ALL_MET.slice(0, 90),
  },
  { name: 'JSON with a trailing comma', reply: ALL_MET.replace(/}$/, ',}') },
  {
    name: 'a JavaScript object literal with single quotes',
    reply:
      "{criteria: {c1: {reasoning: 'ok', satisfied: true}, c2: {reasoning: 'ok', satisfied: true}}, overallAssessment: 'ok'}",
  },
  { name: 'JSON with comments inside', reply: ALL_MET.replace('{', '{ /* graded */ ') },
  {
    name: '"satisfied" as the string "true"',
    reply: JSON.stringify(verdicts(met, { reasoning: 'Yes.', satisfied: 'true' })),
    problem: '- at "criteria.c2.satisfied": Invalid input: expected boolean, received string',
  },
  {
    name: '"satisfied" as the number 1',
    reply: JSON.stringify(verdicts(met, { reasoning: 'Yes.', satisfied: 1 })),
    problem: '- at "criteria.c2.satisfied": Invalid input: expected boolean, received number',
  },
  {
    name: '"satisfied" as null',
    reply: JSON.stringify(verdicts(met, { reasoning: 'Yes.', satisfied: null })),
  },
  { name: '"satisfied" missing', reply: JSON.stringify(verdicts(met, { reasoning: 'Yes.' })) },
  {
    name: '"reasoning" as a number',
    reply: JSON.stringify(verdicts(met, { reasoning: 5, satisfied: true })),
  },
  {
    name: 'a missing criterion id',
    reply: JSON.stringify({ criteria: { c1: met }, overallAssessment: 'x' }),
    problem: '- at "criteria.c2": Missing: every criterion id needs a verdict.',
  },
  {
    name: 'an unknown criterion id',
    reply: JSON.stringify({ criteria: { c1: met, c2: met, c3: met }, overallAssessment: 'x' }),
    problem: '- at "criteria": Unknown criterion id "c3": use exactly the ids c1, c2.',
  },
  {
    name: 'ids renamed to "1" and "2"',
    reply: JSON.stringify({ criteria: { 1: met, 2: met }, overallAssessment: 'x' }),
  },
  {
    name: 'ids in upper case',
    reply: JSON.stringify({ criteria: { C1: met, C2: met }, overallAssessment: 'x' }),
  },
  {
    name: 'criteria as a list of verdicts',
    reply: JSON.stringify({
      criteria: [
        { id: 'c1', ...met },
        { id: 'c2', ...met },
      ],
      overallAssessment: 'x',
    }),
  },
  {
    name: 'criteria as a sentence',
    reply: JSON.stringify({ criteria: 'all satisfied', overallAssessment: 'x' }),
  },
  { name: 'no overall assessment', reply: JSON.stringify({ criteria: { c1: met, c2: met } }) },
  { name: 'an extra top-level "score"', reply: JSON.stringify({ ...PASSING_VERDICT, score: 1 }) },
  { name: 'a top-level list', reply: JSON.stringify([PASSING_VERDICT]) },
  { name: 'a bare true', reply: 'true' },
  { name: 'a bare null', reply: 'null' },
  { name: 'the verdict JSON encoded twice, as a string', reply: JSON.stringify(ALL_MET) },
  {
    name: 'the JSON Schema echoed back',
    reply: JSON.stringify({ type: 'object', properties: { criteria: { type: 'object' } } }),
  },
  { name: 'a huge reply of 1 MB that is not JSON', reply: 'yes '.repeat(262_144) },
  { name: 'a huge reply of 1 MB of brackets that never close', reply: '{"a": ['.repeat(150_000) },
  {
    name: 'a chat completion whose content is null',
    reply: completionWith({ role: 'assistant', content: null }),
    raw: '',
    problem: 'The reply was empty.',
  },
  {
    name: 'a structured-output refusal (content null, refusal set)',
    reply: completionWith({ role: 'assistant', content: null, refusal: 'I cannot grade this.' }),
    raw: 'I cannot grade this.',
  },
  // JSON.parse keeps the last of two equal keys: each of these would read as a pass.
  {
    name: 'a criterion id given twice, unmet then met',
    reply: `{"criteria":{"c1":${MET},"c2":{"reasoning":"No.","satisfied":false},"c2":${MET}},"overallAssessment":"Fine."}`,
    problem:
      'The reply\'s JSON has the key "c2" twice in the same object (at "criteria"), so it is unclear which value you meant. Reply with one JSON object in which every key appears once.',
  },
  {
    name: '"satisfied" given twice, false then true',
    reply: `{"criteria":{"c1":${MET},"c2":{"reasoning":"No.","satisfied":false,"satisfied":true}},"overallAssessment":"Fine."}`,
    problem:
      'The reply\'s JSON has the key "satisfied" twice in the same object (at "criteria.c2"), so it is unclear which value you meant. Reply with one JSON object in which every key appears once.',
  },
  {
    name: 'two "criteria" objects, the last one all met',
    reply: `{"criteria":${JSON.stringify(SPLIT_VERDICT.criteria)},"criteria":${JSON.stringify(PASSING_VERDICT.criteria)},"overallAssessment":"Fine."}`,
    problem:
      'The reply\'s JSON has the key "criteria" twice in the same object, so it is unclear which value you meant. Reply with one JSON object in which every key appears once.',
  },
  {
    name: 'a duplicate key spelt with a unicode escape ("\\u0073atisfied")',
    reply: `{"criteria":{"c1":${MET},"c2":{"reasoning":"No.","satisfied":false,"\\u0073atisfied":true}},"overallAssessment":"Fine."}`,
    problem:
      'The reply\'s JSON has the key "satisfied" twice in the same object (at "criteria.c2"), so it is unclear which value you meant. Reply with one JSON object in which every key appears once.',
  },
  {
    name: 'a duplicate key inside fenced JSON with prose around it',
    reply: `My grading:\n\`\`\`json\n{"criteria":{"c1":${MET},"c2":{"reasoning":"No.","satisfied":false},"c2":${MET}},"overallAssessment":"Fine."}\n\`\`\`\nDone.`,
  },
  {
    name: 'a duplicate key in JSON embedded in a sentence',
    reply: `I find {"criteria":{"c1":${MET},"c2":{"reasoning":"No.","satisfied":false},"c2":${MET}},"overallAssessment":"Fine."} overall.`,
  },
  {
    name: 'a clean verdict repeated with a duplicate key that reads the same once parsed',
    reply: `${ALL_MET}\nAgain: ${ALL_MET.replace('"c2":', '"c2":{"reasoning":"No.","satisfied":false},"c2":')}`,
  },
  {
    name: 'a chat completion with a refusal beside verdict JSON in its content',
    reply: completionWith({ role: 'assistant', content: ALL_MET, refusal: 'I cannot grade this.' }),
    raw: 'I cannot grade this.',
    problem:
      'The reply is a refusal ("I cannot grade this."), and a refusal is never read as a verdict, whatever else the reply holds. Grade the data as asked, and reply with your own verdict as one JSON object.',
  },
  {
    name: 'a chat completion with a refusal part beside a text part holding verdict JSON',
    reply: completionWith({
      role: 'assistant',
      content: [
        { type: 'text', text: ALL_MET },
        { type: 'refusal', refusal: 'I cannot grade this.' },
      ],
    }),
    raw: 'I cannot grade this.',
  },
  {
    name: 'a refusal that is itself verdict JSON',
    reply: completionWith({ role: 'assistant', content: null, refusal: ALL_MET }),
    raw: ALL_MET,
  },
  {
    name: 'a chat completion with no choices',
    reply: fakeReply.raw({
      body: { id: 'c', object: 'chat.completion', created: 1, model: 'm', choices: [] },
    }),
    raw: '',
  },
]

function completionWith(message: Record<string, unknown>): FakeReply {
  return fakeReply.raw({
    body: {
      id: 'chatcmpl-x',
      object: 'chat.completion',
      created: 1,
      model: 'gpt-judge',
      choices: [{ index: 0, finish_reason: 'stop', message }],
    },
  })
}

function oddJudge(reply: unknown): JudgeModel & { calls: number } {
  const judge = {
    id: 'odd',
    calls: 0,
    complete: async () => {
      judge.calls++
      return reply as never
    },
  }
  return judge
}

const REPAIR_HEAD = 'Your previous reply could not be used:\n'
const REPAIR_TAIL = '\n\nReply again with one JSON object and nothing else, fixing these problems.'

describe('2. Unusable judge replies', () => {
  test.for(lenient)('$name is read as it is, without a repair round trip', async ({ text }) => {
    const { server, judge } = await judgeServer(text)
    const result = await judgeRubric(judge)
    expect(result.verdicts).toEqual(SPLIT_VERDICTS)
    expect(result).toMatchObject({ passed: false, score: 0 })
    expect(server.requests).toHaveLength(1)
    expect(result.judgeCalls[0]).toMatchObject({ attemptCount: 1, status: 'success' })
  })

  test.for(bad)(
    '$name is fed back once; a second one is RUBRICATE_JUDGE_OUTPUT, never a verdict',
    async ({ reply, raw, problem }) => {
      const rawText = raw ?? (reply as string)
      // Repaired: the bad reply and what was wrong with it go back; the verdicts are the repair's.
      const repaired = await judgeServer([reply, SPLIT])
      const result = await judgeRubric(repaired.judge)
      expect(result.verdicts).toEqual(SPLIT_VERDICTS)
      expect(result).toMatchObject({ passed: false, score: 0 })
      expect(result.judgeCalls[0]).toMatchObject({ attemptCount: 2, modelCallCount: 2 })
      const turns = repaired.server.requests[1]?.body.messages
      // A runaway reply goes back cut to its first REPAIR_REPLY_LIMIT characters.
      const fedBack =
        rawText.length > REPAIR_REPLY_LIMIT
          ? `${rawText.slice(0, REPAIR_REPLY_LIMIT)}\n[... ${rawText.length - REPAIR_REPLY_LIMIT} more characters cut]`
          : rawText
      expect(turns.at(-2)).toEqual({ role: 'assistant', content: fedBack })
      const instruction: string = turns.at(-1).content
      expect(instruction.startsWith(REPAIR_HEAD)).toBe(true)
      expect(instruction.endsWith(REPAIR_TAIL)).toBe(true)
      if (problem) expect(instruction).toBe(`${REPAIR_HEAD}${problem}${REPAIR_TAIL}`)

      // Bad twice: an error holding the raw reply, with no score and no verdict.
      const twice = await judgeServer(() => reply)
      const { error, root } = await failureOf(judgeRubric(twice.judge))
      expect(root).toMatchObject({ code: 'RUBRICATE_JUDGE_OUTPUT', rawText })
      expect(
        root.message.startsWith(
          '[rubricate] The judge "gpt-judge" replied with output that does not match the expected format, also after one repair attempt that fed the error back. It is reported as an error, neither a pass nor a fail.\nLast problem: ',
        ),
      ).toBe(true)
      // The message quotes at most 1,000 characters of the reply, however large it was.
      expect(root.message).toContain(
        `\nRaw reply: ${JSON.stringify(rawText.length > 1000 ? `${rawText.slice(0, 997)}...` : rawText)}\n`,
      )
      expect(twice.server.requests).toHaveLength(2)
      expect(error.result.judgeCalls).toEqual([
        expect.objectContaining({ status: 'failed', attemptCount: 2 }),
      ])
    },
  )

  const oddReplies = [
    { name: 'a reply object without text', reply: { text: undefined } },
    { name: 'null instead of a reply', reply: null },
    { name: 'a number as the text', reply: { text: 42 } },
  ]

  test.for(oddReplies)(
    'a custom judge returning $name is an empty reply, then RUBRICATE_JUDGE_OUTPUT',
    async ({ reply }) => {
      const odd = oddJudge(reply)
      const { root } = await failureOf(
        createRubricScorer({ judge: odd, criteria: RUBRIC }).run({ output: 'Hi' }),
      )
      expect(root).toMatchObject({ code: 'RUBRICATE_JUDGE_OUTPUT', rawText: '' })
      expect(root.message).toContain('\nLast problem: The reply was empty.\n')
      expect(odd.calls).toBe(2)
    },
  )

  test('a custom judge reply that sets a refusal is RUBRICATE_JUDGE_OUTPUT, even with verdict JSON as its text', async () => {
    const odd = oddJudge({ text: ALL_MET, refusal: 'I will not grade this.' })
    const { root } = await failureOf(
      createRubricScorer({ judge: odd, criteria: RUBRIC }).run({ output: 'Hi' }),
    )
    expect(root).toMatchObject({ code: 'RUBRICATE_JUDGE_OUTPUT', rawText: ALL_MET })
    expect(root.message).toContain(
      '\nLast problem: The reply is a refusal ("I will not grade this.")',
    )
    expect(odd.calls).toBe(2)
  })

  describe('with cassettes', () => {
    useCassetteFolder()

    test.for(oddReplies)(
      'a custom judge returning $name is recorded as an empty reply and replays as the same error, not as a corrupt file',
      async ({ reply }) => {
        const odd = oddJudge(reply)
        const run = () => createRubricScorer({ judge: odd, criteria: RUBRIC }).run({ output: 'Hi' })
        // useCassetteFolder() sets RUBRICATE_CASSETTES back to "off" after each test.
        process.env.RUBRICATE_CASSETTES = 'auto'
        expect((await failureOf(run())).root).toMatchObject({ code: 'RUBRICATE_JUDGE_OUTPUT' })
        process.env.RUBRICATE_CASSETTES = 'replay'
        expect((await failureOf(run())).root).toMatchObject({
          code: 'RUBRICATE_JUDGE_OUTPUT',
          rawText: '',
        })
        expect(odd.calls).toBe(2)
      },
    )
  })

  test('a judge that keeps answering in prose fails toSatisfyRubric and .not.toSatisfyRubric alike', async () => {
    const { judge } = await judgeServer(() => 'Both criteria are clearly satisfied.')
    for (const assertion of [
      () => expect('Hi').toSatisfyRubric(RUBRIC, { judge }),
      () => expect('Hi').not.toSatisfyRubric(RUBRIC, { judge }),
    ]) {
      const error = await assertion().then(
        () => undefined,
        (thrown: Error & { code?: string }) => thrown,
      )
      expect(error?.code).toBe('RUBRICATE_JUDGE_OUTPUT')
      expect(stripVTControlCharacters(error?.message ?? '')).toContain(
        'This assertion could not be decided, so it fails with or without .not (RUBRICATE_JUDGE_OUTPUT):\n[rubricate] The judge "gpt-judge" replied with output that does not match the expected format',
      )
    }
  })
})
