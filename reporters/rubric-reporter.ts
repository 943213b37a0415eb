// The default Vitest reporter plus rubricate's lines: verdicts under each test, the run summary
// before Vitest's own, and the run's files. A thin class: the text comes from pure renderers.
/** Options of {@link RubricateReporter}: those of Vitest's default reporter, plus rubricate's. */
import type {
  RunnerTestFile,
  SerializedError,
  TestCase,
  TestModule,
  TestModuleState,
  TestRunEndReason,
  TestSpecification,
  TestSuite,
  Vitest,
} from 'vitest/node'
import { DefaultReporter } from 'vitest/node'
import { colouredLine } from '../src/output-safety/terminal-text'
import type { EvalRowRecord } from '../src/records/eval-records'
import { ANNOTATION_TYPE } from '../src/records/record-annotations'
import type { RubricateRecord } from '../src/records/records'
import { annotateTest } from './annotate-test'
import { testRecords } from './collect-run'
import { colorsFor } from './figures'
import { githubAnnotations } from './github-annotations'
import { renderConversation, renderEvalRow } from './render-eval'
import { renderRecords } from './render-record'
import { renderSummary } from './render-summary'
import { type FinishedRun, type RubricateOutputOptions, RunOutputs } from './run-outputs'

export interface RubricateReporterOptions extends RubricateOutputOptions {
  /** Vitest's live summary at the bottom of a terminal. Default `true`. */
  summary?: boolean | undefined
  isTTY?: boolean | undefined
  silent?: boolean | 'passed-only' | undefined
}

/**
 * Vitest's default reporter, plus under each test one line per rubric criterion (`✓` met, `✗`
 * required unmet, `○` optional unmet, with the judge's reasoning for unmet ones), scorer scores and
 * loop iterations; passing tests are listed when they hold rubricate assertions, on a terminal and
 * on CI. Before Vitest's summary it prints rubricate's (assertions, criteria, judge calls, tokens,
 * cost, cassette misses), and it writes the JSON report (`outputFile.rubricate`), the HTML report page
 * (`outputFile['rubricate-html']`), the Markdown job
 * summary (`$GITHUB_STEP_SUMMARY`) and the record of the run that `rubricate cassettes prune` reads.
 *
 * @example
 * // vitest.config.ts, without the plugin (it installs this reporter for you)
 * export default defineConfig({ test: { reporters: ['rubricate/reporter'] } })
 */
export class RubricateReporter extends DefaultReporter {
  /** Lets the plugin see that a rubricate reporter is installed. @internal */
  readonly isRubricateReporter: true = true
  private readonly outputs: RunOutputs
  private finished: FinishedRun | undefined
  private skipBlankLine = false

  constructor(options: RubricateReporterOptions = {}) {
    const { outputFile, htmlFile, prices, jobSummary, compareWith, ...vitestOptions } = options
    super(definedOnly(vitestOptions))
    this.outputs = new RunOutputs({ outputFile, htmlFile, prices, jobSummary, compareWith })
  }

  override onInit(ctx: Vitest): void {
    super.onInit(ctx)
    this.outputs.onInit(ctx)
  }

  override onTestRunStart(specifications: ReadonlyArray<TestSpecification>): void {
    super.onTestRunStart(specifications)
    this.outputs.onTestRunStart(specifications)
  }

  override async onTestRunEnd(
    testModules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<SerializedError>,
    reason: TestRunEndReason,
  ): Promise<void> {
    // Finish first: Vitest's summary, printed by super, is preceded by ours, which needs the run.
    this.finished = await this.outputs.finish(testModules, unhandledErrors, reason)
    // On GitHub Actions: each unmet required criterion on its assertion's line.
    if (process.env.GITHUB_ACTIONS === 'true') {
      for (const line of githubAnnotations(this.finished.report, this.ctx.config.root)) {
        this.ctx.logger.log(`\n${line}`)
      }
    }
    super.onTestRunEnd(testModules, unhandledErrors, reason)
  }

  override reportTestSummary(files: RunnerTestFile[], errors: unknown[], leakCount: number): void {
    const lines = this.finished ? renderSummary(this.finished.summary, colorsFor()) : []
    if (lines.length > 0) {
      this.log()
      for (const line of lines) this.log(colouredLine(line))
    }
    super.reportTestSummary(files, errors, leakCount)
  }

  override onTestCaseResult(test: TestCase): void {
    annotateTest(test)
    super.onTestCaseResult(test)
  }

  override error(...messages: unknown[]): void {
    const skip = this.skipBlankLine && messages.length === 0
    this.skipBlankLine = false
    if (!skip) super.error(...messages)
  }

  protected override printTestCase(moduleState: TestModuleState, test: TestCase): void {
    const records = recordsOf(test)
    if (records.length === 0) {
      super.printTestCase(moduleState, test)
      return
    }
    // A test holding rubricate assertions is listed even where passing tests are not (CI, several
    // files on a terminal), so its verdicts are never orphaned.
    const renderSucceed = this.renderSucceed
    this.renderSucceed = true
    try {
      super.printTestCase(moduleState, test)
    } finally {
      this.renderSucceed = renderSucceed
    }
    const indent = ` ${'  '.repeat(depth(test))}  `
    const colors = colorsFor()
    const row = (test.meta() as { rubricateEvalRow?: EvalRowRecord | undefined }).rubricateEvalRow
    const rowLine = row ? renderEvalRow(row, colors) : undefined
    if (rowLine) this.log(colouredLine(`${indent}${rowLine}`))
    const conversation = row?.trials.at(-1)?.conversation
    const lines = conversation
      ? renderConversation(conversation, records, { indent, colors })
      : renderRecords(records, { indent, colors })
    // Verdict lines quote outputs and reasonings, which may echo a key or hold a line that would
    // command the CI runner: each passes the terminal gate.
    for (const line of lines) this.log(colouredLine(line))
  }

  protected override printTestSuite(testSuite: TestSuite): void {
    if (this.renderSucceed || !holdsRecords(testSuite)) {
      super.printTestSuite(testSuite)
      return
    }
    this.renderSucceed = true
    try {
      super.printTestSuite(testSuite)
    } finally {
      this.renderSucceed = false
    }
  }

  // Verdicts are also test annotations (for JUnit and other reporters); under a failed test they
  // would repeat the lines printed under it, so this reporter leaves them out there.
  protected override printAnnotations(
    test: TestCase,
    console: 'log' | 'error',
    padding?: number,
  ): void {
    const all = test.annotations()
    const others = all.filter((annotation) => annotation.type !== ANNOTATION_TYPE)
    if (others.length === all.length) {
      super.printAnnotations(test, console, padding)
      return
    }
    if (others.length === 0) {
      // Vitest follows the annotations with a blank line; with none left, that line goes too.
      this.skipBlankLine = true
      return
    }
    const view = Object.create(test, { annotations: { value: () => others } }) as TestCase
    super.printAnnotations(view, console, padding)
  }
}

function recordsOf(test: TestCase): RubricateRecord[] {
  // Read structurally: the TaskMeta augmentation lives with the matchers, not in this entry.
  return testRecords(test.meta() as { rubricate?: RubricateRecord[] | undefined })
}

function holdsRecords(suite: TestSuite): boolean {
  for (const test of suite.children.allTests()) if (recordsOf(test).length > 0) return true
  return false
}

/** Vitest's indentation level of a test: 1, plus one per enclosing suite. */
function depth(test: TestCase): number {
  let level = 1
  for (let parent = test.parent; parent.type === 'suite'; parent = parent.parent) level++
  return level
}

function definedOnly<T extends object>(options: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as {
    [K in keyof T]: Exclude<T[K], undefined>
  }
}
