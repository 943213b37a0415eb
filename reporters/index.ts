// rubricate/reporter: Vitest constructs this module's default export.
import { DefaultReporter } from 'vitest/node'

/** The default Vitest reporter, plus rubric verdicts under each test and a run summary. */
export class RubricReporter extends DefaultReporter {}

export default RubricReporter
