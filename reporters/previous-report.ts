// Pure: the files of a previous JSON report (`compareWith`), checked member by member before the
// page compares with them. The file is whatever the option points at (an old format, a hand edit,
// another tool's report): a member of the wrong type would throw while the page is rendered, and
// the page would not be written at all, or the run would fail.
import type { FileReport } from './collect-run'

/**
 * The files of a previous report as the comparison reads them, or a sentence naming the first
 * member that is not what a rubricate JSON report (v 1) holds. Only what the comparison reads is
 * kept: each file's path, each test's full name, each record's kind, verdicts, scorers and score.
 * @internal
 */
export function previousReportFiles(report: unknown): FileReport[] | string {
  if (!isObject(report) || report.v !== 1 || !Array.isArray(report.files)) {
    return 'it is not a rubricate JSON report (v 1)'
  }
  const files: FileReport[] = []
  for (const [f, file] of report.files.entries()) {
    const at = `files[${f}]`
    if (!isObject(file) || typeof file.file !== 'string') return `${at}.file is not a string`
    if (!Array.isArray(file.tests)) return `${at}.tests is not a list`
    const tests: FileReport['tests'] = []
    for (const [t, test] of file.tests.entries()) {
      const testAt = `${at}.tests[${t}]`
      if (!isObject(test) || typeof test.fullName !== 'string') {
        return `${testAt}.fullName is not a string`
      }
      if (!Array.isArray(test.records)) return `${testAt}.records is not a list`
      const records: FileReport['tests'][number]['records'] = []
      for (const [r, record] of test.records.entries()) {
        const checked = previousRecord(record, `${testAt}.records[${r}]`)
        if (typeof checked === 'string') return checked
        records.push(checked)
      }
      tests.push({ name: test.fullName, fullName: test.fullName, state: '', records })
    }
    files.push({ file: file.file, tests })
  }
  return files
}

type Record_ = FileReport['tests'][number]['records'][number]
type Verdict_ = NonNullable<Record_['verdicts']>[number]

function previousRecord(record: unknown, at: string): Record_ | string {
  if (!isObject(record) || typeof record.kind !== 'string') return `${at}.kind is not a string`
  const verdicts = previousVerdicts(record.verdicts, `${at}.verdicts`)
  if (typeof verdicts === 'string') return verdicts
  const scorers: { verdicts: Verdict_[] }[] = []
  if (record.scorers !== undefined) {
    if (!Array.isArray(record.scorers)) return `${at}.scorers is not a list`
    for (const [s, scorer] of record.scorers.entries()) {
      if (!isObject(scorer)) return `${at}.scorers[${s}] is not an object`
      const own = previousVerdicts(scorer.verdicts, `${at}.scorers[${s}].verdicts`)
      if (typeof own === 'string') return own
      scorers.push({ verdicts: own ?? [] })
    }
  }
  if (record.scorerId !== undefined && typeof record.scorerId !== 'string') {
    return `${at}.scorerId is not a string`
  }
  if (record.score !== undefined && !Number.isFinite(record.score)) {
    return `${at}.score is not a number`
  }
  // Only the members the comparison reads; the rest of a record is this run's business.
  return {
    kind: record.kind,
    ...(verdicts ? { verdicts } : {}),
    ...(record.scorers !== undefined ? { scorers } : {}),
    ...(record.scorerId !== undefined ? { scorerId: record.scorerId } : {}),
    ...(record.score !== undefined ? { score: record.score } : {}),
  } as unknown as Record_
}

function previousVerdicts(verdicts: unknown, at: string): Verdict_[] | undefined | string {
  if (verdicts === undefined) return undefined
  if (!Array.isArray(verdicts)) return `${at} is not a list`
  const out: Verdict_[] = []
  for (const [v, verdict] of verdicts.entries()) {
    const verdictAt = `${at}[${v}]`
    if (!isObject(verdict)) return `${verdictAt} is not an object`
    if (typeof verdict.criterion !== 'string') return `${verdictAt}.criterion is not a string`
    if (typeof verdict.satisfied !== 'boolean') return `${verdictAt}.satisfied is not a boolean`
    if (typeof verdict.required !== 'boolean') return `${verdictAt}.required is not a boolean`
    if (verdict.reasoning !== undefined && typeof verdict.reasoning !== 'string') {
      return `${verdictAt}.reasoning is not a string`
    }
    out.push({
      id: typeof verdict.id === 'string' ? verdict.id : '',
      criterion: verdict.criterion,
      required: verdict.required,
      satisfied: verdict.satisfied,
      reasoning: verdict.reasoning ?? '',
    } as Verdict_)
  }
  return out
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}
