import type { EvalRowRecord, EvalScorerMean, EvalSuiteRecord } from '../src/eval-records'

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
  const scorers: EvalScorerMean[] = [...sums].map(([id, { sum, scored }]) => ({
    id,
    mean: sum / scored,
    scored,
  }))
  const rate = rows.length === 0 ? 0 : passed / rows.length
  return {
    v: 1,
    name,
    rows: rows.length,
    passed,
    failed: rows.length - passed,
    errored,
    rate,
    passRate,
    // Compared on counts, so that 9 of 10 rows against a gate of 0.9 is not lost to rounding.
    gatePassed: passed >= Math.ceil(passRate * rows.length - 1e-9),
    trials,
    scorers,
    failedRows: rows.filter((row) => !row.record.passed).map((row) => row.name),
  }
}
