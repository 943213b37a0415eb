import { bytes, CLI_CONFIG_OPTION, CLI_DIR_OPTION, count, format, tally } from '../messages'
import { importLine } from './code-lines'

const ALLOW_EMPTY_OPTION =
  '  --allow-empty      accept a folder with no entries (by default that is an error: a wrong --dir reads as empty)'

/**
 * What the `rubricate` command prints: its usage texts, reports and usage errors. The errors that
 * the maintenance code throws (a bad git ref for `diff --against`) stay in `src/messages.ts`.
 * @internal
 */
export const cliMessages = {
  usage: (): string =>
    [
      'Usage: rubricate <command> [options]',
      '',
      'Commands:',
      '  init               set up rubricate in this project: the Vitest plugin, the matcher types, the .gitignore line',
      '  cassettes stats    entries, bytes, models and the oldest entry of the cassette folder',
      '  cassettes verify   check that every file parses, every key matches its request, and no secret is stored (replies are not checked: review them)',
      '  cassettes migrate  rewrite format-1 entries (<k0k1>/<key>.json) as format 2, filed under their tests; keys and replies unchanged',
      '  cassettes prune    delete the entries the last complete run did not use [--dry-run] [--root <folder>]',
      '  cassettes diff     the verdicts and scores that changed between two folders: diff <old> <new>, or diff --against <git ref>',
      '  calibrate <labels> the judge against human labels [--judge <model>] [--compare <model>]',
      '  history            the runs of the run history, and per eval and criterion the pass rate, mean and where they moved [--last <n>] [--history <file>]',
      '  help [command]     show this help, or the help of one command',
      '',
      'Options:',
      CLI_DIR_OPTION,
      CLI_CONFIG_OPTION,
      '  --json             print the result as JSON (every command)',
      '  -h, --help         show this help; "rubricate <command> --help" for one command',
      '  -v, --version      print the version of rubricate',
      '',
      'Exit codes: 0 done; 1 the command ran and failed (a problem found, a required verdict flipped, an error); 2 the command line is wrong.',
    ].join('\n'),
  cassetteUsage: (command: 'stats' | 'verify' | 'migrate' | 'prune' | 'diff'): string =>
    ({
      stats: cliMessages.statsUsage,
      verify: cliMessages.verifyUsage,
      migrate: cliMessages.migrateUsage,
      prune: cliMessages.pruneUsage,
      diff: cliMessages.diffUsage,
    })[command](),
  initUsage: (): string =>
    [
      'Usage: rubricate init [--judge <model>] [--fast] [--dry-run] [--json]',
      '',
      'Sets up rubricate in the project of the current folder: adds the rubricate plugin to the',
      'Vitest config (or writes vitest.config.ts, .mts in a CommonJS package), references the',
      'matcher types (rubricate.d.ts) and ignores .rubricate/ in .gitignore, then prints the next',
      'step. A second run changes nothing. A config it does not understand is left alone: init then',
      'writes nothing, says what to add by hand, and exits 1.',
      '',
      'Options:',
      '  --judge <model>    the judge the plugin names (default openai/gpt-4.1-mini)',
      '  --fast             run *.rubric.test.* and *.eval.test.* files in a Vitest project of',
      '                     their own whose files share workers (isolate: false); other files',
      '                     keep their settings',
      '  --dry-run          say what would change, write nothing',
      '  --json             print the steps as JSON',
      '  -h, --help         show this help',
    ].join('\n'),
  initSteps: (
    steps: readonly { file: string; action: string; detail: string; note?: string | undefined }[],
    state: { dryRun: boolean; refused: boolean },
  ): string => {
    const width = Math.max(...steps.map((step) => step.file.length))
    const verb = (action: string) =>
      (state.dryRun || state.refused) && (action === 'created' || action === 'updated')
        ? `would be ${action}`
        : action
    return [
      state.dryRun ? 'rubricate init (dry run: nothing written)' : 'rubricate init',
      ...steps.map(
        (step) => `  ${verb(step.action).padEnd(18)} ${step.file.padEnd(width)}  ${step.detail}`,
      ),
      ...steps.flatMap((step) => (step.note ? ['', `Note: ${step.note}`] : [])),
    ].join('\n')
  },
  initNextStep: (): string =>
    [
      '',
      'Next: write a test, for instance greet.test.ts:',
      '',
      `  ${importLine('{ expect, test }', 'vitest')}`,
      '',
      "  test('greets the user', async () => {",
      "    await expect('Hello! How can I help you today?').toSatisfyRubric('- Greets the user')",
      '  })',
      '',
      'Record it once against the judge: it needs OPENAI_API_KEY, and OPENAI_BASE_URL when the judge',
      'is another OpenAI-compatible endpoint:',
      '',
      '  OPENAI_API_KEY=sk-... npx vitest run',
      '',
      'Then commit __cassettes__/ with the test: CI (CI=true) replays it offline, with no key.',
    ].join('\n'),
  initRefused: (): string =>
    format(
      'init wrote nothing: a file above is not in a shape it can edit safely ("refused"). Make the change it names by hand, then run "npx rubricate init" again to do the rest.',
    ),
  noSuchOption: (command: string, option: string): string =>
    `"rubricate${command ? ` ${command}` : ''}" has no option "${option}" (it takes --help${command ? '' : ' and --version'}); a command's options go after the command, as in "rubricate ${command ? `${command} verify` : 'cassettes verify'} --dir <folder>"`,
  notAFolder: (path: string, problem: 'missing' | 'file', what: string): string =>
    format(
      problem === 'missing'
        ? `"${path}", ${what}, does not exist. Check the path for a typo; a folder that is to hold recordings is made by the first recording run ("npx vitest run" with a key).`
        : `"${path}", ${what}, is a file, not a folder. Pass the folder that holds the cassettes (--dir <folder>).`,
    ),
  pruneRootNotAFolder: (path: string, problem: 'missing' | 'file'): string =>
    format(
      `"${path}", the project folder given with --root, ${problem === 'missing' ? 'does not exist' : 'is a file, not a folder'}. Pass the folder of the project whose last Vitest run decides what to prune (default: the current folder).`,
    ),
  emptyCassetteDir: (path: string, command: string): string =>
    format(
      `"${path}" holds no cassette entries, so "rubricate cassettes ${command}" has nothing to work on. Check that it is the cassette folder (--dir <folder>, or cassettes.dir in the plugin options); pass --allow-empty when an empty folder is expected (a project that has not recorded yet).`,
    ),
  initWriteFailed: (
    file: string,
    reason: string,
    putBack: readonly string[],
    notPutBack: readonly string[],
  ): string =>
    format(
      [
        `init could not write "${file}" (${reason}), so it changed nothing${putBack.length ? `: ${putBack.map((f) => `"${f}"`).join(', ')} ${putBack.length === 1 ? 'was' : 'were'} put back as ${putBack.length === 1 ? 'it was' : 'they were'}` : ''}.`,
        ...(notPutBack.length
          ? [
              `Could not put back ${notPutBack.map((f) => `"${f}"`).join(', ')}: restore ${notPutBack.length === 1 ? 'it' : 'them'} from git.`,
            ]
          : []),
        `Make "${file}" writable (or make the change by hand), then run "npx rubricate init" again.`,
      ].join(' '),
    ),
  statsUsage: (): string =>
    [
      'Usage: rubricate cassettes stats [--dir <folder>] [--config <vitest config>] [--allow-empty] [--json]',
      '',
      'Entries, bytes, endpoints, models and the oldest and newest entry of the cassette folder.',
      '',
      'Options:',
      CLI_DIR_OPTION,
      CLI_CONFIG_OPTION,
      ALLOW_EMPTY_OPTION,
      '  --json             print the numbers as JSON',
      '  -h, --help         show this help',
    ].join('\n'),
  verifyUsage: (): string =>
    [
      'Usage: rubricate cassettes verify [--dir <folder>] [--config <vitest config>] [--allow-empty] [--json]',
      '',
      'Checks that every file parses, every key matches its request (so replay finds it), no secret',
      'is stored and nothing else lies in the folder. Exit code 1 when a problem is found. The',
      'replies are not checked: they are data that only a review can vouch for.',
      '',
      'Options:',
      CLI_DIR_OPTION,
      CLI_CONFIG_OPTION,
      ALLOW_EMPTY_OPTION,
      '  --json             print the entries and problems as JSON (the exit code is the same)',
      '  -h, --help         show this help',
    ].join('\n'),
  migrateUsage: (): string =>
    [
      'Usage: rubricate cassettes migrate [--dir <folder>] [--config <vitest config>] [--allow-empty] [--json]',
      '',
      'Rewrites format 1 entries (<k0k1>/<key>.json) as format 2: a folder per test file, files',
      'named from the test, long text as lines, the verdicts first. Each new file is read back and',
      'compared with the old entry before the old file is deleted. Keys do not change.',
      '',
      'Options:',
      CLI_DIR_OPTION,
      CLI_CONFIG_OPTION,
      ALLOW_EMPTY_OPTION,
      '  --json             print what was migrated as JSON',
      '  -h, --help         show this help',
    ].join('\n'),
  pruneUsage: (): string =>
    [
      'Usage: rubricate cassettes prune [--dry-run] [--dir <folder>] [--config <vitest config>] [--root <project folder>] [--json]',
      '',
      'Deletes the cassette entries that the last complete Vitest run did not use. After a run in',
      'which tests failed, it deletes only the unused entries recorded by tests that passed; the',
      'entries of tests that failed or did not finish are kept.',
      '',
      'Options:',
      '  --dry-run          list what would be deleted, delete nothing',
      '  --dir <folder>     prune only this cassette folder (default: every folder the run used)',
      '  --config <file>    prune only the folder of this Vitest config',
      '  --root <folder>    the project folder whose last run decides (default: the current folder)',
      '  --json             print what was (or would be) deleted and kept as JSON',
      '  -h, --help         show this help',
    ].join('\n'),
  diffUsage: (): string =>
    [
      'Usage: rubricate cassettes diff <old folder> <new folder> [--json]',
      '       rubricate cassettes diff --against <git ref> [--dir <folder>] [--config <vitest config>] [--json]',
      '',
      'Compares what the judges of two cassette folders decided, per test and criterion: the',
      'verdicts that flipped, appeared or disappeared, and the scores of scorers that changed.',
      'With --against, the old folder is the cassette folder as committed at the ref (HEAD, main).',
      'Exit code 1 when the verdict of a required criterion flipped.',
      '',
      'A judge upgrade, reviewed: record into a scratch folder with the new judge, then diff:',
      '  RUBRICATE_CASSETTES=record RUBRICATE_JUDGE=openai/<new model> npx vitest run   (with cassettes.dir set to a scratch folder)',
      '  npx rubricate cassettes diff __cassettes__ <scratch folder>',
      '',
      'Options:',
      '  --against <ref>    compare the cassette folder with its committed state at this git ref',
      CLI_DIR_OPTION,
      CLI_CONFIG_OPTION,
      '  --json             print the changes as JSON',
      '  -h, --help         show this help',
    ].join('\n'),
  diffAgainstForm: (): string =>
    '"rubricate cassettes diff" takes two folders (diff <old> <new>), or --against <git ref> with no folder (the cassette folder comes from --dir or the Vitest config)',
  diff: (
    diff: {
      tests: readonly {
        test: string
        changes: readonly (
          | {
              kind: 'verdict'
              change: string
              criterion: string
              required: boolean
              before: boolean | undefined
              after: boolean | undefined
              reasoning: string
              models: readonly [string | undefined, string | undefined]
            }
          | {
              kind: 'score'
              change: string
              label: string
              before: number | undefined
              after: number | undefined
              models: readonly [string | undefined, string | undefined]
            }
        )[]
      }[]
      requiredFlips: number
      judgements: { before: number; after: number }
      unreadable: { before: number; after: number }
    },
    before: string,
    after: string,
  ): string => {
    const compared = `${diff.judgements.before} verdicts and scores in ${before}, ${diff.judgements.after} in ${after}`
    const unreadable = diff.unreadable.before + diff.unreadable.after
    const skipped = unreadable
      ? [
          `${count(unreadable)} unreadable ${unreadable === 1 ? 'file was' : 'files were'} left out: run "rubricate cassettes verify" to see why.`,
        ]
      : []
    if (diff.tests.length === 0)
      return [`No verdict or score changed (${compared}).`, ...skipped].join('\n')
    const changes = diff.tests.reduce((sum, test) => sum + test.changes.length, 0)
    const met = (value: boolean | undefined) => (value ? 'met' : 'not met')
    const models = ([a, b]: readonly [string | undefined, string | undefined]) =>
      a && b && a !== b ? ` (${a} → ${b})` : ''
    const lines = [
      `${count(changes)} ${changes === 1 ? 'change' : 'changes'} in ${count(diff.tests.length)} ${diff.tests.length === 1 ? 'test' : 'tests'}${diff.requiredFlips ? `, ${count(diff.requiredFlips)} required ${diff.requiredFlips === 1 ? 'verdict' : 'verdicts'} flipped` : ''} (${compared}):`,
    ]
    for (const test of diff.tests) {
      lines.push('', `  ${test.test}`)
      for (const c of test.changes) {
        if (c.kind === 'verdict') {
          const tag = `[${c.required ? 'required' : 'optional'}] ${c.criterion}`
          const what =
            c.change === 'flipped'
              ? `${met(c.before)} → ${met(c.after)}`
              : met(c.change === 'appeared' ? c.after : c.before)
          lines.push(`    ${c.change.padEnd(13)} ${tag}: ${what}${models(c.models)}`)
          if (c.reasoning) lines.push(`${' '.repeat(18)}${c.reasoning}`)
        } else {
          const value = (n: number | undefined) => (n === undefined ? '–' : String(n))
          lines.push(
            `    ${`score ${c.change}`.padEnd(13)} ${c.label}: ${value(c.before)} → ${value(c.after)}${models(c.models)}`,
          )
        }
      }
    }
    lines.push(
      '',
      diff.requiredFlips
        ? 'Exit code 1: a required verdict flipped. Read the reasoning above, then keep the new recordings (commit them) or the old ones.'
        : 'No required verdict flipped.',
      ...skipped,
    )
    return lines.join('\n')
  },
  configNotFound: (file: string): string =>
    format(
      `The Vitest config "${file}" does not exist. Pass the path of an existing config, or --dir <cassette folder>.`,
    ),
  configUnreadable: (file: string, reason: string): string =>
    format(
      `Could not read the cassette folder from the Vitest config "${file}": loading it failed (${reason}). Pass the folder with --dir <folder>, or the config with --config <file>.`,
    ),
  calibrateUsage: (): string =>
    [
      'Usage: rubricate calibrate <labels.jsonl|labels.json> [options]',
      '',
      'Judges every labelled example with the rubric judge (through the cassettes) and prints the',
      "judge's agreement with the labels: accuracy, Cohen's κ, false-pass and false-fail rates.",
      '',
      'Options:',
      '  --judge <model>    the judge: a model name for the configured endpoint (OPENAI_BASE_URL),',
      '                     or openai/<model>; default RUBRICATE_JUDGE',
      '  --compare <model>  a second judge: the same table, and its agreement with the first',
      '  --samples <n>      judge every example n times and take the majority (default 1)',
      CLI_DIR_OPTION,
      CLI_CONFIG_OPTION,
      '  --json             print the results as JSON',
      '  -h, --help         show this help',
    ].join('\n'),
  historyUsage: (): string =>
    [
      'Usage: rubricate history [options]',
      '',
      'Lists the runs of the run history (the history option of the plugin or reporter), then per',
      'eval and per criterion the pass rate and mean over the last runs, a bar per run, and the',
      'runs (and commits) where each moved.',
      '',
      'Options:',
      '  --history <file>   the history file; default RUBRICATE_HISTORY, else .rubricate-history.sqlite',
      '  --last <n>         the runs to show and measure over (default 10)',
      '  --json             print the runs and trends as JSON',
      '  -h, --help         show this help',
    ].join('\n'),
  calibrateNoJudge: (): string =>
    format(
      'rubricate calibrate needs a judge: pass --judge <model> (for instance --judge gpt-4.1-mini), or set RUBRICATE_JUDGE=openai/gpt-4.1-mini.',
    ),
  badUsage: (problem: string): string =>
    format(`${problem}. Run "rubricate --help" to see the commands and options.`),
  stats: (stats: {
    dir: string
    entries: number
    bytes: number
    endpoints: Record<string, number>
    models: Record<string, number>
    oldest?: { date: string; days: number; file: string } | undefined
    newest?: { date: string } | undefined
    unreadable: number
  }): string =>
    [
      `Cassettes in ${stats.dir}`,
      `  entries    ${count(stats.entries)} (${bytes(stats.bytes)})`,
      `  endpoints  ${tally(stats.endpoints)}`,
      `  models     ${tally(stats.models)}`,
      `  oldest     ${stats.oldest ? `${stats.oldest.date} (${stats.oldest.days} days ago) ${stats.oldest.file}` : 'none'}`,
      `  newest     ${stats.newest ? stats.newest.date : 'none'}`,
      ...(stats.unreadable
        ? [`  unreadable ${count(stats.unreadable)}: run "rubricate cassettes verify" to see why`]
        : []),
    ].join('\n'),
  verifyPassed: (entries: number, dir: string): string =>
    `✓ ${count(entries)} ${entries === 1 ? 'entry' : 'entries'} in ${dir} verified: every file parses, every key matches its request, no secret found. The recorded replies are data that only a review can vouch for.`,
  migrated: (migrated: number, current: number, dir: string): string =>
    migrated === 0
      ? `✓ Nothing to migrate in ${dir}: its ${count(current)} ${current === 1 ? 'entry is' : 'entries are'} in format 2.`
      : `✓ ${count(migrated)} ${migrated === 1 ? 'entry' : 'entries'} in ${dir} rewritten in format 2 (${count(current)} already were), each read back identical before its old file was deleted. Keys and replies are unchanged; commit the moved files.`,
  verifyFailed: (
    problems: readonly { file: string; problem: string }[],
    entries: number,
    dir: string,
  ): string =>
    format(
      [
        `${problems.length} ${problems.length === 1 ? 'problem' : 'problems'} in ${dir} (${count(entries)} entries):`,
        ...problems.map(({ file, problem }) => `  ${file}: ${problem}`),
        'Fix or delete these files; replay cannot use them as they are.',
      ].join('\n'),
    ),
}
