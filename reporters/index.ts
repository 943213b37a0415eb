// rubricate/reporter: Vitest constructs this module's default export.
import { RubricateReporter } from './rubric-reporter'

// Reporters
export { RubricateReporter } from './rubric-reporter'
export { RubricateSummaryReporter } from './summary-reporter'
export type { RubricateReporterOptions } from './rubric-reporter'
export type { RubricateOutputOptions } from './run-outputs'

// Report shapes
export type { FileReport, TestReport } from './collect-run'
export type { RubricateJsonReport } from './json-report'
export type { RunSummary } from './run-summary'

export default RubricateReporter
