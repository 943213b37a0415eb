// rubricate's lines beside Vitest's own reporter, on Vitest's public reporter API (ARCHITECTURE.md
// §9): the verdicts of each module's tests after Vitest lists the module, the run summary after
// Vitest's, and the run's files. A thin class: the text comes from pure renderers.
import type {
  Reporter,
  SerializedError,
  TestCase,
  TestCollection,
  TestModule,
  TestRunEndReason,
  TestSpecification,
  Vitest,
} from 'vitest/node'
import { outputSecrets } from '../src/cassettes/redaction/redaction'
import { rejectUnknownKeys } from '../src/config/known-keys'
import { messages } from '../src/messages'
import { colouredLine } from '../src/output-safety/terminal-text'
import type { EvalRowRecord } from '../src/records/eval-records'
import type { RubricateRecord } from '../src/records/records'
import { testRecords } from './collect-run'
import { annotateEvalGates } from './eval-gate-annotations'
import { colorsFor } from './figures'
import { githubAnnotations } from './github-annotations'
import { renderSummary, reportPageLine } from './render-summary'
import { renderTestBlock, type SuiteWithRecords, type TestWithRecords } from './render-test-block'
import { type RubricateOutputOptions, RunOutputs, reporterName } from './run-outputs'

/** Options of {@link RubricateReporter}: where its files go, and the prices of its cost estimate. */
export type RubricateReporterOptions = RubricateOutputOptions

const OPTION_KEYS: readonly (keyof RubricateOutputOptions)[] = [
  'outputFile',
  'htmlFile',
  'prices',
  'jobSummary',
  'compareWith',
  'history',
]

/**
 * rubricate's reporter, beside Vitest's `default`: after Vitest lists each test file, the tests
 * that hold rubricate assertions with one line per rubric criterion under each (`✓` met, `✗`
 * required unmet, `○` optional unmet, with the judge's reasoning for unmet ones), scorer scores,
 * loop iterations and eval rows; after Vitest's summary, rubricate's (assertions, criteria, judge
 * calls, tokens, cost, cassette misses). It writes the JSON report (`outputFile.rubricate`), the
 * HTML report page (`outputFile['rubricate-html']`), the Markdown job summary
 * (`$GITHUB_STEP_SUMMARY`) and the record of the run that `rubricate cassettes prune` reads.
 *
 * @example
 * // vitest.config.ts, without the plugin (it adds this reporter for you)
 * export default defineConfig({ test: { reporters: ['default', 'rubricate/reporter'] } })
 */
export class RubricateReporter implements Reporter {
  /** Lets the plugin see that a rubricate reporter is installed. @internal */
  readonly isRubricateReporter: true = true
  private ctx: Vitest | undefined
  private readonly outputs: RunOutputs

  constructor(options: RubricateReporterOptions = {}) {
    rejectUnknownKeys('rubricate/reporter options', options, OPTION_KEYS)
    this.outputs = new RunOutputs(options)
  }

  onInit(ctx: Vitest): void {
    this.ctx = ctx
    this.outputs.onInit(ctx)
    // `reporters: ['rubricate/reporter']` alone replaced Vitest's reporter before rubricate 0.2;
    // now it would leave a run with no list of tests and no failures printed.
    const others = (ctx.config.reporters as unknown[]).filter((entry) => !isRubricateEntry(entry))
    if (others.length === 0) ctx.logger.log(messages.reporterAloneNotice())
  }

  onTestRunStart(specifications: ReadonlyArray<TestSpecification>): void {
    this.outputs.onTestRunStart(specifications)
  }

  // After Vitest's reporter, which is before this one in the list, has printed the module.
  onTestModuleEnd(module: TestModule): void {
    // Before JUnit writes its file at the run's end: each eval suite's gates as an annotation.
    annotateEvalGates(module.children)
    const nodes = withRecords(module.children)
    if (nodes.length === 0) return
    // Verdict lines quote outputs, reasonings and test names, which may echo a key or hold a
    // line that would command the CI runner: each passes the terminal gate.
    const secrets = outputSecrets()
    for (const line of renderTestBlock(nodes, colorsFor())) this.log(colouredLine(line, secrets))
  }

  async onTestRunEnd(
    testModules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<SerializedError>,
    reason: TestRunEndReason,
  ): Promise<void> {
    const finished = await this.outputs.finish(testModules, unhandledErrors, reason)
    // On GitHub Actions: each unmet required criterion on its assertion's line.
    if (process.env.GITHUB_ACTIONS === 'true') {
      for (const line of githubAnnotations(finished.report, this.ctx!.config.root)) {
        this.log(`\n${line}`)
      }
    }
    // After Vitest's summary, which ends with a blank line.
    const lines = renderSummary(finished.summary, colorsFor())
    // Where the page is: a new user has no other way to learn that it was written.
    if (finished.reportPage) lines.push(reportPageLine(finished.reportPage, colorsFor()))
    if (finished.keyHint) lines.push('', finished.keyHint)
    if (lines.length === 0) return
    const secrets = outputSecrets()
    for (const line of lines) this.log(colouredLine(line, secrets))
    this.log('')
  }

  private log(line: string): void {
    this.ctx!.logger.log(line)
  }
}

// The tests of a module or suite that hold records, under the suites that hold them.
function withRecords(children: TestCollection): (TestWithRecords | SuiteWithRecords)[] {
  const nodes: (TestWithRecords | SuiteWithRecords)[] = []
  for (const child of children) {
    if (child.type === 'suite') {
      const inner = withRecords(child.children)
      if (inner.length > 0) {
        nodes.push({ type: 'suite', name: child.name, state: child.state(), children: inner })
      }
      continue
    }
    const records = recordsOf(child)
    if (records.length === 0) continue
    const row = (child.meta() as { rubricateEvalRow?: EvalRowRecord | undefined }).rubricateEvalRow
    nodes.push({ type: 'test', name: child.name, state: child.result().state, records, row })
  }
  return nodes
}

function recordsOf(test: TestCase): RubricateRecord[] {
  // Read structurally: the TaskMeta augmentation lives with the matchers, not in this entry.
  return testRecords(test.meta() as { rubricate?: RubricateRecord[] | undefined })
}

/** Whether a reporter list entry is one of rubricate's reporters. @internal */
export function isRubricateEntry(entry: unknown): boolean {
  return (
    (typeof entry === 'object' && entry !== null && 'isRubricateReporter' in entry) ||
    reporterName(entry) === 'rubricate/reporter'
  )
}
