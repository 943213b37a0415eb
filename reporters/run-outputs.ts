// The I/O of a finished run, shared by both reporters: collect the records, decide whether the run
// was complete, count unused cassette entries, write the JSON report, the job-summary Markdown and
// the run marker that `rubricate cassettes prune` reads.
/** Options shared by `RubricateReporter` and the summary-only reporter. */
import { appendFile, mkdir, readFile, writeFile } from 'node:fs/promises'
import { dirname, isAbsolute, relative, resolve } from 'node:path'
import type {
  SerializedError,
  TestModule,
  TestRunEndReason,
  TestSpecification,
  Vitest,
} from 'vitest/node'
import { committedFolder, diffCassetteFolders } from '../src/cassettes/maintenance/cassette-diff'
import { pruneCassettes } from '../src/cassettes/maintenance/prune'
import { redactOutput } from '../src/cassettes/redaction/redaction'
import { runMarkerPath, writeRunMarker } from '../src/cassettes/run/run-marker'
import { storeFor } from '../src/cassettes/store/cassette-store'
import type { ModelPrice } from '../src/config/resolve-config'
import { messages } from '../src/messages'
import { currentRuntime } from '../src/runtime/runtime'
import { collectRun, type RunReport } from './collect-run'
import { type RubricateJsonReport, toJsonReport } from './json-report'
import { missingKeyHint } from './missing-key-hint'
import { moduleTask } from './module-tasks'
import { previousReportFiles } from './previous-report'
import { renderCassetteDiffMarkdown } from './render-cassette-diff'
import { renderHtml } from './render-html'
import { renderMarkdown } from './render-markdown'
import { diffReports, type ReportDiff } from './report-diff'
import { type Completeness, type RunFacts, runCompleteness } from './run-completeness'
import { addRunToHistory, historyPath, type PageHistory } from './run-history'
import { type RunSummary, summariseRun } from './run-summary'

export interface RubricateOutputOptions {
  /** Where to write the JSON report. Default: `test.outputFile.rubricate`, else no file. */
  outputFile?: string | undefined
  /**
   * Where to write the HTML report page (one self-contained file). Default:
   * `test.outputFile['rubricate-html']`, else no page.
   */
  htmlFile?: string | undefined
  /** Model prices (USD per million tokens) for the cost estimate, over the built-in table. */
  prices?: Record<string, ModelPrice> | undefined
  /** Append a Markdown report to `$GITHUB_STEP_SUMMARY` when it is set. Default `true`. */
  jobSummary?: boolean | undefined
  /**
   * A previous run's JSON report (`outputFile.rubricate`, e.g. the main branch's): the report
   * page lists the verdicts and scores that changed against it, and marks the changed cells.
   * Default: `RUBRICATE_COMPARE_WITH`, else no comparison. Relative to the project root.
   */
  compareWith?: string | undefined
  /**
   * The run history (ARCHITECTURE.md §9.3): `true` adds each run to `RUBRICATE_HISTORY`, else to
   * `.rubricate-history.sqlite` under the root; a path adds it there; `false` turns it off. The
   * report page then draws each eval's and test's trend over the last runs and compares any two.
   * Default: `RUBRICATE_HISTORY` when set, else no history. Needs `better-sqlite3` or Node >= 22.13.
   */
  history?: boolean | string | undefined
}

// The messages of every error of the run: the modules', the tests', and those outside tests.
function errorMessages(
  testModules: ReadonlyArray<TestModule>,
  unhandledErrors: ReadonlyArray<SerializedError>,
): string[] {
  const errors: { message?: unknown }[] = [...unhandledErrors]
  for (const module of testModules) {
    errors.push(...module.errors())
    for (const test of module.children.allTests()) errors.push(...(test.result().errors ?? []))
  }
  return errors.map((error) => error.message).filter((m): m is string => typeof m === 'string')
}

/** What a finished run produced, for the reporters to print. @internal */
export interface FinishedRun {
  report: RunReport
  summary: RunSummary
  completeness: Completeness
  /** Where the HTML report page was written (relative to the root when inside it), if it was. */
  reportPage?: string | undefined
  /** Said when errors came from a model client built without an API key (`missingKeyHint`). */
  keyHint?: string | undefined
}

/** @internal */
export class RunOutputs {
  private ctx: Vitest | undefined
  private startedAt = new Date()
  /** Every test file of the suite (absolute), when the run may be complete. */
  private suiteFiles: string[] | undefined
  private readonly options: RubricateOutputOptions

  constructor(options: RubricateOutputOptions) {
    this.options = options
  }

  onInit(ctx: Vitest): void {
    this.ctx = ctx
  }

  onTestRunStart(_specifications: ReadonlyArray<TestSpecification>): void {
    this.startedAt = new Date()
  }

  async finish(
    testModules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<SerializedError>,
    reason: TestRunEndReason,
  ): Promise<FinishedRun> {
    const ctx = this.ctx!
    const root = ctx.config.root
    const report = collectRun(testModules.map(moduleTask), root)
    const facts = await this.facts(report, testModules, unhandledErrors, reason)
    const completeness = runCompleteness(facts)
    const used = usedKeysByDir(report)
    const passed = passedTests(testModules)
    await this.writeMarker(root, completeness, used, this.suiteFiles, passed)
    const summary = summariseRun(report, { prices: this.options.prices })
    // Before the unused entries are counted: what this deletes is not left for prune. A partial
    // run (the `-t` command of a miss message) cleans up after the tests that ran and passed; an
    // interrupted one, or one with errors outside tests, after none.
    const recorded = summary.judge.recorded + summary.agents.recorded > 0
    if (recorded && reason !== 'interrupted' && unhandledErrors.length === 0) {
      await this.pruneSuperseded(root, completeness.complete ? undefined : passed)
    }
    const unused = completeness.complete ? await countUnused(used) : undefined
    if (unused !== undefined) summary.cassettes.unused = unused
    const writeArtifacts = !ctx.config.reporters.some((entry) => reporterName(entry) === 'blob')
    // A blob run is a shard: the merged run adds itself, once.
    const history = writeArtifacts ? this.addToHistory(report, summary, completeness) : undefined
    const [, reportPage] = await Promise.all([
      writeArtifacts ? this.writeJson(toJsonReport(report, summary, completeness)) : undefined,
      writeArtifacts ? this.writeHtml(report, summary, history) : undefined,
      writeArtifacts
        ? this.writeJobSummary(
            async () =>
              renderMarkdown(report, summary) +
              (summary.judge.recorded > 0 ? await recordedVerdictChanges(root, used) : ''),
          )
        : undefined,
    ])
    const keyHint = missingKeyHint(
      errorMessages(testModules, unhandledErrors),
      summary.cassettes.modes,
    )
    return { report, summary, completeness, reportPage, keyHint }
  }

  private async facts(
    report: RunReport,
    testModules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<SerializedError>,
    reason: TestRunEndReason,
  ): Promise<RunFacts> {
    const ctx = this.ctx!
    const config = ctx.config
    this.suiteFiles = undefined
    const fileFilters = (ctx as unknown as { filenamePattern?: unknown }).filenamePattern
    const filesRun = new Set(testModules.map((m) => `${m.project.name}\0${m.moduleId}`)).size
    let filesTotal: number | undefined
    // Only a run that may be complete (or complete but for failed tests, which prune can still
    // use) needs the suite's full list of files.
    if ((reason === 'passed' || reason === 'failed') && !config.shard) {
      try {
        const specs = await ctx.globTestSpecifications()
        filesTotal = new Set(specs.map((s) => `${s.project.name}\0${s.moduleId}`)).size
        this.suiteFiles = [...new Set(specs.map((s) => s.moduleId))].sort()
      } catch {
        filesTotal = undefined
      }
    }
    const excludeFilters = (config as unknown as { cliExclude?: unknown }).cliExclude
    return {
      reason,
      unhandledErrors: unhandledErrors.length,
      excludeFilters: Array.isArray(excludeFilters) ? (excludeFilters as string[]) : undefined,
      testNamePattern: config.testNamePattern?.source,
      fileFilters: Array.isArray(fileFilters) ? (fileFilters as string[]) : undefined,
      projectFilters: config.project,
      shard: config.shard,
      filesRun,
      filesTotal,
      skippedTests: report.skippedTests,
      filesWithCassettesOff: report.files.filter((f) => f.cassettes?.mode === 'off').length,
    }
  }

  private async writeJson(json: RubricateJsonReport): Promise<void> {
    await this.writeReport(
      this.options.outputFile,
      'rubricate',
      () => `${JSON.stringify(json, null, 2)}\n`,
    )
  }

  // The page's path when it was written.
  private async writeHtml(
    report: RunReport,
    summary: RunSummary,
    history: PageHistory | undefined,
  ): Promise<string | undefined> {
    const root = this.ctx!.config.root
    // The previous report is read only when a page is written.
    const changes = this.reportTarget(this.options.htmlFile, 'rubricate-html')
      ? await this.changesAgainstPrevious(report, root)
      : undefined
    const written = await this.writeReport(this.options.htmlFile, 'rubricate-html', () =>
      renderHtml(report, summary, { root, finishedAt: new Date(), changes, history }),
    )
    if (written === undefined) return undefined
    return relative(root, written).startsWith('..') ? written : relative(root, written)
  }

  // The run, added to the history when one is set; the history's last runs for the page.
  private addToHistory(
    report: RunReport,
    summary: RunSummary,
    completeness: Completeness,
  ): PageHistory | undefined {
    const ctx = this.ctx!
    let path: string | undefined
    try {
      path = historyPath(this.options.history, ctx.config.root)
    } catch (error) {
      ctx.logger.error((error as Error).message)
      return undefined
    }
    if (!path) return undefined
    const added = addRunToHistory(path, ctx.config.root, report, summary, completeness.complete)
    if (typeof added === 'string') {
      ctx.logger.error(added)
      return undefined
    }
    return added
  }

  /** The diff against the report `compareWith` names; a report that cannot be read is said. */
  private async changesAgainstPrevious(
    report: RunReport,
    root: string,
  ): Promise<{ against: string; diff: ReportDiff } | undefined> {
    const option = this.options.compareWith ?? (process.env.RUBRICATE_COMPARE_WITH || undefined)
    if (!option) return undefined
    const path = isAbsolute(option) ? option : resolve(root, option)
    let previous: unknown
    try {
      previous = JSON.parse(await readFile(path, 'utf8'))
    } catch (error) {
      this.ctx!.logger.error(
        messages.compareReportUnreadable(path, String((error as Error).message)),
      )
      return undefined
    }
    // Checked member by member: one of the wrong type would throw while the page is made.
    const files = previousReportFiles(previous)
    if (typeof files === 'string') {
      this.ctx!.logger.error(messages.compareReportUnreadable(path, files))
      return undefined
    }
    return {
      // Relative to the root when inside it.
      against: relative(root, path).startsWith('..') ? path : relative(root, path) || path,
      diff: diffReports(files, report.files),
    }
  }

  // Where a report goes: the reporter option's path, else `test.outputFile[key]`, else nowhere.
  private reportTarget(option: string | undefined, key: string): string | undefined {
    const configured = this.ctx!.config.outputFile
    return option ?? (typeof configured === 'object' ? configured[key] : undefined)
  }

  // A report file, written where reportTarget says; its path when it was written.
  private async writeReport(
    option: string | undefined,
    key: string,
    content: () => string,
  ): Promise<string | undefined> {
    const ctx = this.ctx!
    const target = this.reportTarget(option, key)
    if (!target) return undefined
    const path = isAbsolute(target) ? target : resolve(ctx.config.root, target)
    try {
      await mkdir(dirname(path), { recursive: true })
      // Redacted as a whole: a key echoed in an output, a reasoning or a judge URL is in no field.
      await writeFile(path, redactOutput(content()))
      return path
    } catch (error) {
      ctx.logger.error(messages.reportNotWritten(path, String((error as Error).message)))
      return undefined
    }
  }

  // Rendered only when it is written: off GitHub Actions its cells' redaction was work for nothing.
  private async writeJobSummary(render: () => Promise<string>): Promise<void> {
    const path = process.env.GITHUB_STEP_SUMMARY
    if (!path || this.options.jobSummary === false) return
    const markdown = await render()
    if (!markdown) return
    try {
      await appendFile(path, redactOutput(markdown))
    } catch (error) {
      this.ctx!.logger.error(messages.reportNotWritten(path, String((error as Error).message)))
    }
  }

  /**
   * After a run that recorded: the entries it re-recorded are deleted, so that a changed request
   * (a reworded criterion) reads in a diff as one changed file instead of one added beside a
   * stale one. Only what prune would delete after this run, and only of tests that recorded anew.
   * In a run that is not complete (a `-t` or file filter, a shard, failures), only of the tests
   * that ran and `passed`: a test that was filtered out, failed or stopped before its call keeps
   * its entries.
   */
  private async pruneSuperseded(
    root: string,
    passed: readonly string[] | undefined,
  ): Promise<void> {
    let report: Awaited<ReturnType<typeof pruneCassettes>>
    try {
      report = await pruneCassettes(root, { superseded: true, passed })
    } catch {
      // No run marker or no cassette folder: nothing is deleted.
      return
    }
    const files = report.folders.flatMap((folder) => folder.deleted)
    if (files.length > 0) {
      this.ctx!.logger.log(messages.supersededPruned(files.map((file) => relative(root, file))))
    }
  }

  private async writeMarker(
    root: string,
    completeness: Completeness,
    used: Map<string, Set<string>>,
    files: string[] | undefined,
    passed: string[],
  ): Promise<void> {
    const configFile = this.ctx!.vite?.config.configFile
    // A run that ran every test but had failures: prune may still delete what passed tests left.
    const failedOnly =
      !completeness.complete &&
      completeness.reasons.length === 1 &&
      completeness.reasons[0] === messages.incomplete.failed()
    try {
      await writeRunMarker(root, {
        v: 1,
        config: typeof configFile === 'string' ? configFile : undefined,
        files,
        ...(failedOnly ? { passed } : {}),
        startedAt: this.startedAt.toISOString(),
        finishedAt: new Date().toISOString(),
        complete: completeness.complete,
        reasons: completeness.reasons,
        cassettes: [...used].map(([dir, keys]) => ({ dir, used: [...keys].sort() })),
      })
    } catch (error) {
      const reason = String((error as Error).message)
      this.ctx!.logger.error(
        messages.markerNotWritten(
          runMarkerPath(root, typeof configFile === 'string' ? configFile : undefined),
          reason,
        ),
      )
    }
  }
}

/** The name of a reporter entry of the resolved config: `'default'`, `'blob'`, a path... @internal */
export function reporterName(entry: unknown): string | undefined {
  if (typeof entry === 'string') return entry
  if (Array.isArray(entry) && typeof entry[0] === 'string') return entry[0]
  return undefined
}

/**
 * When the run re-recorded judge calls: per cassette folder, the verdicts and scores that changed
 * against the committed state (`rubricate cassettes diff --against HEAD`), for the job summary.
 * Only when a job summary is written; outside a git repository, nothing.
 */
async function recordedVerdictChanges(
  root: string,
  used: Map<string, Set<string>>,
): Promise<string> {
  if (!process.env.GITHUB_STEP_SUMMARY) return ''
  let out = ''
  for (const dir of used.keys()) {
    try {
      const committed = await committedFolder(root, dir, 'HEAD')
      try {
        const diff = await diffCassetteFolders(committed.dir, dir)
        out += renderCassetteDiffMarkdown(diff, relative(root, dir) || '.', 'HEAD')
      } finally {
        await committed.cleanup()
      }
    } catch {
      // Not a git repository, or git missing: the summary goes without the diff.
    }
  }
  return out
}

/**
 * `<absolute test file> > <full name>` of every test that passed, the form prune compares. A
 * label that a test which did not pass also carries (two tests of one name, `test.each` rows
 * alike, a suite named `a > b` beside suites `a` and `b`, one file run by two projects) is left
 * out: an entry says only its label, so prune could not tell which of them recorded it, and the
 * one that failed before its call may need it.
 */
function passedTests(testModules: ReadonlyArray<TestModule>): string[] {
  const allPassed = new Map<string, boolean>()
  for (const module of testModules) {
    for (const test of module.children.allTests()) {
      const label = `${module.moduleId} > ${test.fullName}`
      allPassed.set(label, (allPassed.get(label) ?? true) && test.result().state === 'passed')
    }
  }
  return [...allPassed].flatMap(([label, passed]) => (passed ? [label] : [])).sort()
}

function usedKeysByDir(report: RunReport): Map<string, Set<string>> {
  const used = new Map<string, Set<string>>()
  for (const file of report.files) {
    if (!file.cassettes) continue
    const keys = used.get(file.cassettes.dir) ?? new Set<string>()
    used.set(file.cassettes.dir, keys)
    for (const key of file.cassettes.used) keys.add(key)
  }
  return used
}

async function countUnused(used: Map<string, Set<string>>): Promise<number | undefined> {
  try {
    let unused = 0
    for (const [dir, keys] of used) {
      const { entries } = await storeFor(currentRuntime().stores, dir).list()
      for (const entry of entries) if (!keys.has(entry.key)) unused++
    }
    return unused
  } catch {
    // An unreadable folder only costs the count; the run itself is not affected.
    return undefined
  }
}
