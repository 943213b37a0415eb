// rubricate/reporter: Vitest constructs this module's default export.

export type { FileReport, TestReport } from './collect-run'
export type { RubricateJsonReport } from './json-report'
export type { RubricReporterOptions } from './rubric-reporter'
// Reporters
export { RubricReporter } from './rubric-reporter'
export type { RubricOutputOptions } from './run-outputs'
export type { RunSummary } from './run-summary'
export { RubricSummaryReporter } from './summary-reporter'

import { RubricReporter } from './rubric-reporter'

export default RubricReporter
