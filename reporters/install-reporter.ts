// The plugin's part in reporting (ARCHITECTURE.md §9): install one rubricate reporter per Vitest run.
import type { Vitest } from 'vitest/node'
import { RubricateReporter, type RubricateReporterOptions } from './rubric-reporter'
import type { RubricateOutputOptions } from './run-outputs'
import { reporterName } from './run-outputs'
import { RubricateSummaryReporter } from './summary-reporter'

const OWN_NAMES = ['rubricate/reporter']

/**
 * Replace a `'default'` entry of the reporter list with {@link RubricateReporter} (keeping its
 * options), or, when there is none (`--reporter=dot`, `json`, `junit`, the `agent` reporter of
 * Vitest 4 or `minimal` of Vitest 5 under an AI agent, `reporters: []`, which means none in
 * Vitest 5), add the summary-only reporter, which writes to stderr. Does nothing when a rubricate reporter is
 * already in the list: the hook runs once per project, and a user may have listed it.
 * @internal
 */
export function installReporter(vitest: Vitest, options: RubricateOutputOptions): void {
  const reporters = vitest.config.reporters as unknown[]
  const installed = reporters.some(
    (entry) =>
      (typeof entry === 'object' && entry !== null && 'isRubricateReporter' in entry) ||
      OWN_NAMES.includes(reporterName(entry) ?? ''),
  )
  if (installed) return
  const index = reporters.findIndex((entry) => reporterName(entry) === 'default')
  if (index === -1) {
    // First in the list: it annotates each finished test, and reporters that print annotations as
    // the result arrives (verbose) are called after it.
    reporters.unshift(new RubricateSummaryReporter(options))
    return
  }
  const entry = reporters[index]
  const defaultOptions = Array.isArray(entry)
    ? (entry[1] as RubricateReporterOptions | undefined)
    : {}
  reporters[index] = new RubricateReporter({ ...defaultOptions, ...options })
}
