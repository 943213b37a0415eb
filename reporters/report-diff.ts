// Pure: what changed between a previous run's JSON report and this run, for the report page.
// Matched by test file, test (`suite > test`), the assertion's place in its test and criterion
// text, so a test that moved to another line is the same test.
import type { RubricateRecord, Verdict } from '../src/records/records'
import { type VerdictState, verdictState } from '../src/records/verdict-words'
import type { FileReport } from './collect-run'

/** One criterion whose verdict is not what the previous report says. */
export interface VerdictChange {
  file: string
  /** `suite > test`. */
  test: string
  /** The assertion's place in its test, from 0 (a second rubric is not mixed with the first). */
  index: number
  /** The assertion's kind and name, as the page labels it: `rubric`, `scorer "tone"`. */
  assertion: string
  criterion: string
  /** `flipped`: judged both times, differently; `added`: new here; `removed`: only before. */
  change: 'flipped' | 'added' | 'removed'
  before?: VerdictState | undefined
  after?: VerdictState | undefined
  required: boolean
  /** The reasoning of this run's verdict (of the previous one's, for a removed criterion). */
  reasoning: string
}

/** A scorer assertion whose score moved. */
export interface ScoreChange {
  file: string
  test: string
  index: number
  scorer: string
  before: number
  after: number
}

/** What changed against a previous report. @internal */
export interface ReportDiff {
  verdicts: VerdictChange[]
  scores: ScoreChange[]
  /** Tests of the previous report that this run did not run: not compared. */
  notRun: number
}

/**
 * Compare this run's files with a previous report's. A test that this run did not run is not
 * compared (a filtered run does not make verdicts disappear); one that is new here has every
 * verdict `added`.
 * @internal
 */
export function diffReports(
  previous: readonly FileReport[],
  current: readonly FileReport[],
): ReportDiff {
  const before = assertionsOf(previous)
  const after = assertionsOf(current)
  const verdicts: VerdictChange[] = []
  const scores: ScoreChange[] = []
  const ranTests = new Set([...after.values()].map((a) => `${a.file}\0${a.test}`))
  const notRunTests = new Set<string>()
  for (const [key, old] of before) {
    if (after.has(key)) continue
    const test = `${old.file}\0${old.test}`
    if (!ranTests.has(test)) {
      notRunTests.add(test)
      continue
    }
    // The test ran, without this assertion: each of its verdicts is gone.
    for (const verdict of old.verdicts.values()) {
      verdicts.push(change(old, verdict, 'removed', verdictState(verdict), undefined))
    }
  }
  for (const [key, now] of after) {
    const old = before.get(key)
    for (const [criterion, verdict] of now.verdicts) {
      const was = old?.verdicts.get(criterion)
      if (!was) verdicts.push(change(now, verdict, 'added', undefined, verdictState(verdict)))
      else if (verdictState(was) !== verdictState(verdict)) {
        verdicts.push(change(now, verdict, 'flipped', verdictState(was), verdictState(verdict)))
      }
    }
    for (const [criterion, verdict] of old?.verdicts ?? []) {
      if (!now.verdicts.has(criterion)) {
        verdicts.push(change(now, verdict, 'removed', verdictState(verdict), undefined))
      }
    }
    if (
      old?.score !== undefined &&
      now.score !== undefined &&
      now.scorer !== undefined &&
      Math.abs(old.score - now.score) > 1e-9
    ) {
      scores.push({
        file: now.file,
        test: now.test,
        index: now.index,
        scorer: now.scorer,
        before: old.score,
        after: now.score,
      })
    }
  }
  return { verdicts, scores, notRun: notRunTests.size }
}

interface Assertion {
  file: string
  test: string
  index: number
  name: string
  verdicts: Map<string, Verdict>
  scorer?: string | undefined
  score?: number | undefined
}

function assertionsOf(files: readonly FileReport[]): Map<string, Assertion> {
  const out = new Map<string, Assertion>()
  for (const file of files) {
    for (const test of file.tests) {
      test.records.forEach((record, index) => {
        out.set(verdictKey(file.file, test.fullName, index, ''), {
          file: file.file,
          test: test.fullName,
          index,
          name: assertionName(record),
          verdicts: new Map(verdictsOf(record).map((v) => [v.criterion, v])),
          ...(record.kind === 'scorer'
            ? { scorer: record.scorerId ?? 'scorer', score: record.score }
            : {}),
        })
      })
    }
  }
  return out
}

/** Every verdict of an assertion: its own, or those of the scorers it combined. @internal */
export function verdictsOf(record: RubricateRecord): Verdict[] {
  if (record.verdicts && record.verdicts.length > 0) return record.verdicts
  return (record.scorers ?? []).flatMap((part) => part.verdicts ?? [])
}

/**
 * Where a verdict is, for matching a change with what the page shows: file, test, the
 * assertion's place in its test, criterion (`''` for the assertion itself).
 * @internal
 */
export function verdictKey(file: string, test: string, index: number, criterion: string): string {
  return `${file}\0${test}\0${index}\0${criterion}`
}

/**
 * An assertion's kind and name as the page and the changes list label it: `rubric`, `rubric
 * "keywords"` (a scorer given to toSatisfyRubric), `scorer "tone"`, `loop`, `calibration "gpt-4.1"`,
 * `(.not)` after a negated one. Untrusted (a scorer's id): escaped by the page.
 * @internal
 */
export function assertionName(record: RubricateRecord): string {
  const not = record.negated ? ' (.not)' : ''
  const id =
    record.kind === 'calibration'
      ? record.calibration?.judge
      : record.scorerId === 'rubric-scorer'
        ? undefined
        : record.scorerId
  return `${record.kind}${id ? ` "${id}"` : ''}${not}`
}

function change(
  assertion: Assertion,
  verdict: Verdict,
  kind: VerdictChange['change'],
  before: VerdictState | undefined,
  after: VerdictState | undefined,
): VerdictChange {
  return {
    file: assertion.file,
    test: assertion.test,
    index: assertion.index,
    assertion: assertion.name,
    criterion: verdict.criterion,
    change: kind,
    before,
    after,
    required: verdict.required,
    reasoning: verdict.reasoning,
  }
}
