// For runs whose reporter list has no 'default' (dot, json, junit, agent...): prints only
// rubricate's run summary, on stderr so that a reporter writing to stdout (`--reporter=json`) keeps
// its output intact, and writes the same files as RubricateReporter.
import type {
  Reporter,
  SerializedError,
  TestModule,
  TestRunEndReason,
  TestSpecification,
  Vitest,
} from 'vitest/node'
import { outputSecrets } from '../src/cassettes/redaction/redaction'
import { colouredLine } from '../src/output-safety/terminal-text'
import { annotateEvalGates } from './eval-gate-annotations'
import { colorsFor } from './figures'
import { renderSummary, reportPageLine } from './render-summary'
import { type RubricateOutputOptions, RunOutputs } from './run-outputs'

/**
 * rubricate's run summary on stderr, without the test list; added by the plugin when the reporter
 * list has no `'default'` to replace. Writes the JSON report, the Markdown job summary and the
 * record of the run like {@link RubricateReporter}.
 */
export class RubricateSummaryReporter implements Reporter {
  /** Lets the plugin see that a rubricate reporter is installed. @internal */
  readonly isRubricateReporter: true = true
  private ctx: Vitest | undefined
  private readonly outputs: RunOutputs

  constructor(options: RubricateOutputOptions = {}) {
    this.outputs = new RunOutputs(options)
  }

  onInit(ctx: Vitest): void {
    this.ctx = ctx
    this.outputs.onInit(ctx)
  }

  onTestRunStart(specifications: ReadonlyArray<TestSpecification>): void {
    this.outputs.onTestRunStart(specifications)
  }

  // Before JUnit writes its file at the run's end: each eval suite's gates as an annotation.
  onTestModuleEnd(module: TestModule): void {
    annotateEvalGates(module.children)
  }

  async onTestRunEnd(
    testModules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<SerializedError>,
    reason: TestRunEndReason,
  ): Promise<void> {
    const finished = await this.outputs.finish(testModules, unhandledErrors, reason)
    const lines = renderSummary(finished.summary, colorsFor())
    if (finished.reportPage) lines.push(reportPageLine(finished.reportPage, colorsFor()))
    if (finished.keyHint) lines.push('', finished.keyHint)
    if (lines.length === 0) return
    const secrets = outputSecrets()
    this.ctx!.logger.error(['', ...lines.map((line) => colouredLine(line, secrets)), ''].join('\n'))
  }
}
