// A rubric over an agent's whole trajectory: the judge reads the tool calls, their results and the
// final answer as a transcript (the judged output), against criteria about the path taken.

import { rejectUnknownKeys } from '../config/known-keys'
import { UsageError } from '../errors'
import { messages } from '../messages'
import { markedTranscript } from '../output/transcript-lines'
import type { JudgeInput } from '../records/records'
import type { RubricInput } from '../rubric/criteria'
import {
  createRubricScorer,
  type RubricScorer,
  type RubricScorerOptions,
  type RubricScorerResult,
} from '../rubric/rubric-scorer'
import type { ScorerRun } from '../scorer/types'
import { trajectoryText } from './trajectory-text'

/** Options of {@link createTrajectoryRubric}. */
export interface TrajectoryRubricConfig {
  /** The criteria the trajectory must meet ("Looks the order up before refunding it"). */
  criteria: RubricInput
  /** Default: the judge configured for the run. */
  judge?: JudgeInput | undefined
  /** As `createRubricScorer`'s (`scoring: 'fraction'` for partial credit, `samples`...). */
  options?: RubricScorerOptions | undefined
  /** The scorer's id in reports. Default `'trajectory'`. */
  id?: string | undefined
}

/**
 * A rubric scorer whose judge sees the agent's trajectory: every tool call with its arguments and
 * result, in order, then the final answer ({@link trajectoryText}), instead of the answer alone.
 * For `describeEval` and `toPassScorer`; any result shape `toolCalls()` reads.
 *
 * @example
 * const path = createTrajectoryRubric({ criteria: `
 *   - Looks the order up before issuing a refund
 *   - Never refunds an order that has not shipped
 * ` })
 * await expect(result).toPassScorer(path, { input: question })
 */
export function createTrajectoryRubric(config: TrajectoryRubricConfig): RubricScorer {
  if (typeof config !== 'object' || config === null || Array.isArray(config)) {
    throw new UsageError(messages.configNotObject('createTrajectoryRubric()', config))
  }
  rejectUnknownKeys('createTrajectoryRubric()', config, ['criteria', 'judge', 'options', 'id'])
  if (config.criteria === undefined) {
    throw new UsageError(messages.trajectoryRubricNoCriteria())
  }
  const inner = createRubricScorer({
    criteria: config.criteria,
    ...(config.judge !== undefined ? { judge: config.judge } : {}),
    ...(config.options !== undefined ? { options: config.options } : {}),
  })
  const id = config.id ?? 'trajectory'
  return {
    id,
    name: id,
    description: 'Judges the tool calls, their results and the final answer against a rubric',
    type: undefined,
    config: inner.config,
    run(run: ScorerRun): Promise<RubricScorerResult> {
      // Marked, so the judge is told that the output is a trajectory and how to read it.
      const output = markedTranscript('trajectory', trajectoryText(run.output))
      return inner.run({ ...run, output } as ScorerRun)
    },
  }
}
