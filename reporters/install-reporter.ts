// The plugin's part in reporting (ARCHITECTURE.md §9): install one rubricate reporter per Vitest run.
import type { Vitest } from 'vitest/node'
import { isRubricateEntry, RubricateReporter } from './rubric-reporter'
import type { RubricateOutputOptions } from './run-outputs'
import { reporterName } from './run-outputs'
import { RubricateSummaryReporter } from './summary-reporter'

/**
 * Add {@link RubricateReporter} right after the `'default'` entry of the reporter list, which
 * stays as it is, so that each module's verdicts follow Vitest's list of it; or, when there is no
 * `'default'` (`--reporter=dot`, `json`, `junit`, the `agent` reporter of Vitest 4 or `minimal` of
 * Vitest 5 under an AI agent, `reporters: []`, which means none in Vitest 5), add the summary-only
 * reporter, which writes to stderr. Does nothing when a rubricate reporter is already in the
 * list: the hook runs once per project, and a user may have listed it.
 * @internal
 */
export function installReporter(vitest: Vitest, options: RubricateOutputOptions): void {
  const reporters = vitest.config.reporters as unknown[]
  if (reporters.some(isRubricateEntry)) return
  const index = reporters.findIndex((entry) => reporterName(entry) === 'default')
  if (index === -1) reporters.push(new RubricateSummaryReporter(options))
  else reporters.splice(index + 1, 0, new RubricateReporter(options))
}
