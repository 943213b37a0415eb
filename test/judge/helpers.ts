import { createScorer, type Scorer } from '../../src'
import type { JudgeInput } from '../../src/records/records'
import type { ScorerJudgeOptions } from '../../src/scorer/types'
import type { FakeRequest } from '../../src/testing'

/** A scorer whose only step asks the judge for `{ score }`: the smallest way to reach the judge. */
export function scoreWith(model: JudgeInput | undefined, judge: ScorerJudgeOptions = {}): Scorer {
  return createScorer({
    id: 'judge-test',
    description: 'Reaches the judge',
    judge: { model, instructions: 'You grade answers.', ...judge },
  }).generateScore({
    description: 'Ask for a score',
    createPrompt: ({ run }) => `Score this answer: ${String(run.output)}`,
  })
}

/** The chat messages a fake server received in one request. */
export function messagesOf(request: FakeRequest | undefined): { role: string; content: string }[] {
  return request?.body?.messages ?? []
}

/** What a failing promise rejected with. */
export async function rejectionOf(promise: Promise<unknown>): Promise<any> {
  try {
    await promise
  } catch (error) {
    return error
  }
  throw new Error('expected the promise to reject, but it resolved')
}
