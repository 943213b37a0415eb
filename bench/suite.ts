// `npm run bench`: every figure of ARCHITECTURE.md §10, a table, and bench/results.json. The headline is
// the suite benchmark (suite-figures.ts): a generated project run whole, paired with itself without
// rubricate. Options:
//   --files N --tests N    the headline suite's size (default 20 files x 10 tests)
//   --rounds N             paired rounds at that size (default 5); --fit-rounds N at the three
//                          other sizes of the per-file and per-test fit (default 3)
//   --suite-only           the suite benchmark alone (isolated and shared workers), without the
//                          figures below it
//   --shared-only          the shared-worker suite alone (isolate: false, both pools), with the
//                          peer row
//   --no-peer              without the peer row (promptfoo's cached run, installed once from npm)
//   --dist <folder>        the suite benchmark measures this build instead of dist/ (a copy of an
//                          older build, to compare two)
//   --quick                the same harness in a tiny configuration (seconds, figures meaningless),
//                          so that `npm test` notices a broken benchmark
//   --out <file>           write the results there instead of bench/results.json
//   --keep                 leave the scratch folder
import { rm, writeFile } from 'node:fs/promises'
import { join, relative, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import type { CassetteBenchFigures } from './cassettes'
import type { ConcurrencyFigures } from './concurrency'
import type { LiveOverheadFigures } from './live-overhead'
import { median, round, runChild } from './measure'
import { measurePromptfooPeer, PROMPTFOO_VERSION } from './promptfoo-peer'
import { measureReplayOverhead, measureThousand } from './replay-figures'
import { recordProject, writeReplayProject } from './replay-project'
import { currentLoad, type Figure, judged, machineInfo, renderTable } from './report'
import type { ScorerReplayFigures } from './scorer-replay'
import { measureStore } from './store'
import {
  measureSharedSuite,
  measureSuite,
  prepareSuite,
  rubricFiles,
  SHARED_POOLS,
  type SharedSuiteFigures,
  type SuiteFigures,
} from './suite-figures'
import { runSuiteProject, type SuiteSize, variantDir } from './suite-project'

const benchDir = import.meta.dirname
const repoRoot = join(benchDir, '..')

const FULL = {
  suite: { size: { files: 20, tests: 10 }, rounds: 5, fitRounds: 3 },
  micro: { iterations: 2000 },
  scorer: { batches: 5, runs: 1000 },
  live: { batches: 5, calls: 200 },
  concurrency: { calls: 100, latencyMs: 200, runs: 3 },
  project: { pairs: 300, thousand: 1000, startup: 1 },
  replayRuns: 5,
  store: { entries: 10_000, runs: 7 },
}
const QUICK: typeof FULL = {
  suite: { size: { files: 2, tests: 2 }, rounds: 1, fitRounds: 1 },
  micro: { iterations: 50 },
  scorer: { batches: 1, runs: 20 },
  live: { batches: 1, calls: 20 },
  concurrency: { calls: 12, latencyMs: 20, runs: 1 },
  project: { pairs: 5, thousand: 20, startup: 1 },
  replayRuns: 1,
  store: { entries: 50, runs: 1 },
}

/** Run the suite; resolves to the process exit code (0 once every figure was measured). */
export async function runSuite(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      quick: { type: 'boolean' },
      out: { type: 'string' },
      keep: { type: 'boolean' },
      files: { type: 'string' },
      tests: { type: 'string' },
      rounds: { type: 'string' },
      'fit-rounds': { type: 'string' },
      'suite-only': { type: 'boolean' },
      'shared-only': { type: 'boolean' },
      'no-peer': { type: 'boolean' },
      dist: { type: 'string' },
    },
  })
  const base = values.quick ? QUICK : FULL
  const sizes = {
    ...base,
    suite: {
      size: {
        files: count('--files', values.files, base.suite.size.files),
        tests: count('--tests', values.tests, base.suite.size.tests),
      },
      rounds: count('--rounds', values.rounds, base.suite.rounds),
      fitRounds: count('--fit-rounds', values['fit-rounds'], base.suite.fitRounds),
      dist: values.dist === undefined ? undefined : resolve(values.dist),
    },
  }
  // The quick configuration runs the shared-worker suite under one pool: it checks the harness.
  const sharedOptions = {
    ...sizes.suite,
    pools: values.quick ? (['threads'] as const) : SHARED_POOLS,
  }
  const out = values.out ?? join(benchDir, 'results.json')
  const loadAtStart = currentLoad()
  const started = performance.now()
  const finish = async (figures: Figure[], extra: Record<string, unknown>): Promise<number> => {
    const machine = machineInfo(loadAtStart)
    const results = figures.map(judged)
    console.log(renderTable(results, machine))
    const durationS = Math.round((performance.now() - started) / 100) / 10
    await writeFile(
      out,
      `${JSON.stringify(
        {
          date: new Date().toISOString(),
          command: values.quick ? 'node bench/run.mjs --quick' : 'npm run bench',
          argv,
          quick: values.quick === true,
          durationS,
          machine,
          ...extra,
          figures: results,
        },
        null,
        2,
      )}\n`,
    )
    log(`done in ${durationS} s; results in ${relative(process.cwd(), out)}`)
    return 0
  }
  const scratch = join(benchDir, '.tmp', `run-${process.pid}`)
  const log = (text: string) =>
    process.stderr.write(`[bench ${((performance.now() - started) / 1000).toFixed(0)}s] ${text}\n`)
  try {
    const { files, tests } = sizes.suite.size
    log(`the suite benchmark: ${files} files x ${tests} tests, whole vitest runs under CI=true`)
    if (values['shared-only']) {
      const recordedJudgeCalls = await prepareSuite(join(scratch, 'suite'), sizes.suite)
      const shared = await measureSharedSuite(join(scratch, 'suite'), sharedOptions, log)
      const peer = await peerFigures(scratch, sizes.suite, values, log)
      return await finish([...sharedFigures(shared), ...peer], { recordedJudgeCalls })
    }
    const suite = await measureSuite(join(scratch, 'suite'), sizes.suite, log)
    log('the same suite with its files sharing workers (isolate: false)')
    const shared = await measureSharedSuite(join(scratch, 'suite'), sharedOptions, log)
    const peer = await peerFigures(scratch, sizes.suite, values, log)
    const figures: Figure[] = [...suiteFigures(suite), ...sharedFigures(shared), ...peer]
    if (values['suite-only']) {
      return await finish(figures, { recordedJudgeCalls: suite.recordedJudgeCalls })
    }

    log('micro-benchmarks of the replay paths')
    const micro = await runBench<CassetteBenchFigures>('cassettes', sizes.micro)
    log('replayed rubric scorer runs')
    const scorer = await runBench<ScorerReplayFigures>('scorer-replay', sizes.scorer)
    log('live overhead against an instant judge')
    const live = await runBench<LiveOverheadFigures>('live-overhead', sizes.live)
    log('concurrent assertions against a slow judge')
    const concurrency = await runBench<ConcurrencyFigures>('concurrency', sizes.concurrency)

    const root = join(scratch, 'project')
    log(`generating the Vitest project in ${relative(repoRoot, root)} and recording its cassettes`)
    await writeReplayProject(root, sizes.project)
    const recorded = await recordProject(root, [])
    log(`replay overhead per assertion (${sizes.replayRuns} runs)`)
    const overhead = await measureReplayOverhead(root, sizes.replayRuns)
    log(`${sizes.project.thousand} replayed assertions in one file (${sizes.replayRuns} runs)`)
    const thousand = await measureThousand(root, sizes.replayRuns)
    log(`a cassette folder of ${sizes.store.entries} entries`)
    const store = await measureStore(root, sizes.store.entries, sizes.store.runs)

    figures.push(
      {
        id: 'replay-overhead',
        label: 'Replayed toSatisfyRubric over a plain expect test, per test, in one file',
        value: overhead.overheadMs,
        unit: 'ms',
        detail: `plain test ${overhead.plainTestMs} ms, rubric test ${overhead.rubricTestMs} ms (${overhead.ratio}x); the assertion alone ${overhead.plainAssertionMs} vs ${overhead.rubricAssertionMs} ms; ${overhead.pairs} pairs, ${overhead.runs} runs`,
        data: overhead,
      },
      {
        id: 'replay-1000',
        label: `${thousand.tests} replayed rubric assertions in one file`,
        value: thousand.testsMs,
        unit: 'ms',
        target: { op: '<', limit: 2000 },
        detail: `the tests ${thousand.testsMs} ms (CPU time of the worker ${thousand.testsCpuMs} ms); with the setup file and the import of the test file ${thousand.fileMs} ms; the whole vitest run ${thousand.processMs} ms; ${thousand.runs} runs`,
        data: thousand,
      },
      {
        id: 'live-overhead',
        label: 'Live framework overhead per judge call (instant judge)',
        value: live.overheadMs,
        unit: 'ms',
        target: { op: '<=', limit: 1 },
        detail: `rubric scorer run ${live.rubricateMs} ms vs bare SDK call ${live.bareSdkMs} ms; CPU time ${live.rubricateCpuMs} vs ${live.bareSdkCpuMs} ms; ${live.calls} pairs x ${live.batches} batches`,
        data: live,
      },
      {
        id: 'store-startup',
        label: `Start-up cost of ${store.entries} entries (first replay)`,
        value: store.startupCostMs,
        unit: 'ms',
        // "Nothing" as measured: no more than the first replay varies by itself from run to run.
        target: { op: '<=', limit: Math.max(5, store.firstReplaySpreadMs) },
        detail: `first replayed test ${store.firstReplayManyMs} ms with ${store.entries} entries vs ${store.firstReplayOneMs} ms with 1 (target: within the spread of the runs with 1 entry, their interquartile range ${store.firstReplaySpreadMs} ms, at least 5 ms); whole vitest run ${store.runManyMs} vs ${store.runOneMs} ms; ${(store.bytes / 2 ** 20).toFixed(1)} MiB; ${store.runs} runs each`,
        data: store,
      },
      {
        id: 'store-stats',
        label: `rubricate cassettes stats over ${store.entries} entries`,
        value: store.statsMs,
        unit: 'ms',
        target: { op: '<', limit: 2000 },
        detail: 'from spawn to exit, Node start-up included',
        data: { statsMs: store.statsMs, runs: store.runs },
      },
      {
        id: 'store-verify',
        label: `rubricate cassettes verify over ${store.entries} entries`,
        value: store.verifyMs,
        unit: 'ms',
        target: { op: '<', limit: 2000 },
        detail:
          'from spawn to exit, Node start-up included; every key recomputed, every entry scanned for secrets',
        data: { verifyMs: store.verifyMs, runs: store.runs },
      },
      {
        id: 'concurrency',
        label: `${concurrency.calls} concurrent assertions, judge at ${concurrency.latencyMs} ms, wall / ideal`,
        value: concurrency.ratio,
        unit: 'x',
        target: { op: '<=', limit: 1.3 },
        detail: `${concurrency.wallMs} ms against the ideal ${concurrency.idealMs} ms = ceil(${concurrency.calls}/${concurrency.judgeConcurrency}) x ${concurrency.latencyMs} ms; at most ${concurrency.peakInFlight} requests at the judge at once; ${concurrency.runs} runs`,
        data: concurrency,
      },
      {
        id: 'judge-replay-call',
        label: 'Judge replay path per call (micro)',
        value: micro.judgeReplayWithSdkMs,
        unit: 'ms',
        target: { op: '<', limit: 0.3 },
        detail: `the judge's one path, through the openai SDK and the engine's exchange; judgeFetch alone ${micro.judgeReplayMs} ms (the SDK alone ${micro.sdkBaselineMs} ms); ${micro.requestBytes} B request; ${micro.iterations} calls`,
        data: micro,
      },
      {
        id: 'scorer-replay',
        label: 'Replayed rubric scorer run (createRubricScorer(...).run(), outside Vitest)',
        value: scorer.scorerReplayMs,
        unit: 'ms',
        detail: `batch medians ${scorer.perBatch.join(', ')} ms; ${scorer.runs} runs x ${scorer.batches} batches`,
        data: scorer,
      },
      {
        id: 'msw-replay-call',
        label: 'Agent replay path per call (openai SDK through msw, micro)',
        value: micro.mswReplayMs,
        unit: 'ms',
        detail: `msw with one trivial handler ${micro.mswBaselineMs} ms; ${micro.iterations} calls`,
        data: micro,
      },
    )
    return await finish(figures, {
      recordedJudgeCalls: suite.recordedJudgeCalls + recorded,
    })
  } finally {
    if (!values.keep) await rm(scratch, { recursive: true, force: true })
  }
}

/** Run one in-process benchmark in a fresh process of its own, and return its figures. */
async function runBench<T>(name: string, options: unknown): Promise<T> {
  const child = await runChild(
    process.execPath,
    [join(benchDir, 'run.mjs'), name, JSON.stringify(options)],
    { cwd: repoRoot, env: pinnedEnv(), timeoutMs: 300_000 },
  )
  if (child.exitCode !== 0) {
    throw new Error(`bench/${name}.ts failed (exit code ${child.exitCode}):\n${child.stderr}`)
  }
  return JSON.parse(child.stdout) as T
}

// The benchmarks set their own judge and cassette mode; none of this machine's RUBRICATE_*,
// OPENAI_* or CI variables may change what they measure.
function pinnedEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [name, value] of Object.entries(process.env)) {
    if (/^(RUBRICATE_|OPENAI_)/.test(name) || name === 'CI') continue
    env[name] = value
  }
  return env
}

/** The suite benchmark's figures: three paired ratios with their targets, then the fitted costs. */
function suiteFigures(suite: SuiteFigures): Figure[] {
  const { size, rounds } = suite
  const headline = suite.sizes[0]?.variants
  if (!headline)
    throw new Error('The suite benchmark measured no size. This is a bug in the bench.')
  const of = (variant: 'plugin' | 'rubric' | 'mix') => {
    const v = headline[variant]
    return `${v.cpuMs} ms CPU against ${headline.plain.cpuMs} ms without rubricate (+${v.extraCpuMs} ms); wall ${v.wallMs} against ${headline.plain.wallMs} ms; ${rounds} paired rounds`
  }
  const ratio = (variant: 'plugin' | 'rubric' | 'mix', label: string, limit: number): Figure => ({
    id: `suite-${variant}`,
    label: `${label} (${size.files} files x ${size.tests} tests), CPU / without rubricate`,
    value: headline[variant].ratio,
    unit: 'x',
    target: { op: '<=', limit },
    detail: of(variant),
    data: headline[variant],
  })
  const fits = suite.extraFit
  return [
    ratio('plugin', 'Suite with the plugin, no rubric assertion', 1.05),
    ratio('rubric', 'Suite of replayed rubric assertions only', 1.3),
    ratio(
      'mix',
      `Suite with rubric tests in ${rubricFiles('mix', size)} of ${size.files} files`,
      1.1,
    ),
    {
      id: 'suite-worker-file',
      label: 'rubricate CPU per test file, measured in the workers (plugin, no rubric assertion)',
      value: headline.plugin.extraWorkerCpuMs ?? Number.NaN,
      unit: 'ms',
      detail: `median CPU of one worker (one test file) ${headline.plugin.workerCpuMs} ms against ${headline.plain.workerCpuMs} ms without rubricate; every test a replayed rubric assertion ${headline.rubric.workerCpuMs} ms; Vitest's main process ${headline.plugin.mainCpuMs} ms against ${headline.plain.mainCpuMs} ms; ${rounds} paired rounds`,
      data: {
        plain: headline.plain.workerCpuMs,
        plugin: headline.plugin.workerCpuMs,
        rubric: headline.rubric.workerCpuMs,
        mainPlain: headline.plain.mainCpuMs,
        mainPlugin: headline.plugin.mainCpuMs,
      },
    },
    {
      id: 'suite-per-file',
      label: 'rubricate CPU per test file (plugin, no rubric assertion)',
      value: fits.plugin.perFileMs,
      unit: 'ms',
      detail: `fitted extra CPU of the plugin = ${fits.plugin.perRunMs} ms a run + ${fits.plugin.perFileMs} ms a file + ${fits.plugin.perTestMs} ms a test; Vitest's own CPU without rubricate = ${suite.plainFit.perRunMs} + ${suite.plainFit.perFileMs} a file + ${suite.plainFit.perTestMs} a test`,
      data: { plugin: fits.plugin, plain: suite.plainFit, sizes: suite.sizes },
    },
    {
      id: 'suite-per-test',
      label: 'rubricate CPU per replayed rubric assertion, in a suite',
      value: fits.rubric.perTestMs,
      unit: 'ms',
      detail: `fitted extra CPU of a suite of rubric tests = ${fits.rubric.perRunMs} ms a run + ${fits.rubric.perFileMs} ms a file + ${fits.rubric.perTestMs} ms a test, over ${suite.sizes.map((s) => `${s.size.files}x${s.size.tests}`).join(', ')} (${suite.fitRounds} paired rounds each beside the headline)`,
      data: fits.rubric,
    },
  ]
}

/**
 * The peer row: promptfoo's cached run of the suite's cases, each round paired with the plain
 * suite under Vitest's defaults (the issue's table). Not in the quick configuration, nor with
 * `--no-peer`; a promptfoo that does not install is a row that says why.
 */
async function peerFigures(
  scratch: string,
  suite: { size: SuiteSize; rounds: number },
  values: { quick?: boolean | undefined; 'no-peer'?: boolean | undefined },
  log: (text: string) => void,
): Promise<Figure[]> {
  if (values.quick || values['no-peer']) return []
  const { size, rounds } = suite
  const plain: number[] = []
  const cassettes = join(scratch, 'suite', 'cassettes')
  log(`promptfoo's cached run of the same ${size.files * size.tests} cases (peer row)`)
  const peer = await measurePromptfooPeer(
    join(scratch, 'suite'),
    size,
    rounds,
    async () => {
      const dir = variantDir(join(scratch, 'suite'), size, 'plain')
      plain.push((await runSuiteProject(dir, cassettes, size.files * size.tests)).cpuMs)
    },
    log,
  )
  const label = `promptfoo ${PROMPTFOO_VERSION}'s cached run of the same ${size.files * size.tests} cases (peer: one process, no Vitest), CPU / the plain suite under Vitest's defaults`
  if (!peer.measured) {
    return [
      {
        id: 'peer-promptfoo',
        label,
        value: Number.NaN,
        unit: 'x',
        detail: `not measured: ${peer.reason}`,
        data: peer,
      },
    ]
  }
  const ratios = peer.cpuMs.map((cpu, r) => cpu / (plain[r] as number))
  return [
    {
      id: 'peer-promptfoo',
      label,
      value: round(median(ratios), 3),
      unit: 'x',
      detail: `${peer.version}: ${median(peer.cpuMs)} ms CPU against ${median(plain)} ms for the plain suite; ${rounds} paired rounds`,
      data: { ...peer, plainCpuMs: plain },
    },
  ]
}

/**
 * The shared-worker suite's figures: per pool, the three variants paired with the plain suite in
 * the same setup, and the plain suite's own CPU against its isolated run (what sharing saves).
 */
function sharedFigures(shared: SharedSuiteFigures): Figure[] {
  const { size, rounds } = shared
  return SHARED_POOLS.flatMap((pool) => {
    const figures = shared.pools[pool]
    if (figures === undefined) return []
    const ratio = (variant: 'plugin' | 'rubric' | 'mix', label: string, limit: number): Figure => {
      const v = figures[variant]
      return {
        id: `shared-${pool}-${variant}`,
        label: `${label}, files sharing workers (isolate: false, pool ${pool}; ${size.files} files x ${size.tests} tests), CPU / the plain suite in the same setup`,
        value: v.ratio,
        unit: 'x',
        target: { op: '<=', limit },
        detail: `${v.cpuMs} ms CPU against ${figures.plain.cpuMs} ms for the plain suite in the same setup (+${v.extraCpuMs} ms); wall ${v.wallMs} against ${figures.plain.wallMs} ms; ${rounds} paired rounds`,
        data: v,
      }
    }
    return [
      ratio('plugin', 'Suite with the plugin, no rubric assertion', 1.05),
      ratio('rubric', 'Suite of replayed rubric assertions only', 1.3),
      ratio(
        'mix',
        `Suite with rubric tests in ${rubricFiles('mix', size)} of ${size.files} files`,
        1.1,
      ),
    ]
  })
}

function count(flag: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback
  const parsed = Number(value)
  if (!Number.isInteger(parsed) || parsed < 1) {
    throw new Error(`${flag} takes a whole number of at least 1, not "${value}".`)
  }
  return parsed
}
