import type {
  EvalMeanGate,
  EvalRowRecord,
  EvalScorerMean,
  EvalSuiteRecord,
} from '../src/records/eval-records'
import { type ScoreRange, scoreShare } from '../src/scorer/score-range'

/**
 * The share of a suite's trials a mean gate needs scored unless told otherwise: all of them. A
 * mean over the rows a scorer chose to score (the others skipped, `null`) is a mean over another
 * dataset, and 1 scored row of 10 would carry the gate; rows left out on purpose are said so with
 * `minCoverage`. @internal
 */
export const DEFAULT_MIN_COVERAGE = 1

/** The gates of one scorer, by id, as the suite's summary needs them. @internal */
export interface ScorerGate {
  id: string
  direction: 'min' | 'max'
  /** Its declared range, when not `[0, 1]`: its share of it counts in the weighted mean. */
  range?: ScoreRange | undefined
  /** Its own mean gate. */
  mean?: number | undefined
  /** The share of trials its mean gate needs scored; absent: the suite's. */
  minCoverage?: number | undefined
  weight: number
}

/** The suite's gates beyond the pass rate. @internal */
export interface SuiteGates {
  scorers: readonly ScorerGate[]
  /** The weighted mean gate across scorers. */
  mean?: number | undefined
  /** The share of trials every mean gate needs scored. Default {@link DEFAULT_MIN_COVERAGE}. */
  minCoverage?: number | undefined
}

/**
 * The suite's record from the rows that ran: how many passed, the rate against the gate, and each
 * scorer's mean score over every trial it scored, in the order the scorers first appear.
 * @internal
 */
export function summariseSuite(
  name: string,
  rows: readonly { name: string; record: EvalRowRecord }[],
  passRate: number,
  trials: number,
  gates: SuiteGates = { scorers: [] },
): EvalSuiteRecord {
  const passed = rows.filter((row) => row.record.passed).length
  const errored = rows.filter((row) => row.record.errored).length
  const sums = new Map<string, { sum: number; scored: number }>()
  for (const row of rows) {
    for (const trial of row.record.trials) {
      for (const [id, score] of Object.entries(trial.scores)) {
        const entry = sums.get(id) ?? { sum: 0, scored: 0 }
        entry.sum += score
        entry.scored++
        sums.set(id, entry)
      }
    }
  }
  const gateOf = new Map(gates.scorers.map((gate) => [gate.id, gate]))
  const scorers: EvalScorerMean[] = [...sums].map(([id, { sum, scored }]) => {
    const gate = gateOf.get(id)
    return {
      id,
      mean: sum / scored,
      scored,
      ...(gate?.direction === 'max' ? { direction: 'max' as const } : {}),
      ...(gate?.range ? { range: [gate.range[0], gate.range[1]] as [number, number] } : {}),
      ...(gate && gate.weight !== 1 ? { weight: gate.weight } : {}),
    }
  })
  // Every trial that could have been scored: the rows that ran, each as many times as asked.
  const meanGates = meanGatesOf(scorers, gates, rows.length * trials)
  const rate = rows.length === 0 ? 0 : passed / rows.length
  // Compared on counts, so that 9 of 10 rows against a gate of 0.9 is not lost to rounding.
  const rateGatePassed = passed >= Math.ceil(passRate * rows.length - 1e-9)
  return {
    v: 1,
    name,
    rows: rows.length,
    passed,
    failed: rows.length - passed,
    errored,
    rate,
    passRate,
    gatePassed: rateGatePassed && meanGates.every((gate) => gate.passed),
    rateGatePassed,
    ...(meanGates.length > 0 ? { meanGates } : {}),
    trials,
    scorers,
    failedRows: rows.filter((row) => !row.record.passed).map((row) => row.name),
  }
}

// Each scorer's own mean gate in scorer order, then the weighted one. A gate is met only over
// enough of the trials (its coverage): a scorer that scored none has no mean, and a gate nothing
// was measured against cannot be met.
function meanGatesOf(
  scorers: readonly EvalScorerMean[],
  gates: SuiteGates,
  total: number,
): EvalMeanGate[] {
  const out: EvalMeanGate[] = []
  const measured = new Map(scorers.map((scorer) => [scorer.id, scorer]))
  const suiteFloor = gates.minCoverage ?? DEFAULT_MIN_COVERAGE
  const covered = (scored: number, floor: number) => total > 0 && scored >= floor * total - 1e-9
  for (const gate of gates.scorers) {
    if (gate.mean === undefined) continue
    const scorer = measured.get(gate.id)
    const mean = scorer?.mean ?? null
    const scored = scorer?.scored ?? 0
    const minCoverage = gate.minCoverage ?? suiteFloor
    out.push({
      scorer: gate.id,
      direction: gate.direction,
      threshold: gate.mean,
      mean,
      passed:
        mean !== null && covered(scored, minCoverage) && within(mean, gate.mean, gate.direction),
      scored,
      total,
      minCoverage,
    })
  }
  if (gates.mean !== undefined) {
    let sum = 0
    let weights = 0
    // Over every scorer of the suite, measured or not: its coverage is the least-covered one's.
    let scored = total
    for (const gate of gates.scorers) {
      const scorer = measured.get(gate.id)
      scored = Math.min(scored, scorer?.scored ?? 0)
      if (!scorer) continue
      // On one scale: each mean as its share of its scorer's range; lower is better for a `max`
      // scorer, whose credit is 1 - that share.
      const share = scoreShare(scorer.mean, gate.range)
      sum += gate.weight * (gate.direction === 'max' ? 1 - share : share)
      weights += gate.weight
    }
    const mean = weights > 0 ? sum / weights : null
    out.push({
      direction: 'min',
      threshold: gates.mean,
      mean,
      passed: mean !== null && covered(scored, suiteFloor) && within(mean, gates.mean, 'min'),
      scored,
      total,
      minCoverage: suiteFloor,
    })
  }
  return out
}

// A small tolerance, so that a mean of 0.8 summed from floats is not read as under a gate of 0.8.
function within(mean: number, threshold: number, direction: 'min' | 'max'): boolean {
  return direction === 'max' ? mean <= threshold + 1e-9 : mean >= threshold - 1e-9
}
