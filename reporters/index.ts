// rubricate/reporter: Vitest constructs this module's default export.
import { RubricateReporter } from './rubric-reporter'

// Reporters
export { RubricateReporter } from './rubric-reporter'
export { RubricateSummaryReporter } from './summary-reporter'
export type { RubricateReporterOptions } from './rubric-reporter'

// Report shapes
export type { RubricateJsonReport } from './json-report'

export default RubricateReporter
