// Group 22: scale. The reporter's lines for a module of 100,000 eval rows (a dataset that size
// ended with "Maximum call stack size exceeded" in renderTestBlock, failing the run), and a
// simulated user that never says it is done: its calls stop at the per-row cap, and at the row's
// timeout, whatever `maxTurns` says.
import { describe, expect, test } from 'vitest'
import { holdConversation, SIMULATED_USER_LIMITS } from '../../evals/run-conversation'
import { plain } from '../../reporters/figures'
import { renderTestBlock, type TestWithRecords } from '../../reporters/render-test-block'
import type { EvalRowRecord } from '../../src/records/eval-records'
import { judgeServer } from './support'

const ROWS = 100_000

const tolerated: EvalRowRecord = {
  v: 1,
  suite: 'big',
  passed: false,
  errored: false,
  tolerated: true,
  trials: [{ passed: false, scores: { exact: 0 } }],
  trialPassRate: 1,
  passRate: 0.5,
}

describe('22. Scale', () => {
  test('the reporter renders a suite of 100,000 rows without running out of stack', () => {
    const children: TestWithRecords[] = Array.from({ length: ROWS }, (_, index) => ({
      type: 'test',
      name: `row ${index + 1}`,
      state: 'passed',
      records: [],
      row: tolerated,
    }))
    const lines = renderTestBlock(
      [{ type: 'suite', name: 'big', state: 'passed', children }],
      plain,
    )
    // The suite, then each row and its "tolerated" line.
    expect(lines).toHaveLength(1 + 2 * ROWS)
    expect(lines.at(-2)).toBe(`     ✓ row ${ROWS}`)
  })

  test('a simulated user that never stops ends at the per-row cap on calls, far below maxTurns', async () => {
    const { server, judge } = await judgeServer({ message: 'And another thing…', done: false })
    const held = await holdConversation(
      { goal: 'Never be satisfied.' },
      (_row, conversation) => `Reply ${(conversation as { turn: number }).turn}`,
      { instructions: 'A customer who is never satisfied.', model: judge, maxTurns: 10_000 },
      async () => undefined,
    )
    expect(server.requests).toHaveLength(SIMULATED_USER_LIMITS.calls)
    expect(held.record.simulatedUserCalls).toBe(SIMULATED_USER_LIMITS.calls)
    expect(held.record.ended).toBe('limit')
  })

  test('a simulated user sent long replies ends at the per-row cap on bytes', async () => {
    const { server, judge } = await judgeServer({ message: 'More, please.', done: false })
    const long = 'x'.repeat(100_000)
    const held = await holdConversation(
      { goal: 'Read everything.' },
      () => long,
      { instructions: 'A reader.', model: judge, maxTurns: 10_000 },
      async () => undefined,
    )
    const sent = server.requests.reduce(
      (sum, request) => sum + JSON.stringify(request.body).length,
      0,
    )
    expect(held.record.ended).toBe('limit')
    expect(server.requests.length).toBeLessThan(10)
    // The conversation resent is under the cap; the JSON around it and the persona add little.
    expect(sent).toBeLessThan(SIMULATED_USER_LIMITS.bytes * 1.2)
  })

  test('a conversation makes no call after its row’s timeout', async () => {
    const { server, judge } = await judgeServer({ message: 'Again.', done: false })
    const timeout = new AbortController()
    const held = holdConversation(
      { goal: 'Never be satisfied.' },
      (_row, conversation) => {
        if ((conversation as { turn: number }).turn === 3) timeout.abort(new Error('row timed out'))
        return 'Reply'
      },
      { instructions: 'A customer.', model: judge, maxTurns: 10_000 },
      async () => undefined,
      timeout.signal,
    )
    await expect(held).rejects.toThrow('row timed out')
    // Three turns ran before the timeout; the fourth never asks the simulated user.
    expect(server.requests).toHaveLength(3)
  })
})
