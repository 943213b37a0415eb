// Shared by the reliability groups: a rubric judged by the fake OpenAI server through the real
// `openai` SDK, and the checks that a judge failure never turns into a verdict.
import { expect, onTestFinished } from 'vitest'
import { createRubricScorer, type Verdict } from '../../src'
import { rootCause } from '../../src/errors'
import type { OpenAICompatibleJudge } from '../../src/records/records'
import type { RubricScorerResult } from '../../src/rubric/rubric-scorer'
import { type FakeOpenAI, type FakeOpenAIOptions, startFakeOpenAI } from '../../src/testing'

/** The rubric most cases judge: two required criteria. */
export const RUBRIC = '- Greets the user\n- Answers the question'

/** What the scripted judge says about {@link RUBRIC}: c1 met, c2 unmet, so the rubric fails. */
export const SPLIT_VERDICT = {
  criteria: {
    c1: { reasoning: 'It says hello.', satisfied: true },
    c2: { reasoning: 'It answers nothing.', satisfied: false },
  },
  overallAssessment: 'A greeting without an answer.',
}

/** Both criteria met: the rubric passes. */
export const PASSING_VERDICT = {
  criteria: {
    c1: { reasoning: 'It says hello.', satisfied: true },
    c2: { reasoning: 'It gives the time.', satisfied: true },
  },
  overallAssessment: 'Greets and answers.',
}

/** The verdicts a scorer result must hold after the judge said {@link SPLIT_VERDICT}. */
export const SPLIT_VERDICTS: Verdict[] = [
  {
    id: 'c1',
    criterion: 'Greets the user',
    required: true,
    satisfied: true,
    reasoning: 'It says hello.',
  },
  {
    id: 'c2',
    criterion: 'Answers the question',
    required: true,
    satisfied: false,
    reasoning: 'It answers nothing.',
  },
]

/** A fake judge server, closed when the test ends, and a judge object pointing at it. */
export async function judgeServer(
  reply: FakeOpenAIOptions['reply'],
  judge: Partial<OpenAICompatibleJudge> = {},
): Promise<{ server: FakeOpenAI; judge: OpenAICompatibleJudge }> {
  const server = await startFakeOpenAI({ reply })
  onTestFinished(() => server.close())
  return { server, judge: { model: 'gpt-judge', baseURL: server.baseURL, apiKey: 'k', ...judge } }
}

/** Judge `output` (default: a greeting that answers) against {@link RUBRIC} with `judge`. */
export function judgeRubric(
  judge: OpenAICompatibleJudge,
  ...output: [] | [unknown]
): Promise<RubricScorerResult> {
  return createRubricScorer({ judge, criteria: RUBRIC }).run({
    input: 'What time is it?',
    // An explicit `undefined` is an output under test too, not a missing argument.
    output: output.length === 0 ? 'Hello! It is noon.' : output[0],
  })
}

/**
 * The error a judged run failed with, after checking it produced no verdict: it rejected (never
 * resolved to a pass or a fail), and the partial result it carries has no score.
 */
export async function failureOf(run: Promise<unknown>): Promise<{ error: any; root: any }> {
  let resolved: unknown
  try {
    resolved = await run
  } catch (error) {
    expect((error as { result?: { score?: unknown } }).result?.score).toBeUndefined()
    return { error, root: rootCause(error) }
  }
  throw new Error(
    `Expected the run to fail without a verdict, but it resolved: ${JSON.stringify(resolved)}`,
  )
}
