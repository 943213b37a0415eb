// The figures of a benchmark run as a table for the terminal and as bench/results.json.
import { cpus, freemem, loadavg, totalmem } from 'node:os'

/** One figure held against its ARCHITECTURE.md §10 target. */
export interface Figure {
  id: string
  /** What was measured, as the table shows it. */
  label: string
  /** The median (or ratio) held against the target. */
  value: number
  unit: 'ms' | 'x'
  /** The target as ARCHITECTURE.md §10 states it, e.g. `<= 0.6 ms`; `undefined` for a figure shown for scale. */
  target?: { op: '<=' | '<'; limit: number } | undefined
  /** Other figures of the same measurement, shown after the value. */
  detail: string
  /** The raw figures of the measurement. */
  data: unknown
}

/** A figure as written to results.json. */
export interface FigureResult extends Omit<Figure, 'target'> {
  target: string | null
  /** `value / limit` when there is a target. */
  ofTarget: number | null
  pass: boolean | null
}

/** The machine, as results.json describes it. */
export interface MachineInfo {
  node: string
  platform: string
  cpu: string
  cores: number
  memoryGiB: number
  freeMemoryGiB: number
  /** 1-minute load average at the start and the end of the run. */
  loadAverage: { start: number; end: number }
}

/** What the machine is, with the load average at the start of the run. */
export function machineInfo(loadAtStart: number): MachineInfo {
  const gib = (bytes: number) => Math.round((bytes / 2 ** 30) * 10) / 10
  return {
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    cpu: cpus()[0]?.model.trim() ?? 'unknown',
    cores: cpus().length,
    memoryGiB: gib(totalmem()),
    freeMemoryGiB: gib(freemem()),
    loadAverage: { start: loadAtStart, end: currentLoad() },
  }
}

/** The 1-minute load average, rounded. */
export function currentLoad(): number {
  return Math.round((loadavg()[0] ?? 0) * 100) / 100
}

/** A figure with its pass/fail. */
export function judged(figure: Figure): FigureResult {
  const { target, ...rest } = figure
  if (!target) return { ...rest, target: null, ofTarget: null, pass: null }
  const pass = target.op === '<=' ? figure.value <= target.limit : figure.value < target.limit
  return {
    ...rest,
    target: `${target.op} ${target.limit}${figure.unit === 'x' ? 'x' : ` ${figure.unit}`}`,
    ofTarget: Math.round((figure.value / target.limit) * 100) / 100,
    pass,
  }
}

/** The table printed at the end of a run, with its footnotes. */
export function renderTable(figures: readonly FigureResult[], machine: MachineInfo): string {
  const rows = figures.map((figure, index) => [
    String(index + 1),
    figure.label,
    figure.unit === 'x' ? `${figure.value}x` : `${figure.value} ms`,
    figure.target ?? '(for scale)',
    figure.pass === null ? '' : `${figure.pass ? 'pass' : 'MISS'} (${figure.ofTarget} of target)`,
  ])
  const header = ['#', 'Figure', 'Median', 'Target', 'Result']
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => row[column]?.length ?? 0)),
  )
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd()
  const details = figures.map((figure, index) => `  ${index + 1}. ${figure.detail}`)
  return [
    `rubricate benchmarks (ARCHITECTURE.md §10) · ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB · Node ${machine.node} · load average ${machine.loadAverage.start} → ${machine.loadAverage.end}`,
    '',
    line(header),
    line(widths.map((width) => '-'.repeat(width))),
    ...rows.map(line),
    '',
    'Details',
    ...details,
    '',
    ...methodNotes(figures),
  ].join('\n')
}

// How each figure is measured, by id; the table prints the notes of the figures it shows.
const METHOD: Record<string, string> = {
  'suite-plugin':
    "A generated project of test files (bench/suite-project.ts) run whole with `vitest run` as a child process under CI=true, with rubricate installed from dist/ in its node_modules. Each round runs four variants of the same suite in a rotated order: without rubricate (plain `toContain` tests, no plugin), with the plugin and the same tests, every test a replayed `toSatisfyRubric`, and one file in five of rubric tests. CPU is user + system of the whole process tree (the main process and every worker), read from /proc/self/stat (the reaped children's cutime + cstime) around each run. A ratio is the median over rounds of the round's CPU over the plain suite's CPU of the same round.",
  'suite-rubric':
    'As above; the cassettes were recorded once against startFakeOpenAI, and every measured run replays them with the judge at a closed port.',
  'suite-mix': 'As above: files 0, 5, 10... hold rubric tests, the others plain tests.',
  'suite-worker-file':
    "Each Node process of every run appends its own CPU (process.cpuUsage) at exit (bench/worker-cpu.cjs, preloaded with NODE_OPTIONS): Vitest's main process, and one fork per test file. A run's figure is the median of its workers; the extra is the median over rounds of the plugin's worker median minus the plain suite's of the same round. Far steadier than the fit below: each round gives one figure per file.",
  'suite-per-file':
    "rubricate's extra CPU (the paired difference to the plain suite) fitted by least squares as a + b·files + c·tests over four sizes: the headline, half its files, twice its tests, and both.",
  'suite-per-test': 'The same fit, for the suite of rubric tests.',
  'shared-threads-plugin':
    "The headline suite's four variants again, every run with `--no-isolate --pool=threads` (files sharing workers, the setup of `rubricate init --fast`), in rotated order; each ratio pairs a variant with the plain suite run in the same setup in the same round.",
  'shared-threads-rubric': 'As above.',
  'shared-threads-mix': 'As above.',
  'shared-forks-plugin': 'As above, with `--pool=forks`.',
  'shared-forks-rubric': 'As above, with `--pool=forks`.',
  'shared-forks-mix': 'As above, with `--pool=forks`.',
  'replay-overhead':
    'One generated file interleaving plain `expect(x).toBe(x)` tests and replayed `toSatisfyRubric` tests: the per-test durations Vitest reports (hooks included); the assertion alone, timed inside the test, is shown for comparison.',
  'replay-1000':
    'The duration Vitest reports for one file of replayed rubric tests (its tests); the setup file and the import of the test file are shown apart.',
  'live-overhead':
    'A rubric scorer run (cassettes off) against a bare `openai` SDK call sending the same request to the same instant judge on loopback, interleaved call by call.',
  'store-startup':
    'The first replayed test of a fresh `vitest run` with the big cassette folder against the same with a folder of one entry, alternated.',
  'store-stats': '`rubricate cassettes stats` over the big folder, timed from spawn to exit.',
  'store-verify': '`rubricate cassettes verify` over the big folder, timed from spawn to exit.',
  concurrency:
    'Scorer runs started together (Promise.all), live through the judge transport, against a loopback judge that answers each request after a fixed latency; judgeConcurrency at its default.',
  'judge-replay-call':
    'In-process micro-benchmark (bench/cassettes.ts) of the path a replayed judge request takes (straight from the store; judgeFetch, its path through the SDK, alongside).',
  'scorer-replay':
    'A rubric scorer run replayed from a cassette recorded just before (prompt, key, read, parse and check of the entry, verdicts and score), in-process (bench/scorer-replay.ts).',
  'msw-replay-call': "In-process micro-benchmark of an agent's call through msw.",
}

function methodNotes(figures: readonly FigureResult[]): string[] {
  return [
    'Method',
    '  Medians throughout. The machine is shared: wall times grow with its load (see the load',
    '  average above); CPU times grow much less.',
    ...figures.map((figure, index) => `  ${index + 1}. ${METHOD[figure.id] ?? ''}`),
  ]
}
