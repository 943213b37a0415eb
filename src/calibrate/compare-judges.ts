import { messages } from '../messages'
import { type AgreementMetrics, agreementMetrics } from './agreement-metrics'
import type { CalibrationJudgement } from './calibrate-judge'

/**
 * How a second judge agrees with a first on the same labelled judgements, the first taken as the
 * reference: in the metrics, `falsePass` counts the judgements the second passes and the first
 * fails, `falseFail` the reverse.
 * @internal
 */
export function compareJudges(
  trusted: readonly CalibrationJudgement[],
  other: readonly CalibrationJudgement[],
): AgreementMetrics {
  const pairs = trusted.map((first, index) => {
    const second = other[index]
    if (!second || second.where !== first.where || second.criterion !== first.criterion) {
      throw new Error(messages.bug('Two calibrations of one labelled set judged different items'))
    }
    return { label: first.verdict, verdict: second.verdict }
  })
  if (other.length !== trusted.length) {
    throw new Error(messages.bug('Two calibrations of one labelled set have different lengths'))
  }
  return agreementMetrics(pairs)
}
