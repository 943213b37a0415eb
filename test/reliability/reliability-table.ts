// The figures of `npm run reliability`: cases tried and cases that behaved as specified, per
// group. Pure, so the reporter stays a thin shell over it.

/** One test case as the reporter saw it. */
export interface CaseOutcome {
  /** The top-level describe of the case, else its file. */
  group: string
  name: string
  state: 'passed' | 'failed' | 'skipped' | 'pending'
  /** First line of the first error, for a case that failed. */
  error?: string | undefined
}

/** The tally of one group. */
export interface GroupTally {
  group: string
  tried: number
  asSpecified: number
  misbehaved: CaseOutcome[]
}

/**
 * Tally cases per group, groups ordered by their leading number ("1. Judge faults" before
 * "10. ..."), then by name. A case counts as tried whatever its state; only a passed one behaved
 * as specified (a skipped case proves nothing).
 */
export function tallyGroups(cases: readonly CaseOutcome[]): GroupTally[] {
  const groups = new Map<string, GroupTally>()
  for (const outcome of cases) {
    let tally = groups.get(outcome.group)
    if (!tally) {
      tally = { group: outcome.group, tried: 0, asSpecified: 0, misbehaved: [] }
      groups.set(outcome.group, tally)
    }
    tally.tried++
    if (outcome.state === 'passed') tally.asSpecified++
    else tally.misbehaved.push(outcome)
  }
  return [...groups.values()].sort(byNumberThenName)
}

function byNumberThenName(a: GroupTally, b: GroupTally): number {
  const number = (tally: GroupTally) => Number.parseInt(tally.group, 10)
  const [x, y] = [number(a), number(b)]
  if (!Number.isNaN(x) && !Number.isNaN(y) && x !== y) return x - y
  if (Number.isNaN(x) !== Number.isNaN(y)) return Number.isNaN(x) ? 1 : -1
  return a.group.localeCompare(b.group)
}

/** The table, then one line per misbehaving case with the start of its error. */
export function renderTable(tallies: readonly GroupTally[]): string {
  const total = tallies.reduce(
    (sum, tally) => ({ tried: sum.tried + tally.tried, ok: sum.ok + tally.asSpecified }),
    { tried: 0, ok: 0 },
  )
  const rows: [string, string, string][] = [
    ['Group', 'Tried', 'As specified'],
    ...tallies.map((tally): [string, string, string] => [
      tally.group,
      String(tally.tried),
      share(tally.asSpecified, tally.tried),
    ]),
    ['Total', String(total.tried), share(total.ok, total.tried)],
  ]
  const width = Math.max(...rows.map(([group]) => group.length))
  const lines = rows.map(
    ([group, tried, ok]) => `  ${group.padEnd(width)}  ${tried.padStart(5)}  ${ok}`,
  )
  lines.splice(1, 0, `  ${'-'.repeat(width + 7 + 2 + 'As specified'.length)}`)
  lines.splice(lines.length - 1, 0, `  ${'-'.repeat(width + 7 + 2 + 'As specified'.length)}`)
  const out = ['Reliability: cases tried, and cases that behaved as specified', '', ...lines]
  const misbehaved = tallies.flatMap((tally) => tally.misbehaved)
  if (misbehaved.length > 0) {
    out.push('', `Misbehaved (${misbehaved.length}):`)
    for (const outcome of misbehaved) {
      out.push(`  ✗ ${outcome.group} › ${outcome.name} (${outcome.state})`)
      if (outcome.error) out.push(`      ${outcome.error}`)
    }
  }
  return out.join('\n')
}

function share(ok: number, tried: number): string {
  const percent = tried === 0 ? 0 : Math.floor((ok / tried) * 1000) / 10
  return `${String(ok).padStart(5)}  (${percent}%)`
}
