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
    ...FOOTNOTES,
  ].join('\n')
}

const FOOTNOTES = [
  'Method',
  '  Medians throughout: a figure is the median over runs (or batches) of each run’s median, and a',
  '  difference is the median of the per-run differences. The machine is shared: wall times grow',
  '  with its load (see the load average above); the CPU times shown alongside grow much less.',
  '  1, 2, 4: a generated Vitest project with rubricate installed from dist/ in its node_modules',
  '  (the plugin, its setup file, the matchers, the cassette store), its cassettes recorded first',
  '  against startFakeOpenAI, then replayed with the judge pointed at a closed port. 1 interleaves',
  '  plain `expect(x).toBe(x)` tests and replayed `toSatisfyRubric` tests in one file and compares',
  '  the per-test durations Vitest reports (hooks included); the assertion alone, timed inside the',
  '  test, is shown for comparison. 2 is the duration Vitest reports for a file of plain rubric',
  '  tests (its tests); the setup file and the import of the test file are shown apart.',
  '  3: a rubric scorer run (cassettes off) against a bare `openai` SDK call sending the same',
  '  request to the same instant judge on loopback, interleaved call by call.',
  '  4: the first replayed test of a fresh `vitest run` with the big cassette folder against the',
  '  same with a folder of one entry, alternated. 5, 6: `rubricate cassettes stats|verify` over the',
  '  big folder, timed from spawn to exit.',
  '  7: scorer runs started together (Promise.all), live through the judge transport, against a',
  '  loopback judge that answers each request after a fixed latency; judgeConcurrency at its default.',
  '  8, 9: in-process micro-benchmarks of the replay paths (bench/cassettes.ts): 8 is the path a',
  '  replayed judge request takes (straight from the store; judgeFetch, its path through the SDK',
  '  when the store cannot answer directly, is shown alongside), 9 an agent’s call through msw.',
  '  10: a rubric scorer run replayed from a cassette recorded just before (prompt, key, read,',
  '  parse and check of the entry, verdicts and score), in-process (bench/scorer-replay.ts).',
]
