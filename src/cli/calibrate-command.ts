import { type CalibrationResult, calibrateJudge } from '../calibrate/calibrate-judge'
import {
  calibrationTable,
  disagreementLines,
  formatRate,
  formatValue,
} from '../calibrate/calibration-table'
import { compareJudges } from '../calibrate/compare-judges'
import { messages } from '../messages'
import type { JudgeInput } from '../records/records'
import { currentRuntime } from '../runtime/runtime'
import { runtimeState } from '../runtime/state'
import { cassetteDirFor } from './cassette-dir'
import { cliMessages } from './cli-messages'
import {
  type CommandIO,
  CommandLineError,
  commandLineError,
  EXIT,
  parseCommandOptions,
} from './command-options'

// Disagreements printed per judge; --json holds them all.
const SHOWN_DISAGREEMENTS = 10

/**
 * `rubricate calibrate <labels> [--judge X] [--compare Y] [--samples n] [--dir folder] [--json]`:
 * calibrate a judge against a labelled set and print the metrics table; with `--compare`, the
 * same for a second judge and how the two agree. Judge calls go through the cassette folder, so a
 * second run replays offline. Arguments in, text out, an exit code back.
 * @internal
 */
export async function calibrateCommand(argv: readonly string[], io: CommandIO): Promise<number> {
  const { values, positionals } = parseCommandOptions('calibrate', argv, {
    judge: { type: 'string' },
    compare: { type: 'string' },
    samples: { type: 'string' },
    dir: { type: 'string' },
    config: { type: 'string' },
  })
  if (values.help) {
    io.out(cliMessages.calibrateUsage())
    return EXIT.ok
  }
  if (positionals.length !== 1) {
    throw commandLineError(
      positionals.length === 0
        ? '"rubricate calibrate" needs the path of a labelled set (.jsonl or .json)'
        : `"rubricate calibrate" takes one labelled set, but got ${positionals.length}: ${positionals.map((p) => `"${p}"`).join(', ')}`,
    )
  }
  const samples = values.samples === undefined ? 1 : Number(values.samples)
  if (!Number.isInteger(samples) || samples < 1) {
    throw new CommandLineError(
      messages.notPositiveInteger('rubricate calibrate --samples', values.samples),
    )
  }
  const judge = judgeFrom(values.judge as string | undefined)
  const compare =
    values.compare === undefined ? undefined : judgeFrom(values.compare as string | undefined)
  const state = runtimeState()
  const runtime = currentRuntime()
  const { layers } = runtime
  const saved = { configured: layers.configured, root: state.run.root }
  // The current folder is the project root: the labelled set and the cassette folder resolve
  // against it. Restored afterwards, for a caller that runs the command in its own process.
  state.run.root = io.cwd
  runtime.configure({
    cassettes: {
      dir: await cassetteDirFor(
        io.cwd,
        values.dir as string | undefined,
        values.config as string | undefined,
      ),
    },
  })
  try {
    const labels = positionals[0] as string
    const first = await calibrateJudge({ judge, labels, samples })
    const second = compare && (await calibrateJudge({ judge: compare, labels, samples }))
    const agreement = second && compareJudges(first.judgements, second.judgements)
    if (values.json) {
      io.out(
        JSON.stringify(
          { calibration: first, ...(second && { compare: second, agreement }) },
          null,
          2,
        ),
      )
      return EXIT.ok
    }
    const blocks = [resultLines(first)]
    if (second && agreement) {
      blocks.push(resultLines(second))
      blocks.push([
        messages.calibrationCompare(first.judge, second.judge),
        messages.calibrationCompareFacts(first.judge, second.judge, {
          n: agreement.n,
          agreement: formatRate(agreement.accuracy, false),
          kappa: formatValue(agreement.kappa),
          passes: agreement.counts.falsePass,
          fails: agreement.counts.falseFail,
        }),
      ])
    }
    io.out(blocks.map((lines) => lines.join('\n')).join('\n\n'))
    return EXIT.ok
  } finally {
    layers.configured = saved.configured
    state.run.root = saved.root
  }
}

function resultLines(result: CalibrationResult): string[] {
  const count = (source: string) =>
    result.judgeCalls.filter((call) => call.source === source).length
  return [
    messages.calibrationHeadline(
      result.judge,
      result.source,
      result.examples,
      result.overall.n,
      result.samples,
    ),
    '',
    ...calibrationTable(result),
    ...(result.selfAgreement
      ? [
          '',
          `self-agreement over ${result.samples} samples: unanimous ${formatRate(result.selfAgreement.unanimous)}, pairwise ${formatValue(result.selfAgreement.pairwise)}`,
        ]
      : []),
    '',
    ...disagreementLines(result.disagreements, result.disagreements.length, SHOWN_DISAGREEMENTS),
    '',
    messages.calibrationJudgeCalls(count('replayed'), count('recorded'), count('live')),
  ]
}

/** `--judge gpt-4.1` names a model of the configured endpoint; `openai/gpt-4.1` works too. */
function judgeFrom(value: string | undefined): JudgeInput {
  if (value !== undefined) {
    const model = value.trim()
    if (model === '') throw new CommandLineError(cliMessages.calibrateNoJudge())
    return model.startsWith('openai/') ? model : `openai/${model}`
  }
  const fromEnv = process.env.RUBRICATE_JUDGE?.trim()
  if (!fromEnv) throw new CommandLineError(cliMessages.calibrateNoJudge())
  return fromEnv
}
