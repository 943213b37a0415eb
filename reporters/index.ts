// rubricate/reporter: Vitest constructs this module's default export.
import { RubricReporter } from './rubric-reporter'

// Reporters
export { RubricReporter } from './rubric-reporter'
export { RubricSummaryReporter } from './summary-reporter'
export type { RubricReporterOptions } from './rubric-reporter'
export type { RubricOutputOptions } from './run-outputs'

// Report shapes
export type { FileReport, TestReport } from './collect-run'
export type { RubricateJsonReport } from './json-report'
export type { RunSummary } from './run-summary'

export default RubricReporter
