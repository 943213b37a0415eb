// Pure: is a run complete, that is, did it run every test of the suite and pass (ARCHITECTURE.md §7.9)? Only
// then do the cassette keys it used tell which entries nothing needs any more.
import { messages } from '../src/messages'

/** What Vitest tells about how a run was started and how it ended. */
export interface RunFacts {
  reason: 'passed' | 'failed' | 'interrupted'
  unhandledErrors: number
  testNamePattern?: string | undefined
  /** File filters given on the command line. */
  fileFilters?: readonly string[] | undefined
  /** `--exclude` patterns given on the command line: they leave files out of the suite itself. */
  excludeFilters?: readonly string[] | undefined
  /** `--project` filters. */
  projectFilters?: readonly string[] | undefined
  shard?: { index: number; count: number } | undefined
  /** Test files that ran (or were merged), and how many the suite has; `undefined` when unknown. */
  filesRun: number
  filesTotal?: number | undefined
  skippedTests: number
  /** Test files that ran with cassettes `off`. */
  filesWithCassettesOff: number
}

/** The verdict on a run: complete, or the reasons it is not. */
export interface Completeness {
  complete: boolean
  reasons: string[]
}

/** Decide whether a run is complete; the reasons are the phrases prune shows when it refuses. @internal */
export function runCompleteness(facts: RunFacts): Completeness {
  const reasons: string[] = []
  const m = messages.incomplete
  if (facts.reason === 'interrupted') reasons.push(m.interrupted())
  else if (facts.reason === 'failed' || facts.unhandledErrors > 0) reasons.push(m.failed())
  if (facts.testNamePattern) reasons.push(m.testNamePattern(facts.testNamePattern))
  if (facts.shard) reasons.push(m.shard(facts.shard.index, facts.shard.count))
  if (facts.projectFilters && facts.projectFilters.length > 0) {
    reasons.push(m.projectFilter(facts.projectFilters))
  }
  // Excluded files are missing from the suite's own file list too, so counting files cannot tell.
  if (facts.excludeFilters && facts.excludeFilters.length > 0)
    reasons.push(m.excludeFilter(facts.excludeFilters))
  if (facts.fileFilters && facts.fileFilters.length > 0)
    reasons.push(m.fileFilter(facts.fileFilters))
  else if (!facts.shard && facts.filesTotal !== undefined && facts.filesRun < facts.filesTotal) {
    reasons.push(m.notEveryFile(facts.filesRun, facts.filesTotal))
  }
  if (facts.skippedTests > 0 && !facts.testNamePattern) reasons.push(m.skipped(facts.skippedTests))
  if (facts.filesWithCassettesOff > 0) reasons.push(m.cassettesOff(facts.filesWithCassettesOff))
  return { complete: reasons.length === 0, reasons }
}
