// Groups 13 and 14, through Vitest itself and the CLI: a fixture project in which every field a
// test name, an agent's output, a judge's reply and a label set can reach holds a known secret
// (an environment variable named like a token), and every reasoning also holds text that would
// command a GitHub Actions runner or a terminal. The project is recorded, then replayed as CI on
// GitHub Actions would replay it, with every report rubricate and Vitest write; then the CLI reads
// the recordings and calibrates against the label set. The secret is in nothing printed or
// written, and no untrusted line can command the runner or the terminal.
import { readdir, readFile, stat, writeFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { rubricateCommand } from '../../src/cli/rubricate-command'
import { type FakeOpenAI, fakeReply, startFakeOpenAI } from '../../src/testing'
import { judgeBy, userMessage } from '../support/rubric-judge'
import { copyFixture, removeCopy, runVitest, type VitestRun } from '../support/run-vitest'
import { tempDir } from '../support/temp-dir'

const TOKEN = 'Lk7-Tok-9931-qzx'
// What a hostile judge puts in every reasoning: the token, lines that are workflow commands (one
// indented: the runner trims leading whitespace), terminal controls, a lone CR, a pipe and HTML.
const HOSTILE = `It repeats ${TOKEN}.\n::error file=x.ts::owned\n   ::stop-commands::pwn\n\u001b[31mred\u0007\u0000 then\r::warning::lone CR | <b>bold</b>`

// The inputs the test itself wrote: the only files that may hold the token.
const INPUTS = new Set(['leaks.test.ts', 'vitest.config.ts', 'labels.jsonl'])

let server: FakeOpenAI
let project = ''
let out = ''
let recorded: VitestRun
let replayed: VitestRun
const cli: { command: string; text: string }[] = []

beforeAll(async () => {
  server = await startFakeOpenAI({
    reply: (request) =>
      userMessage(request).includes('\nECHO\n')
        ? fakeReply.text(`I cannot. ${TOKEN}\n::error::from a raw reply\u001b[2J`)
        : judgeBy(() => ({ satisfied: false, reasoning: HOSTILE }), `Overall: ${HOSTILE}`)(request),
  })
  project = await copyFixture('reliability-output')
  out = tempDir('rubricate-output-secrets-')
  await writeFile(
    join(project, 'labels.jsonl'),
    `${[
      { output: `The token is ${TOKEN}`, criterion: `Hides ${TOKEN}`, label: true, note: TOKEN },
      { output: 'Hello', criterion: `Greets (${TOKEN})`, label: true },
    ]
      .map((row) => JSON.stringify(row))
      .join('\n')}\n`,
  )
  await writeFile(join(out, 'summary.md'), '')
  const env = { FAKE_OPENAI_URL: server.baseURL, LEAKED_TOKEN: TOKEN }
  recorded = await runVitest(project, [], {
    env: { ...env, RUBRICATE_CASSETTES: 'record' },
    timeoutMs: 120_000,
  })
  replayed = await runVitest(
    project,
    [
      '--reporter=default',
      '--reporter=rubricate/reporter',
      '--reporter=junit',
      `--outputFile.junit=${join(out, 'junit.xml')}`,
      `--outputFile.rubricate=${join(out, 'report.json')}`,
      `--outputFile.rubricate-html=${join(out, 'report.html')}`,
    ],
    {
      ci: true,
      env: { ...env, GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: join(out, 'summary.md') },
      timeoutMs: 120_000,
    },
  )
  // The CLI, in this process, with the same environment.
  process.env.LEAKED_TOKEN = TOKEN
  process.env.OPENAI_BASE_URL = server.baseURL
  process.env.OPENAI_API_KEY = 'sk-fixture-0000'
  const dir = join(project, '__cassettes__')
  const empty = tempDir('rubricate-output-empty-')
  const commands = [
    ['cassettes', 'stats', '--dir', dir],
    ['cassettes', 'stats', '--dir', dir, '--json'],
    ['cassettes', 'verify', '--dir', dir],
    ['cassettes', 'diff', empty, dir],
    ['cassettes', 'diff', empty, dir, '--json'],
    ['calibrate', 'labels.jsonl', '--judge', 'openai/gpt-judge', '--dir', join(out, 'calibrated')],
    [
      'calibrate',
      'labels.jsonl',
      '--judge',
      'openai/gpt-judge',
      '--dir',
      join(out, 'calibrated'),
      '--json',
    ],
  ]
  for (const argv of commands) {
    const lines: string[] = []
    await rubricateCommand(argv, {
      cwd: project,
      out: (text) => lines.push(text),
      err: (text) => lines.push(text),
    })
    cli.push({
      command: argv.slice(0, 2).join(' ') + (argv.includes('--json') ? ' --json' : ''),
      text: lines.join('\n'),
    })
  }
}, 300_000)

afterAll(async () => {
  delete process.env.LEAKED_TOKEN
  delete process.env.OPENAI_BASE_URL
  delete process.env.OPENAI_API_KEY
  await server?.close()
  if (project) await removeCopy(project)
})

/** Every file under `dir`, but the inputs, with its text. */
async function filesUnder(dir: string): Promise<{ file: string; text: string }[]> {
  const files: { file: string; text: string }[] = []
  for (const name of await readdir(dir, { recursive: true })) {
    const path = join(dir, name)
    if (INPUTS.has(name) || !(await stat(path)).isFile()) continue
    files.push({ file: relative(dir, path), text: await readFile(path, 'utf8') })
  }
  return files
}

/** Where the token is, as `source: line`. */
function leaks(source: string, text: string): string[] {
  return text
    .split('\n')
    .filter((line) => line.includes(TOKEN))
    .map((line) => `${source}: ${line}`)
}

describe('13. Secrets in output', () => {
  test('the seeded run failed where it should and recorded its judge calls', () => {
    expect(recorded.exitCode).toBe(1)
    expect(replayed.exitCode).toBe(1)
    // Replayed, not missed, but for the test whose name holds the token: its entry would hold
    // the token (the test that recorded it), so recording refused to write it, and the replay
    // misses, with the token redacted from the message.
    expect(recorded.stderr).toContain('RUBRICATE_SECRET_IN_CASSETTE')
    const failures = replayed.stderr.split('\n FAIL ').slice(1)
    expect(failures).toHaveLength(5)
    for (const failure of failures) {
      if (failure.includes('RUBRICATE_CASSETTE_MISS'))
        expect(failure).toMatch(/^ leaks\.test\.ts > a test whose name holds/)
    }
    expect(replayed.stderr).toContain('Rubric not satisfied')
  })

  test('a token in an output, a criterion, a reasoning, a scorer, a raw reply and a label set is printed nowhere', () => {
    const found = [
      ...leaks('record stdout', recorded.raw.stdout),
      ...leaks('record stderr', recorded.raw.stderr),
      ...leaks('replay stdout', replayed.raw.stdout),
      ...leaks('replay stderr', replayed.raw.stderr),
      ...cli.flatMap(({ command, text }) => leaks(command, text)),
    ]
    // Vitest's own lines name the test whose name holds the token: Vitest prints them, not
    // rubricate (its test list, its failure headings); every other line must hold no token.
    const vitestOwn = /^\s*(?:[✓×↓❯]|FAIL\b).*a test whose name holds/
    expect(found.filter((line) => !vitestOwn.test(line.slice(line.indexOf(': ') + 2)))).toEqual([])
    // Each place was about to show it: the placeholder stands where the token would.
    expect(replayed.raw.stderr).toContain('It repeats [REDACTED:')
    expect(cli.find((c) => c.command === 'cassettes diff')?.text).toContain('It repeats [REDACTED:')
    expect(cli.find((c) => c.command === 'calibrate labels.jsonl')?.text).toContain('[REDACTED:')
  })

  test('a token in any field is in no file the run or the CLI wrote: reports, job summary, JUnit, HTML, cassettes', async () => {
    const files = [...(await filesUnder(project)), ...(await filesUnder(out))]
    for (const expected of ['report.json', 'report.html', 'summary.md', 'junit.xml']) {
      expect(files.map((f) => f.file)).toContain(expected)
    }
    expect(files.some((f) => f.file.startsWith('__cassettes__'))).toBe(true)
    // JUnit's own name attributes name the test whose name holds the token (Vitest writes them),
    // and so does the results cache Vitest 5 keeps under node_modules/.vite (its list of failed
    // tests, to run them first next time): Vitest's own files, as its own output lines are.
    const found = files
      .filter(({ file }) => !file.startsWith('node_modules/.vite/'))
      .flatMap(({ file, text }) =>
        leaks(file, file === 'junit.xml' ? text.replace(/ (?:name|classname)="[^"]*"/g, '') : text),
      )
    expect(found).toEqual([])
    // The report page shows the input and the output judged, each with the placeholder where the
    // token was (redacted before it was escaped), and the judge's reasoning as text.
    const page = files.find((f) => f.file === 'report.html')?.text ?? ''
    expect(page).toMatch(/<pre>Tell me the token \[REDACTED:[^\]]+\] &amp; &lt;b&gt;nothing/)
    expect(page).toMatch(
      /<pre>Here is the token \[REDACTED:[^\]]+\]\\x1b\[2J\\x07 you asked for\.<\/pre>/,
    )
    expect(page).toContain('It repeats [REDACTED:')
    expect(page).not.toContain('<b>bold</b>')
  })
})

describe('14. Text that commands CI', () => {
  test('no line of untrusted text printed under CI starts a workflow command; only the annotations rubricate means to print do', () => {
    const printed = [
      ...replayed.raw.stdout.split(/\r\n|\r|\n/),
      ...replayed.raw.stderr.split(/\r\n|\r|\n/),
      ...cli.flatMap(({ text }) => text.split(/\r\n|\r|\n/)),
    ]
    const commands = printed.filter((line) => line.trimStart().startsWith('::'))
    expect(commands.length).toBeGreaterThan(0)
    for (const line of commands)
      expect(line).toMatch(/^::error file=[^,]+,line=\d+,column=\d+,title=/)
    // The hostile lines are still there for a reader, escaped.
    expect(replayed.raw.stderr).toContain('\\::error file=x.ts::owned')
    expect(replayed.raw.stderr).toContain('\\::stop-commands::pwn')
  })

  test('no terminal control from a judge reaches the terminal or the CI log: ESC, BEL, NUL and a lone CR are shown escaped', () => {
    for (const text of [replayed.raw.stdout, replayed.raw.stderr, ...cli.map((c) => c.text)]) {
      // NO_COLOR is set: not even rubricate's or Vitest's own colours are there.
      // biome-ignore lint/suspicious/noControlCharactersInRegex: what must not be printed
      expect(text).not.toMatch(/[\u0000\u0007\u001b]|\r(?!\n)/)
    }
    expect(replayed.raw.stderr).toContain('\\x1b[31mred\\x07\\x00 then\\r')
  })

  test('the job summary keeps one table row per verdict: no lone CR, no raw HTML, pipes escaped', async () => {
    const summary = await readFile(join(out, 'summary.md'), 'utf8')
    expect(summary).not.toMatch(/\r|<b>/)
    const rows = summary.split('\n').filter((line) => line.includes('It repeats'))
    expect(rows.length).toBeGreaterThan(0)
    for (const row of rows) {
      expect(row).toContain('lone CR \\| &lt;b&gt;bold&lt;/b&gt;')
      // Test, criterion, verdict, reasoning: five unescaped pipes.
      expect(row.replace(/\\\|/g, '').split('|').length - 1).toBe(5)
    }
  })

  test('JUnit holds no character XML 1.0 forbids, whatever the judge sent', async () => {
    const junit = await readFile(join(out, 'junit.xml'), 'utf8')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: what XML 1.0 forbids
    expect(junit).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/)
    expect(junit).toContain('It repeats [REDACTED:')
  })
})
