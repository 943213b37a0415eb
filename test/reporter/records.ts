// Record builders for the reporter's unit tests.
import type { JudgeCall, RubricateRecord, Verdict } from '../../src/records/records'

export function verdict(
  criterion: string,
  satisfied: boolean,
  options: { reasoning?: string; required?: boolean } = {},
): Verdict {
  return {
    id: 'c1',
    criterion,
    required: options.required ?? true,
    satisfied,
    reasoning: options.reasoning ?? (satisfied ? 'It does.' : 'It does not.'),
  }
}

export function call(
  source: JudgeCall['source'],
  usage: { input: number; output: number } | null = { input: 900, output: 100 },
  model = 'gpt-4.1-mini',
): JudgeCall {
  return {
    step: 'analyze',
    model,
    status: 'success',
    source,
    ...(usage
      ? {
          usage: {
            inputTokens: usage.input,
            outputTokens: usage.output,
            totalTokens: usage.input + usage.output,
          },
        }
      : {}),
    durationMs: 1,
    attemptCount: 1,
    modelCallCount: 1,
  }
}

export function record(extra: Partial<RubricateRecord> = {}): RubricateRecord {
  return {
    v: 1,
    kind: 'rubric',
    status: 'pass',
    negated: false,
    verdicts: [],
    judgeCalls: [],
    durationMs: 1,
    outputPreview: '',
    ...extra,
  }
}
