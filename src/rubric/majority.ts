import type { Verdict } from '../records/records'

/**
 * Combine the verdicts of several samples of the same criteria: a criterion is satisfied when
 * more than half of the samples say so (a tie counts as unsatisfied), its reasoning is the first
 * that agrees with the majority, and `agreement` counts the samples that judged it satisfied.
 * @internal
 */
export function majorityVerdicts(samples: readonly (readonly Verdict[])[]): Verdict[] {
  const [first] = samples
  if (!first || samples.length === 1) return first ? [...first] : []
  return first.map((verdict, index) => {
    const votes = samples.map((sample) => sample[index] as Verdict)
    const yes = votes.filter((vote) => vote.satisfied).length
    const satisfied = yes * 2 > votes.length
    const agreeing = votes.find((vote) => vote.satisfied === satisfied) ?? verdict
    return {
      ...verdict,
      satisfied,
      reasoning: agreeing.reasoning,
      agreement: { satisfied: yes, total: votes.length },
    }
  })
}
