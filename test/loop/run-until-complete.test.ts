import { afterEach, expect, test } from 'vitest'
import { onRecord, type RubricateRecord, runUntilComplete } from '../../src'
import type { LoopScorer } from '../../src/loop'
import { linked } from '../support/error-page'

const unsubscribes: (() => void)[] = []
afterEach(() => {
  for (const unsubscribe of unsubscribes.splice(0)) unsubscribe()
})

function collectRecords(): RubricateRecord[] {
  const records: RubricateRecord[] = []
  unsubscribes.push(onRecord((record) => records.push(record)))
  return records
}

// A hand-written stand-in for a rubric scorer: one required criterion, checked by substring.
function mentionsScorer(word: string): LoopScorer & { runs: unknown[] } {
  const runs: unknown[] = []
  return {
    id: `mentions-${word}`,
    runs,
    async run(run) {
      runs.push(run)
      const passed = String(run.output).includes(word)
      return {
        score: passed ? 1 : 0,
        passed,
        reason: passed
          ? '✅ Rubric satisfied: every required criterion is met.'
          : `❌ Rubric not satisfied: 1 of 1 required criteria unmet.\n\n❌ [required] Mentions "${word}"\n   → The reply never says "${word}".`,
      }
    },
  }
}

const fixer =
  (word: string) =>
  async ({ feedback }: { feedback: string | undefined }) =>
    feedback?.includes(word) ? `Here is the ${word} you asked for.` : 'A first draft.'

test('an agent that fixes its output after the feedback completes on iteration 2', async () => {
  const feedbacks: (string | undefined)[] = []
  const result = await runUntilComplete(
    async (turn) => {
      feedbacks.push(turn.feedback)
      return fixer('refund policy')(turn)
    },
    { scorers: [mentionsScorer('refund policy')], maxSteps: 5, input: 'Explain refunds' },
  )
  expect(result.complete).toBe(true)
  expect(result.output).toBe('Here is the refund policy you asked for.')
  expect(result.iterations).toHaveLength(2)
  expect(result.feedback).toBeUndefined()
  expect(feedbacks).toEqual([
    undefined,
    '❌ Rubric not satisfied: 1 of 1 required criteria unmet.\n\n❌ [required] Mentions "refund policy"\n   → The reply never says "refund policy".',
  ])
})

test('the agent gets its input, the iteration number and the history of earlier iterations', async () => {
  const turns: unknown[] = []
  await runUntilComplete(
    (turn) => {
      turns.push({ ...turn, history: turn.history.map((h) => h.output) })
      return `draft ${turn.iteration}`
    },
    { scorers: [mentionsScorer('never')], maxSteps: 3, input: { question: 'q' } },
  )
  expect(turns).toMatchObject([
    { input: { question: 'q' }, iteration: 1, history: [] },
    { input: { question: 'q' }, iteration: 2, history: ['draft 1'] },
    { input: { question: 'q' }, iteration: 3, history: ['draft 1', 'draft 2'] },
  ])
})

test('with maxSteps 1 an agent that needs feedback ends incomplete, with the feedback it would get', async () => {
  const result = await runUntilComplete(fixer('refund policy'), {
    scorers: [mentionsScorer('refund policy')],
    maxSteps: 1,
  })
  expect(result.complete).toBe(false)
  expect(result.iterations).toHaveLength(1)
  expect(result.output).toBe('A first draft.')
  expect(result.feedback).toContain('❌ [required] Mentions "refund policy"')
})

test("'all' with no scorers is complete after the first call", async () => {
  let calls = 0
  const result = await runUntilComplete(() => ++calls, { scorers: [], strategy: 'all' })
  expect(result).toMatchObject({ complete: true, output: 1, feedback: undefined })
  expect(calls).toBe(1)
})

test("'any' with no scorers is never complete and runs every step", async () => {
  let calls = 0
  const result = await runUntilComplete(() => ++calls, {
    scorers: [],
    strategy: 'any',
    maxSteps: 3,
  })
  expect(result.complete).toBe(false)
  expect(calls).toBe(3)
  expect(result.feedback).toBe('No scorer is configured, so the "any" strategy can never be met.')
})

test("'any' completes when one scorer passes; 'all' needs every one", async () => {
  const scorers = [mentionsScorer('apples'), mentionsScorer('pears')]
  const any = await runUntilComplete(() => 'apples only', { scorers, strategy: 'any', maxSteps: 2 })
  expect(any.complete).toBe(true)
  expect(any.iterations).toHaveLength(1)
  const all = await runUntilComplete(() => 'apples only', { scorers, strategy: 'all', maxSteps: 2 })
  expect(all.complete).toBe(false)
  expect(all.iterations).toHaveLength(2)
  expect(all.feedback).toBe(
    '❌ Rubric not satisfied: 1 of 1 required criteria unmet.\n\n❌ [required] Mentions "pears"\n   → The reply never says "pears".',
  )
})

test('the feedback of several failing scorers names each one', async () => {
  const result = await runUntilComplete(() => 'nothing', {
    scorers: [mentionsScorer('apples'), mentionsScorer('pears')],
    maxSteps: 1,
  })
  expect(result.feedback).toBe(
    [
      'Scorer "mentions-apples":',
      '❌ Rubric not satisfied: 1 of 1 required criteria unmet.',
      '',
      '❌ [required] Mentions "apples"',
      '   → The reply never says "apples".',
      '',
      'Scorer "mentions-pears":',
      '❌ Rubric not satisfied: 1 of 1 required criteria unmet.',
      '',
      '❌ [required] Mentions "pears"',
      '   → The reply never says "pears".',
    ].join('\n'),
  )
})

test('a rubric scorer passes on passed, whatever its scaled score; other scorers pass on score >= 1', async () => {
  const scaled: LoopScorer = { id: 'scaled', run: () => ({ score: 10, passed: true }) }
  const unmet: LoopScorer = { id: 'unmet', run: () => ({ score: 1, passed: false, reason: 'no' }) }
  const half: LoopScorer = { id: 'half', run: () => ({ score: 0.5 }) }
  const full: LoopScorer = { id: 'full', run: () => ({ score: 1 }) }
  const result = await runUntilComplete(() => 'x', {
    scorers: [scaled, unmet, half, full],
    maxSteps: 1,
  })
  expect(result.iterations[0]?.check.scorers.map((s) => [s.id, s.passed])).toEqual([
    ['scaled', true],
    ['unmet', false],
    ['half', false],
    ['full', true],
  ])
  expect(result.feedback).toBe(
    'Scorer "unmet":\nno\n\nScorer "half":\nScorer "half" scored 0.5; the task is complete at 1.',
  )
})

test('a throwing scorer is errored, never a pass, and its error becomes the feedback', async () => {
  const throwing: LoopScorer = {
    id: 'broken',
    run: () => {
      throw new Error('judge exploded')
    },
  }
  const records = collectRecords()
  const result = await runUntilComplete(() => 'out', {
    scorers: [throwing],
    strategy: 'any',
    maxSteps: 2,
  })
  expect(result.complete).toBe(false)
  const check = result.iterations[0]?.check
  expect(check?.scorers[0]).toMatchObject({
    id: 'broken',
    passed: false,
    errored: true,
    timedOut: false,
    reason: 'Scorer "broken" threw an error, so the output could not be checked: judge exploded',
  })
  expect(check?.scorers[0]?.error).toEqual(new Error('judge exploded'))
  expect(result.feedback).toBe(
    'Scorer "broken" threw an error, so the output could not be checked: judge exploded',
  )
  expect(records.at(-1)?.status).toBe('error')
})

test('a check that times out is never complete, even when another scorer passed', async () => {
  const hanging: LoopScorer = { id: 'slow', run: () => new Promise(() => {}) }
  const result = await runUntilComplete(() => 'pears', {
    scorers: [mentionsScorer('pears'), hanging],
    strategy: 'any',
    maxSteps: 1,
    checkTimeout: 50,
  })
  const check = result.iterations[0]?.check
  expect(check?.timedOut).toBe(true)
  expect(check?.complete).toBe(false)
  expect(check?.scorers.map((s) => [s.id, s.passed, s.errored, s.timedOut])).toEqual([
    ['mentions-pears', true, false, false],
    ['slow', false, true, true],
  ])
  expect(result.feedback).toBe(
    'Scorer "slow" did not finish within the check timeout of 50 ms, so the output could not be checked.',
  )
})

test('the check timeout aborts the signal that the scorers see', async () => {
  let seen: AbortSignal | undefined
  const { currentCallContext } = await import('../../src/runtime/call-context')
  const hanging: LoopScorer = {
    id: 'slow',
    run: () => {
      seen = currentCallContext().signal
      return new Promise(() => {})
    },
  }
  await runUntilComplete(() => 'x', { scorers: [hanging], maxSteps: 1, checkTimeout: 20 })
  expect(seen?.aborted).toBe(true)
})

test('sequential checks stop at the first scorer that decides', async () => {
  const first = mentionsScorer('apples')
  const second = mentionsScorer('pears')
  const all = await runUntilComplete(() => 'pears', {
    scorers: [first, second],
    parallel: false,
    maxSteps: 1,
  })
  expect(all.iterations[0]?.check.scorers.map((s) => s.id)).toEqual(['mentions-apples'])
  expect(second.runs).toHaveLength(0)
  const any = await runUntilComplete(() => 'apples', {
    scorers: [first, second],
    parallel: false,
    strategy: 'any',
    maxSteps: 1,
  })
  expect(any.complete).toBe(true)
  expect(any.iterations[0]?.check.scorers.map((s) => s.id)).toEqual(['mentions-apples'])
})

test('parallel checks run every scorer at once', async () => {
  let running = 0
  let most = 0
  const slow = (id: string): LoopScorer => ({
    id,
    run: async () => {
      running++
      most = Math.max(most, running)
      await new Promise((resolve) => setTimeout(resolve, 20))
      running--
      return { score: 1 }
    },
  })
  const result = await runUntilComplete(() => 'x', { scorers: [slow('a'), slow('b'), slow('c')] })
  expect(result.complete).toBe(true)
  expect(most).toBe(3)
})

test('scorers receive the output, the input and the request context', async () => {
  const scorer = mentionsScorer('x')
  const requestContext = new Map([['rubric', '- Says x']])
  await runUntilComplete(() => 'x marks the spot', {
    scorers: [scorer],
    input: 'Where is it?',
    requestContext,
  })
  expect(scorer.runs).toEqual([
    { input: 'Where is it?', output: 'x marks the spot', requestContext },
  ])
})

test('onCheck is called after every check with the check and the output', async () => {
  const seen: [number, boolean, string][] = []
  await runUntilComplete(fixer('refund policy'), {
    scorers: [mentionsScorer('refund policy')],
    onCheck: (check, output) => {
      seen.push([check.iteration, check.complete, output])
    },
  })
  expect(seen).toEqual([
    [1, false, 'A first draft.'],
    [2, true, 'Here is the refund policy you asked for.'],
  ])
})

test('an abort signal stops the loop during the agent call with the signal reason', async () => {
  const controller = new AbortController()
  const loop = runUntilComplete(() => new Promise<string>(() => {}), {
    scorers: [],
    signal: controller.signal,
  })
  controller.abort(new Error('test timed out'))
  await expect(loop).rejects.toThrow('test timed out')
})

test('an abort signal stops the loop during a check, and reaches the scorers', async () => {
  const controller = new AbortController()
  let scorerSignal: AbortSignal | undefined
  const { currentCallContext } = await import('../../src/runtime/call-context')
  const hanging: LoopScorer = {
    id: 'slow',
    run: () => {
      scorerSignal = currentCallContext().signal
      setTimeout(() => controller.abort(new Error('stop now')), 5)
      return new Promise(() => {})
    },
  }
  await expect(
    runUntilComplete(() => 'x', { scorers: [hanging], signal: controller.signal }),
  ).rejects.toThrow('stop now')
  expect(scorerSignal?.aborted).toBe(true)
})

test('an agent error rejects the loop', async () => {
  await expect(
    runUntilComplete(
      () => {
        throw new Error('agent crashed')
      },
      { scorers: [] },
    ),
  ).rejects.toThrow('agent crashed')
})

test('every check emits a loop record holding all iterations so far, under one loop id', async () => {
  const records = collectRecords()
  await runUntilComplete(fixer('refund policy'), {
    scorers: [mentionsScorer('refund policy')],
  })
  expect(records).toHaveLength(2)
  expect(records[0]?.loopId).toBe(records[1]?.loopId)
  expect(records[0]).toMatchObject({ v: 1, kind: 'loop', status: 'fail', negated: false })
  expect(records[0]?.iterations).toHaveLength(1)
  const last = records[1]
  expect(last).toMatchObject({
    kind: 'loop',
    status: 'pass',
    reason: undefined,
    judgeCalls: [],
    outputPreview: 'Here is the refund policy you asked for.',
  })
  expect(last?.iterations).toEqual([
    {
      iteration: 1,
      complete: false,
      outputPreview: 'A first draft.',
      scorers: [
        {
          id: 'mentions-refund policy',
          score: 0,
          passed: false,
          errored: false,
          reason: expect.stringContaining('Mentions "refund policy"'),
        },
      ],
    },
    {
      iteration: 2,
      complete: true,
      outputPreview: 'Here is the refund policy you asked for.',
      scorers: [
        {
          id: 'mentions-refund policy',
          score: 1,
          passed: true,
          errored: false,
          reason: '✅ Rubric satisfied: every required criterion is met.',
        },
      ],
    },
  ])
  expect(JSON.parse(JSON.stringify(last))).toEqual(
    Object.fromEntries(Object.entries(last ?? {}).filter(([, v]) => v !== undefined)),
  )
})

test('a loop record carries the judge calls and verdicts that scorers report', async () => {
  const records = collectRecords()
  const judgeCall = {
    step: 'analyze' as const,
    model: 'gpt-test',
    status: 'success' as const,
    source: 'replayed' as const,
    durationMs: 1,
    attemptCount: 1,
    modelCallCount: 0,
  }
  const verdict = {
    id: 'c1',
    criterion: 'Says x',
    required: true,
    satisfied: true,
    reasoning: 'ok',
  }
  const scorer: LoopScorer = {
    id: 'rubric',
    run: () => ({ score: 1, passed: true, judgeCalls: [judgeCall], verdicts: [verdict] }),
  }
  await runUntilComplete(() => 'x', { scorers: [scorer] })
  expect(records[0]).toMatchObject({ judgeCalls: [judgeCall], verdicts: [verdict] })
})

test('bad arguments are usage errors that say what to pass', async () => {
  await expect(runUntilComplete('agent' as never, { scorers: [] })).rejects.toThrowError(
    expect.objectContaining({
      code: 'RUBRICATE_USAGE',
      message: linked(
        '[rubricate] runUntilComplete() expects the agent as a function ({ input, iteration, feedback, history }) => output as its first argument, but got "agent".',
        'usage',
      ),
    }),
  )
  await expect(runUntilComplete(() => 'x', {} as never)).rejects.toThrowError(
    '[rubricate] runUntilComplete() expects `scorers` to be a list of scorers (objects with a run() method), but got undefined. Pass `scorers: []` to run without any.',
  )
  await expect(runUntilComplete(() => 'x', { scorers: [{}] as never })).rejects.toThrowError(
    '[rubricate] runUntilComplete() scorers[0] is {}, which has no run() method. Pass a scorer from createScorer() or createRubricScorer(), or any object with run().',
  )
  await expect(runUntilComplete(() => 'x', { scorers: [], maxSteps: 0 })).rejects.toThrowError(
    '[rubricate] runUntilComplete() maxSteps must be a positive integer, but is 0.',
  )
  await expect(
    runUntilComplete(() => 'x', { scorers: [], strategy: 'most' as never }),
  ).rejects.toThrowError(
    '[rubricate] runUntilComplete() strategy is "most", which is not supported. Use one of "all", "any".',
  )
})

test("suppressFeedback (Mastra's name) calls the agent again without the reasons, which the result still holds", async () => {
  const seen: (string | undefined)[] = []
  const scorer = {
    id: 'never',
    run: () => ({ score: 0, reason: 'Not yet.' }),
  }
  const result = await runUntilComplete(
    ({ feedback }) => {
      seen.push(feedback)
      return 'x'
    },
    { scorers: [scorer], maxSteps: 2, suppressFeedback: true },
  )
  expect(seen).toEqual([undefined, undefined])
  expect(result.complete).toBe(false)
  expect(result.feedback).toContain('Not yet.')
})

test('the loop as one conversation: the task, each output, then its feedback, for an agent that continues it', async () => {
  const seen: unknown[] = []
  const result = await runUntilComplete(
    ({ messages }) => {
      seen.push(messages)
      // Continues the conversation: fixed once the feedback is in it.
      const told = messages.some((m) => m.role === 'user' && m.content.includes('refund policy'))
      return told && messages.length > 1 ? 'Here is the refund policy.' : 'A first draft.'
    },
    { scorers: [mentionsScorer('refund policy')], input: 'Explain refunds' },
  )
  expect(result.complete).toBe(true)
  expect(seen).toEqual([
    [{ role: 'user', content: 'Explain refunds' }],
    [
      { role: 'user', content: 'Explain refunds' },
      { role: 'assistant', content: 'A first draft.' },
      { role: 'user', content: result.iterations[0]?.check.feedback },
    ],
  ])
  // Under suppressFeedback the agent sees its outputs, not why they failed.
  const quiet: unknown[] = []
  await runUntilComplete(
    ({ messages }) => {
      quiet.push(messages.map((m) => m.role))
      return 'A first draft.'
    },
    { scorers: [mentionsScorer('never')], maxSteps: 2, suppressFeedback: true, input: 'Task' },
  )
  expect(quiet).toEqual([['user'], ['user', 'assistant']])
})

test("with completionContext, scorers get Mastra's isTaskComplete context as input and the output as text", async () => {
  const runs: any[] = []
  const scorer: LoopScorer = {
    id: 'reads-context',
    run(run) {
      runs.push(run)
      // A scorer written for Mastra's isTaskComplete reads these.
      const { originalTask, iteration } = run.input
      return { score: iteration === 2 && originalTask === 'Explain refunds' ? 1 : 0 }
    },
  }
  const result = await runUntilComplete(({ iteration }) => ({ text: `draft ${iteration}` }), {
    scorers: [scorer],
    input: 'Explain refunds',
    requestContext: { tenant: 'acme' },
    completionContext: true,
  })
  expect(result.complete).toBe(true)
  expect(runs[1]).toEqual({
    input: {
      iteration: 2,
      maxIterations: 5,
      messages: [
        { role: 'user', content: 'Explain refunds' },
        { role: 'assistant', content: 'draft 1' },
        { role: 'user', content: result.iterations[0]?.check.feedback },
        { role: 'assistant', content: 'draft 2' },
      ],
      originalTask: 'Explain refunds',
      primitiveResult: 'draft 2',
      customContext: { tenant: 'acme' },
    },
    output: 'draft 2',
    requestContext: { tenant: 'acme' },
  })
  // The task's text is "Unknown task" when there is none, as in Mastra.
  const untitled: any[] = []
  await runUntilComplete(() => 'x', {
    scorers: [
      {
        run: (run) => {
          untitled.push(run.input)
          return { score: 1 }
        },
      },
    ],
    completionContext: true,
  })
  expect(untitled[0].originalTask).toBe('Unknown task')
})

test("a message-list input's task is the user's first message, in the turn's messages and in originalTask", async () => {
  // A chat history as the loop's input (chat messages, an Agents SDK history): its task is what
  // the user asked, not the last reply nor the list as JSON (taskText, as the rubric judge reads it).
  const input = [
    { role: 'system', content: 'You are a support agent.' },
    { role: 'user', content: 'Where is my refund?' },
    { role: 'assistant', content: 'Let me check.' },
  ]
  const turns: any[] = []
  const contexts: any[] = []
  await runUntilComplete(
    (turn) => {
      turns.push(turn)
      return 'It was sent on Monday.'
    },
    {
      scorers: [
        {
          run: (run) => {
            contexts.push(run.input)
            return { score: 1 }
          },
        },
      ],
      input,
      completionContext: true,
    },
  )
  expect(turns[0].messages).toEqual([{ role: 'user', content: 'Where is my refund?' }])
  expect(contexts[0].originalTask).toBe('Where is my refund?')
})
