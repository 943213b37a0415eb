import type {
  EvalMeanGate,
  EvalRowRecord,
  EvalScorerMean,
  EvalSuiteRecord,
} from '../src/records/eval-records'

/** The gates of one scorer, by id, as the suite's summary needs them. @internal */
export interface ScorerGate {
  id: string
  direction: 'min' | 'max'
  /** Its own mean gate. */
  mean?: number | undefined
  weight: number
}

/** The suite's gates beyond the pass rate. @internal */
export interface SuiteGates {
  scorers: readonly ScorerGate[]
  /** The weighted mean gate across scorers. */
  mean?: number | undefined
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
      ...(gate && gate.weight !== 1 ? { weight: gate.weight } : {}),
    }
  })
  const meanGates = meanGatesOf(scorers, gates)
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

// Each scorer's own mean gate in scorer order, then the weighted one. A scorer that scored no
// trial has no mean: its gate is unmet, as a gate nothing was measured against cannot be met.
function meanGatesOf(scorers: readonly EvalScorerMean[], gates: SuiteGates): EvalMeanGate[] {
  const out: EvalMeanGate[] = []
  const meanOf = new Map(scorers.map((scorer) => [scorer.id, scorer.mean]))
  for (const gate of gates.scorers) {
    if (gate.mean === undefined) continue
    const mean = meanOf.get(gate.id) ?? null
    out.push({
      scorer: gate.id,
      direction: gate.direction,
      threshold: gate.mean,
      mean,
      passed: mean !== null && within(mean, gate.mean, gate.direction),
    })
  }
  if (gates.mean !== undefined) {
    const directionOf = new Map(gates.scorers.map((gate) => [gate.id, gate]))
    let sum = 0
    let weights = 0
    for (const scorer of scorers) {
      const gate = directionOf.get(scorer.id)
      const weight = gate?.weight ?? 1
      // Lower is better for a `max` scorer: its credit in the weighted mean is 1 - its mean.
      sum += weight * (gate?.direction === 'max' ? 1 - scorer.mean : scorer.mean)
      weights += weight
    }
    const mean = weights > 0 ? sum / weights : null
    out.push({
      direction: 'min',
      threshold: gates.mean,
      mean,
      passed: mean !== null && within(mean, gates.mean, 'min'),
    })
  }
  return out
}

// A small tolerance, so that a mean of 0.8 summed from floats is not read as under a gate of 0.8.
function within(mean: number, threshold: number, direction: 'min' | 'max'): boolean {
  return direction === 'max' ? mean <= threshold + 1e-9 : mean >= threshold - 1e-9
}
