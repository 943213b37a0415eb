// Pure: the trends of the last runs of a history (ARCHITECTURE.md §9.3), for `rubricate history`
// and the report page. A value "moved" at a run when it differs from the run before that measured
// it; the commit of that run is where to look.
import type { StoredRun } from './history-run'

/** A change of a value from one run to the next that measured it. */
export interface HistoryMove {
  /** The run where the new value first shows. */
  run: number
  commit?: string | undefined
  /** `pass rate`, `mean "tone"`, `met`. */
  what: string
  from: number
  to: number
}

/** One eval over the runs that ran it. */
export interface EvalTrend {
  file: string
  name: string
  points: { run: number; commit?: string | undefined; rate: number; gatePassed: boolean }[]
  /** The mean of its pass rates over those runs. */
  passRate: number
  /** Each scorer's mean over those runs. */
  means: { id: string; mean: number }[]
  moved: HistoryMove[]
}

/** One criterion of an eval (over its rows) or of a test, over the runs that judged it. */
export interface CriterionTrend {
  file: string
  /** The eval it is judged in, or the test's full name when the test is no eval row. */
  group: string
  criterion: string
  required: boolean
  points: { run: number; commit?: string | undefined; met: number; total: number }[]
  /** Met verdicts over all verdicts, in those runs. */
  rate: number
  moved: HistoryMove[]
}

/** One test over the runs that ran it: its outcome and score each time. */
export interface TestTrend {
  file: string
  test: string
  points: { run: number; status: string; score?: number | undefined }[]
}

/** What `rubricate history` prints and the report page draws. @internal */
export interface HistoryTrends {
  runs: StoredRun[]
  evals: EvalTrend[]
  criteria: CriterionTrend[]
  tests: TestTrend[]
}

/** The trends of `runs` (oldest first). @internal */
export function historyTrends(runs: readonly StoredRun[]): HistoryTrends {
  const evals = new Map<string, EvalTrend & { scorerPoints: Map<string, number[]> }>()
  const criteria = new Map<string, CriterionTrend>()
  const tests = new Map<string, TestTrend>()
  for (const run of runs) {
    for (const e of run.evals) {
      const key = `${e.file}\0${e.name}`
      const trend: EvalTrend & { scorerPoints: Map<string, number[]> } = evals.get(key) ?? {
        file: e.file,
        name: e.name,
        points: [],
        passRate: 0,
        means: [],
        moved: [],
        scorerPoints: new Map(),
      }
      evals.set(key, trend)
      const before = trend.points.at(-1)
      if (before && differs(before.rate, e.rate)) {
        trend.moved.push(move(run, 'pass rate', before.rate, e.rate))
      }
      trend.points.push({ run: run.id, commit: run.commit, rate: e.rate, gatePassed: e.gatePassed })
      for (const scorer of e.scorers) {
        const list = trend.scorerPoints.get(scorer.id) ?? []
        const last = list.at(-1)
        if (last !== undefined && differs(last, scorer.mean)) {
          trend.moved.push(move(run, `mean "${scorer.id}"`, last, scorer.mean))
        }
        list.push(scorer.mean)
        trend.scorerPoints.set(scorer.id, list)
      }
    }
    const evalOf = new Map(run.tests.map((t) => [`${t.file}\0${t.test}`, t.eval]))
    const perRun = new Map<
      string,
      { met: number; total: number; verdict: (typeof run.verdicts)[number]; group: string }
    >()
    for (const v of run.verdicts) {
      const group = evalOf.get(`${v.file}\0${v.test}`) ?? v.test
      const key = `${v.file}\0${group}\0${v.criterion}`
      const counts = perRun.get(key) ?? { met: 0, total: 0, verdict: v, group }
      counts.total++
      if (v.satisfied) counts.met++
      perRun.set(key, counts)
    }
    for (const [key, counts] of perRun) {
      const trend: CriterionTrend = criteria.get(key) ?? {
        file: counts.verdict.file,
        group: counts.group,
        criterion: counts.verdict.criterion,
        required: counts.verdict.required,
        points: [],
        rate: 0,
        moved: [],
      }
      criteria.set(key, trend)
      const before = trend.points.at(-1)
      const rate = counts.met / counts.total
      if (before && differs(before.met / before.total, rate)) {
        trend.moved.push(move(run, 'met', before.met / before.total, rate))
      }
      trend.points.push({ run: run.id, commit: run.commit, met: counts.met, total: counts.total })
    }
    for (const t of run.tests) {
      const key = `${t.file}\0${t.test}`
      const trend: TestTrend = tests.get(key) ?? { file: t.file, test: t.test, points: [] }
      tests.set(key, trend)
      trend.points.push({ run: run.id, status: t.status, score: t.score })
    }
  }
  return {
    runs: [...runs],
    evals: [...evals.values()].map(({ scorerPoints, ...trend }) => ({
      ...trend,
      passRate: mean(trend.points.map((p) => p.rate)),
      means: [...scorerPoints].map(([id, values]) => ({ id, mean: mean(values) })),
    })),
    criteria: [...criteria.values()].map((trend) => ({
      ...trend,
      rate:
        trend.points.reduce((sum, p) => sum + p.met, 0) /
        trend.points.reduce((sum, p) => sum + p.total, 0),
    })),
    tests: [...tests.values()],
  }
}

function move(run: StoredRun, what: string, from: number, to: number): HistoryMove {
  return { run: run.id, commit: run.commit, what, from, to }
}

const differs = (a: number, b: number): boolean => Math.abs(a - b) > 1e-9

function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((sum, v) => sum + v, 0) / values.length
}
