/**
 * `rubricate init [--judge <model>] [--fast] [--dry-run] [--json]`: set up rubricate in the project of the
 * current folder (the plugin in the Vitest config, the matcher types, the `.gitignore` line) and
 * print the next step. Idempotent: a second run changes nothing. When a file is not in a shape it
 * understands, it writes nothing at all, says what to add by hand, and exits 1.
 */

import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { cliMessages } from './cli-messages'
import {
  type CommandIO,
  commandLineError,
  EXIT,
  parseCommandOptions,
  refusePositionals,
} from './command-options'
import { loadProjectTypeScript } from './config-edit'
import { addFastProjects, withFastProjects } from './init-fast'
import { createdConfig, DEFAULT_INIT_JUDGE, guarded, type InitStep, planInit } from './init-project'
import { writeAllOrNothing } from './safe-writes'

/** Run `rubricate init` with the arguments after it; returns the exit code. @internal */
export async function initCommand(args: readonly string[], io: CommandIO): Promise<number> {
  const { values, positionals } = parseCommandOptions('init', args, {
    judge: { type: 'string' },
    'dry-run': { type: 'boolean' },
    fast: { type: 'boolean' },
  })
  if (values.help) {
    io.out(cliMessages.initUsage())
    return EXIT.ok
  }
  refusePositionals('init', positionals)
  const judge = ((values.judge as string | undefined) ?? DEFAULT_INIT_JUDGE).trim()
  // A model string is written into the config as a quoted literal: refuse anything that is not one.
  if (!/^[\w.:/@-]+$/.test(judge)) {
    throw commandLineError(
      `"rubricate init --judge" takes a model such as "${DEFAULT_INIT_JUDGE}", but got "${judge}"`,
    )
  }
  const planned = planInit(io.cwd, { judge, fast: values.fast === true })
  const steps = values.fast === true ? withFastConfig(io.cwd, planned, judge) : planned
  const refused = steps.some((step) => step.action === 'refused')
  const dryRun = values['dry-run'] === true
  // All or nothing: a half set-up project is harder to reason about than an untouched one.
  const written = !refused && !dryRun
  if (written) {
    writeAllOrNothing(
      io.cwd,
      steps.flatMap(({ file, text }) => (text === undefined ? [] : [{ file, text }])),
    )
  }
  if (values.json) {
    io.out(
      JSON.stringify(
        {
          written,
          steps: steps.map(({ text: _text, byHand: _byHand, ...step }) => step),
        },
        null,
        2,
      ),
    )
  } else {
    io.out(cliMessages.initSteps(steps, { dryRun, refused }))
    if (!refused) io.out(cliMessages.initNextStep())
  }
  if (refused) {
    io.err(cliMessages.initRefused())
    return EXIT.failed
  }
  return EXIT.ok
}

// --fast: the config step (the first) also gets the fast projects (init-fast.ts).
function withFastConfig(cwd: string, steps: InitStep[], judge: string): InitStep[] {
  const [config, ...rest] = steps
  if (config === undefined) return steps
  const file = join(cwd, config.file)
  const current =
    config.text === undefined && existsSync(file) ? readFileSync(file, 'utf8') : undefined
  // The fast config init itself wrote, as it wrote it: run twice without TypeScript, unchanged.
  const ts = loadProjectTypeScript(cwd)
  if (ts === undefined && current === addFastProjects(createdConfig(judge, true), undefined)) {
    return [
      { file: config.file, action: 'unchanged', detail: 'the fast projects are already there' },
      ...rest,
    ]
  }
  // Guarded again: a config init left unchanged was not checked for a safe write.
  return [guarded(cwd, withFastProjects(config, current, ts)), ...rest]
}
