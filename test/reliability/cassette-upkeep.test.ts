// Group 13: the cassette folder as reviewers and maintainers meet it. Prune and the clean-up after
// a run never delete a recording a test still needs; `verify` fails an entry whose summaries lie
// about its reply and refuses what leaves the folder; recording never writes outside the folder;
// `diff --against` reads every committed file; no recorded member is lost on write.
import { execFile, execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, readdir, readFile, rename, symlink, utimes, writeFile } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, onTestFinished, test } from 'vitest'
import { loadRows } from '../../evals/load-data'
import { loadLabelSet } from '../../src/calibrate/label-set'
import { computeKey } from '../../src/cassettes/exchange/prepared-request'
import { verifyCassettes } from '../../src/cassettes/maintenance/cassette-verify'
import { migrateCassettes } from '../../src/cassettes/maintenance/migrate'
import { pruneCassettes } from '../../src/cassettes/maintenance/prune'
import { writeRunMarker } from '../../src/cassettes/run/run-marker'
import type { CassetteEntry } from '../../src/cassettes/store/cassette-entry'
import { CassetteStore } from '../../src/cassettes/store/cassette-store'
import { rubricateCommand } from '../../src/cli/rubricate-command'
import { rootCause } from '../../src/errors'
import { keys } from '../fixtures/prune/keys'
import { copyFixture, removeCopy, repoRoot, runVitest } from '../support/run-vitest'
import { tempDir } from '../support/temp-dir'

/** A recorded rubric judgement of one required criterion, by the test labelled `label`. */
function judgeEntry(
  label: string,
  satisfied: boolean,
  question = 'What time is it?',
): CassetteEntry {
  const body = {
    model: 'gpt-judge',
    messages: [
      { role: 'system', content: 'Judge each criterion.' },
      { role: 'user', content: `Question: ${question}\n\nc1. [required] Answers the question` },
    ],
  }
  const content = JSON.stringify({
    criteria: { c1: { reasoning: satisfied ? 'It gives the time.' : 'It does not.', satisfied } },
  })
  return {
    v: 2,
    key: computeKey('chat/completions', body),
    promptVersion: 'rubric-v1',
    recordedAt: '2026-01-01T00:00:00.000Z',
    recordedBy: label,
    request: { method: 'POST', endpoint: 'chat/completions', body },
    response: {
      status: 200,
      headers: { 'content-type': 'application/json' },
      json: { id: 'x', choices: [{ index: 0, message: { role: 'assistant', content } }] },
    },
  }
}

/** Run `rubricate ...argv` in `cwd`; its exit code and what it wrote. */
async function cli(cwd: string, ...argv: string[]) {
  const out: string[] = []
  const err: string[] = []
  const code = await rubricateCommand(argv, {
    cwd,
    out: (t) => out.push(t),
    err: (t) => err.push(t),
  })
  return { code, out: out.join('\n'), err: err.join('\n') }
}

/** A streamed chat reply that says "Hello there.", recorded by `label`. */
function streamEntry(label: string): CassetteEntry {
  const body = { model: 'gpt-agent', stream: true, messages: [{ role: 'user', content: 'Hi' }] }
  const event = (content: string) =>
    `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content } }] })}\n\n`
  return {
    v: 2,
    key: computeKey('chat/completions', body),
    recordedAt: '2026-01-01T00:00:00.000Z',
    recordedBy: label,
    request: { method: 'POST', endpoint: 'chat/completions', body },
    response: {
      status: 200,
      headers: { 'content-type': 'text/event-stream' },
      sse: [
        { t: 0, chunk: event('Hello') },
        { t: 5, chunk: event(' there.') },
        { t: 9, chunk: 'data: [DONE]\n\n' },
      ],
    },
  }
}

/** A format-1 file of `entry` in `dir`, as rubricate 0.x wrote them. */
async function formatOne(dir: string, entry: CassetteEntry, json?: string): Promise<string> {
  const file = join(dir, entry.key.slice(0, 2), `${entry.key}.json`)
  await mkdir(join(file, '..'), { recursive: true })
  const text = JSON.stringify({ ...entry, v: 1 }, null, 2)
  await writeFile(file, json ? text.replace('"json": {', `"json": {\n${json},`) : text)
  return file
}

async function editJson(file: string, edit: (data: any) => void): Promise<void> {
  const data = JSON.parse(await readFile(file, 'utf8'))
  edit(data)
  await writeFile(file, `${JSON.stringify(data, null, 2)}\n`)
}

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
}

/** Plant a format-1 entry in a copy of the prune fixture, recorded by the test labelled `label`. */
async function plant(root: string, key: string, label: string): Promise<string> {
  const file = join(root, '__cassettes__', key.slice(0, 2), `${key}.json`)
  await mkdir(join(file, '..'), { recursive: true })
  await writeFile(
    file,
    `${JSON.stringify(
      {
        v: 1,
        key,
        recordedAt: '2026-01-01T00:00:00.000Z',
        recordedBy: label,
        request: { method: 'POST', endpoint: 'chat/completions', body: { model: 'm' } },
        response: { status: 200, headers: {}, json: {} },
      },
      null,
      2,
    )}\n`,
  )
  return file
}

async function entriesIn(root: string): Promise<string[]> {
  const dir = join(root, '__cassettes__')
  const out: string[] = []
  for (const shard of await readdir(dir)) {
    for (const name of await readdir(join(dir, shard))) out.push(`${shard}/${name}`)
  }
  return out.sort()
}

async function pruneIn(root: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return promisify(execFile)(
    process.execPath,
    [join(repoRoot, 'dist/cli.js'), 'cassettes', 'prune'],
    { cwd: root },
  ).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  )
}

// Two tests of one name in one file: the first passes, the second fails before its judge call.
// The entry the second one recorded on an earlier run carries the same label as the first.
const TWINS = `import { expect, test } from 'vitest'
import { judgeCall, rubric, store, usage, verdict } from '../records'
import { keys } from './keys'

test('answers', async ({ task }) => {
  task.file.meta.rubricateCassettes = usage({ used: [keys.refund, keys.angry] })
  if (process.env.TWIN_RECORDS) {
    // A re-recording by this test: a new entry, written during the run, under the shared label.
    const key = 'c'.repeat(64)
    const { mkdirSync, writeFileSync } = await import('node:fs')
    mkdirSync('__cassettes__/cc', { recursive: true })
    writeFileSync('__cassettes__/cc/' + key + '.json', JSON.stringify({ v: 1, key, recordedAt: new Date().toISOString(), recordedBy: 'twins.test.ts > answers', request: { method: 'POST', endpoint: 'chat/completions', body: { model: 'n' } }, response: { status: 200, headers: {}, json: {} } }))
    task.file.meta.rubricateCassettes = usage({ mode: 'auto', used: [keys.refund, keys.angry, key] })
    await store(task, rubric([verdict('Answers', true)], { judgeCalls: [judgeCall('recorded')] }))
  }
})

test('answers', () => {
  expect('the agent crashed before the judge was called').toBe('')
})
`

describe('16. Cassette upkeep and review', () => {
  test('prune keeps the recording of a test that failed before its judge call when a passing test shares its name', async () => {
    const root = await copyFixture('prune')
    onTestFinished(() => removeCopy(root))
    const needed = 'd'.repeat(64)
    await plant(root, needed, 'twins.test.ts > answers')
    await plant(root, keys.retired, 'refund.test.ts > answers a refund question')
    await writeFile(join(root, 'twins.test.ts'), TWINS)
    expect((await runVitest(root)).exitCode).toBe(1)
    const pruned = await pruneIn(root)
    expect(pruned.code).toBe(0)
    // What the passing refund test proved unused goes; the twin's recording stays.
    expect(pruned.stdout).toContain(`${keys.retired}.json`)
    expect(pruned.stdout).not.toContain(needed)
    expect(await entriesIn(root)).toContain(`dd/${needed}.json`)
  }, 90_000)

  test('the clean-up after a recording run keeps the recording of a test that failed before its judge call when a re-recording test shares its name', async () => {
    const root = await copyFixture('prune')
    onTestFinished(() => removeCopy(root))
    const needed = 'd'.repeat(64)
    await plant(root, needed, 'twins.test.ts > answers')
    await writeFile(join(root, 'twins.test.ts'), TWINS)
    const run = await runVitest(root, [], { env: { TWIN_RECORDS: '1' } })
    expect(run.exitCode).toBe(1)
    expect(run.stdout).not.toContain(needed)
    expect(await entriesIn(root)).toEqual(
      [
        `cc/${'c'.repeat(64)}.json`,
        `dd/${needed}.json`,
        ...[keys.angry, keys.refund, keys.retired].map((k) => `${k.slice(0, 2)}/${k}.json`),
      ].sort(),
    )
  }, 90_000)

  test('the clean-up after a run filtered with -t deletes the old entries of the tests that passed and re-recorded, and no entry of a failed or filtered-out test', async () => {
    const root = tempDir('rubricate-upkeep-')
    await writeFile(join(root, 'a.test.ts'), '')
    const old = new Date('2026-01-01T00:00:00Z')
    const planted = async (c: string, name: string, at?: Date) => {
      const file = await plant(root, c.repeat(64), `a.test.ts > ${name}`)
      if (at) await utimes(file, at, at)
      return file
    }
    // "reworded" passed and re-recorded; "flaky" re-recorded and then failed; "other" was
    // filtered out by -t. Only "reworded"'s old entry is superseded.
    const superseded = await planted('1', 'reworded', old)
    const renewed = await planted('2', 'reworded')
    const flakyOld = await planted('3', 'flaky', old)
    const flakyNew = await planted('4', 'flaky')
    const other = await planted('5', 'other', old)
    await writeRunMarker(root, {
      v: 1,
      startedAt: '2026-01-02T00:00:00.000Z',
      finishedAt: '2026-01-02T00:01:00.000Z',
      complete: false,
      reasons: ['it was filtered with -t "reworded|flaky"'],
      files: [join(root, 'a.test.ts')],
      cassettes: [{ dir: join(root, '__cassettes__'), used: ['2'.repeat(64), '4'.repeat(64)] }],
    })
    const passed = [join(root, 'a.test.ts > reworded')]
    const report = await pruneCassettes(root, { superseded: true, passed })
    expect(report.folders[0]?.deleted).toEqual([superseded])
    for (const file of [renewed, flakyOld, flakyNew, other]) expect(existsSync(file)).toBe(true)
    // Without the tests that passed, a partial run proves nothing: the same call deletes nothing,
    // and the prune command still refuses it.
    await expect(pruneCassettes(root, { superseded: true })).rejects.toMatchObject({
      code: 'RUBRICATE_USAGE',
    })
    expect((await cli(root, 'cassettes', 'prune')).code).toBe(1)
  })

  test('prune keeps the entry of another config\'s test file whose path holds " > ", not taking it for a deleted file', async () => {
    const root = tempDir('rubricate-upkeep-')
    await writeFile(join(root, 'e2e > smoke.spec.ts'), '')
    const key = 'b'.repeat(64)
    const file = await plant(root, key, 'e2e > smoke.spec.ts > works')
    const before = new Date('2026-01-01T00:00:00Z')
    await utimes(file, before, before)
    await writeRunMarker(root, {
      v: 1,
      startedAt: '2026-01-02T00:00:00.000Z',
      finishedAt: '2026-01-02T00:01:00.000Z',
      complete: true,
      reasons: [],
      files: [join(root, 'unit.test.ts')],
      cassettes: [{ dir: join(root, '__cassettes__'), used: [] }],
    })
    const report = await pruneCassettes(root)
    expect(report.folders[0]).toMatchObject({ deleted: [], keptOthers: 1 })
    expect(existsSync(file)).toBe(true)
  })

  test('diff --against still reads every committed file, and fails on a required flip, when a committed file name holds a newline', async () => {
    const repo = tempDir('rubricate-upkeep-')
    const dir = join(repo, '__cassettes__')
    const store = new CassetteStore(dir)
    // The odd name sorts first: git lists it before the entry whose verdict flips.
    const odd = await store.write(judgeEntry('a.test.ts > odd', true, 'Who are you?'))
    await mkdir(join(dir, 'a\nb.test.ts'), { recursive: true })
    await rename(odd, join(dir, 'a\nb.test.ts', 'odd.0123456789ab.json'))
    await store.write(judgeEntry('z.test.ts > answers', true))
    git(repo, 'init', '-q')
    git(repo, 'add', '.')
    git(repo, '-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'recorded')
    // Re-recorded: the same request, the judge now says the required criterion is not met.
    await new CassetteStore(dir).write(judgeEntry('z.test.ts > answers', false))
    const diff = await cli(repo, 'cassettes', 'diff', '--against', 'HEAD', '--dir', '__cassettes__')
    expect(diff.err).toBe('')
    expect(diff.out).toContain('[required] Answers the question: met → not met')
    expect(diff.code).toBe(1)
  })

  test('verify fails an entry whose verdicts summary contradicts its reply', async () => {
    const dir = tempDir('rubricate-upkeep-')
    const file = await new CassetteStore(dir).write(judgeEntry('a.test.ts > answers', false))
    expect((await verifyCassettes(dir)).problems).toEqual([])
    // The summary a reviewer reads now says met; replay still serves "not met".
    await editJson(file, (data) => {
      data.verdicts[0].satisfied = true
    })
    const { problems } = await verifyCassettes(dir)
    expect(problems).toEqual([
      {
        file,
        problem:
          'its "verdicts" summary does not match its reply at "verdicts[0].satisfied" (the file shows true, the recorded reply gives false): replay serves the reply, not the summary, so a reviewer would read another verdict than the one served. Restore the file as recorded, or record it again',
      },
    ])
    const cliRun = await cli(dir, 'cassettes', 'verify', '--dir', '.')
    expect(cliRun.code).toBe(1)
  })

  test('verify fails an entry whose streamed text contradicts its stream events', async () => {
    const dir = tempDir('rubricate-upkeep-')
    const file = await new CassetteStore(dir).write(streamEntry('a.test.ts > streams'))
    expect((await verifyCassettes(dir)).problems).toEqual([])
    await editJson(file, (data) => {
      data.response.streamedText = 'Goodbye.'
    })
    const { problems } = await verifyCassettes(dir)
    expect(problems.map((p) => p.problem)).toEqual([
      'its "response.streamedText" does not match its stream events (the file shows "Goodbye.", the recorded reply gives "Hello there."): replay serves the events, not the text a reviewer reads. Restore the file as recorded, or record it again',
    ])
  })

  test('verify fails an entry whose "$float32" numbers are not the embedding replay serves, or that carries a member rubricate never writes', async () => {
    const dir = tempDir('rubricate-upkeep-')
    const body = { model: 'text-embedding-3-small', input: 'refund', encoding_format: 'base64' }
    const embedding = Buffer.from(new Float32Array([0.25, -1.5, 2.75]).buffer).toString('base64')
    const file = await new CassetteStore(dir).write({
      v: 2,
      key: computeKey('embeddings', body),
      recordedAt: '2026-01-01T00:00:00.000Z',
      recordedBy: 'a.test.ts > embeds',
      request: { method: 'POST', endpoint: 'embeddings', body },
      response: {
        status: 200,
        headers: { 'content-type': 'application/json' },
        json: { object: 'list', data: [{ object: 'embedding', index: 0, embedding }] },
      },
    })
    expect((await verifyCassettes(dir)).problems).toEqual([])
    const recorded = await readFile(file, 'utf8')
    // A reviewer reads 0.1; replay serves the nearest 32-bit float, 0.10000000149011612.
    await editJson(file, (data) => {
      data.response.json.data[0].embedding.$float32[0] = 0.1
    })
    expect((await verifyCassettes(dir)).problems.map((p) => p.problem)).toEqual([
      '"response.json.data[0].embedding.$float32[0]" is not as rubricate writes it (the file shows 0.1, the recorded reply gives 0.10000000149011612): what a reviewer reads there is not what replay serves. Restore the file as recorded, or record it again',
    ])
    // A note for reviewers that replay never reads is no part of an entry either.
    await writeFile(file, recorded)
    await editJson(file, (data) => {
      data.reviewed = 'approved by security'
    })
    expect((await verifyCassettes(dir)).problems.map((p) => p.problem)).toEqual([
      '"reviewed" is not as rubricate writes it (the file shows "approved by security", the recorded reply gives nothing): what a reviewer reads there is not what replay serves. Restore the file as recorded, or record it again',
    ])
  })

  test('verify refuses an entry that is a symbolic link out of the cassette folder, without following it', async () => {
    const dir = tempDir('rubricate-upkeep-')
    const elsewhere = tempDir('rubricate-elsewhere-')
    const real = await new CassetteStore(elsewhere).write(judgeEntry('a.test.ts > answers', true))
    await mkdir(join(dir, 'a.test.ts'), { recursive: true })
    const link = join(dir, 'a.test.ts', basename(real))
    await symlink(real, link)
    const { problems, entries } = await verifyCassettes(dir)
    expect(entries).toBe(1)
    expect(problems).toEqual([
      {
        file: link,
        problem: `a symbolic link to "${real}", outside the cassette folder: verify does not follow it, and replay would serve whatever it points to; replace the link with the file itself`,
      },
    ])
  })

  test('recording through a committed test folder that is a symbolic link out of the cassette folder writes nothing outside', async () => {
    const dir = tempDir('rubricate-upkeep-')
    const elsewhere = tempDir('rubricate-elsewhere-')
    await symlink(elsewhere, join(dir, 'a.test.ts'))
    const error = await new CassetteStore(dir).write(judgeEntry('a.test.ts > answers', true)).then(
      () => undefined,
      (thrown: unknown) => thrown,
    )
    expect(rootCause(error)).toMatchObject({ code: 'RUBRICATE_CASSETTE_WRITE' })
    expect((error as Error).message).toContain(
      `"${join(dir, 'a.test.ts')}" is a symbolic link to "${elsewhere}", outside the cassette folder, and rubricate writes only inside it`,
    )
    expect(await readdir(elsewhere)).toEqual([])
    // Deeper folders are not made through the link either.
    await new CassetteStore(dir)
      .write(judgeEntry('a.test.ts/sub/b.test.ts > answers', true))
      .catch(() => undefined)
    expect(await readdir(elsewhere)).toEqual([])
  })

  test('a "__proto__" member of a recorded reply survives the write and the read', async () => {
    const dir = tempDir('rubricate-upkeep-')
    const entry = judgeEntry('a.test.ts > answers', true)
    entry.response.json = JSON.parse(
      '{"choices":[],"__proto__":{"polluted":"no","lines":"one\\ntwo"},"after":1}',
    )
    const file = await new CassetteStore(dir).write(entry)
    const back = new CassetteStore(dir).readEntryFile(file) as CassetteEntry
    const json = back.response.json as Record<string, unknown>
    expect(Object.hasOwn(json, '__proto__')).toBe(true)
    expect(Object.getOwnPropertyDescriptor(json, '__proto__')?.value).toEqual({
      polluted: 'no',
      lines: 'one\ntwo',
    })
    expect(Object.getPrototypeOf(json)).toBe(Object.prototype)
    expect((await verifyCassettes(dir)).problems).toEqual([])
  })

  test('migrate keeps a "__proto__" member, and a format-1 file it cannot rewrite stays where it was, said so truthfully', async () => {
    const dir = tempDir('rubricate-upkeep-')
    const elsewhere = tempDir('rubricate-elsewhere-')
    const proto = await formatOne(
      dir,
      judgeEntry('a.test.ts > answers', true),
      '    "__proto__": { "kept": true }',
    )
    // Its test folder is a link out of the cassette folder: it cannot be rewritten.
    const stuck = await formatOne(dir, judgeEntry('b.test.ts > answers', true, 'Who?'))
    await symlink(elsewhere, join(dir, 'b.test.ts'))
    const report = await migrateCassettes(dir)
    expect(report.migrated.map((m) => m.from)).toEqual([proto])
    const back = new CassetteStore(dir).readEntryFile(report.migrated[0]!.to) as CassetteEntry
    expect(Object.getOwnPropertyDescriptor(back.response.json, '__proto__')?.value).toEqual({
      kept: true,
    })
    expect(existsSync(proto)).toBe(false)
    expect(report.problems.map((p) => p.file)).toEqual([stuck])
    expect(report.problems[0]!.problem).toContain('the old file was kept')
    expect(existsSync(stuck)).toBe(true)
    expect(await readdir(elsewhere)).toEqual([])
  })

  test('migrate rewrites the rest of a folder when one entry names its test with a NUL', async () => {
    const dir = tempDir('rubricate-upkeep-')
    const odd = await formatOne(dir, judgeEntry('a\u0000b.test.ts > answers', true))
    const plain = await formatOne(dir, judgeEntry('c.test.ts > answers', true, 'Who?'))
    const report = await migrateCassettes(dir)
    expect(report.problems).toEqual([])
    expect(report.migrated.map((m) => m.from).sort()).toEqual([odd, plain].sort())
    expect((await verifyCassettes(dir)).problems).toEqual([])
  })

  test('tests named after Windows devices record into files a Windows checkout can hold', async () => {
    const dir = tempDir('rubricate-upkeep-')
    const names = ['CON', 'nul', 'COM1', 'prn ', 'aux.', 'LPT9']
    const files: string[] = []
    for (const [i, name] of names.entries()) {
      files.push(
        await new CassetteStore(dir).write(judgeEntry(`con/nul.test.ts > ${name}`, true, `Q${i}`)),
      )
    }
    const device = /^(con|prn|aux|nul|com\d|lpt\d|conin\$|conout\$)$/i
    for (const file of files) {
      for (const part of file.slice(dir.length + 1).split('/')) {
        expect(device.test(part.split('.')[0]!), part).toBe(false)
        expect(/[. ]$/.test(part), part).toBe(false)
      }
    }
    expect(new Set(files).size).toBe(names.length)
  })
})

describe('3. Bad user input', () => {
  test('a labelled set saved with a UTF-8 byte order mark is read by calibrate, as describeEval reads its rows', async () => {
    const dir = tempDir('rubricate-upkeep-')
    const row = '{"output": "Refunded.", "criterion": "Explains the refund", "label": true}'
    await writeFile(join(dir, 'labels.jsonl'), `\uFEFF${row}\n`)
    await writeFile(join(dir, 'labels.json'), `\uFEFF[${row}]`)
    await writeFile(join(dir, 'rows.jsonl'), `\uFEFF{"input": "a"}\n`)
    expect(await loadRows('rows.jsonl', join(dir, 'suite.test.ts'))).toEqual([{ input: 'a' }])
    for (const name of ['labels.jsonl', 'labels.json']) {
      const set = await loadLabelSet(join(dir, name))
      expect(set.examples.map((example) => example.output)).toEqual(['Refunded.'])
    }
  })

  test('a CSV file whose header names a column twice is an error, not rows that silently keep the last value', async () => {
    const dir = tempDir('rubricate-upkeep-')
    await writeFile(join(dir, 'rows.csv'), 'input,expected,input\nfirst,x,second\n')
    await expect(loadRows('rows.csv', join(dir, 'suite.test.ts'))).rejects.toThrow(
      `[rubricate] describeEval() could not parse the data file "${join(dir, 'rows.csv')}" (CSV): its header names the column "input" twice (columns 1 and 3), and a row keeps one value a column: rename one of them.`,
    )
  })

  test.each([
    [
      'a file whose tests are no list',
      { v: 1, files: [{ file: 'rubric-pass.test.ts', tests: 5 }] },
      'files[0].tests is not a list',
    ],
    [
      'a verdict whose criterion is no text',
      {
        v: 1,
        files: [
          {
            file: 'rubric-pass.test.ts',
            tests: [
              {
                fullName: 'answers a refund question',
                records: [
                  {
                    kind: 'rubric',
                    verdicts: [
                      { criterion: { a: 1 }, required: true, satisfied: true, reasoning: 7 },
                    ],
                  },
                ],
              },
            ],
          },
        ],
      },
      'files[0].tests[0].records[0].verdicts[0].criterion is not a string',
    ],
  ])(
    'a compareWith report of the wrong shape (%s) still gets the page written and the passing run passes',
    async (_name, previous, reason) => {
      const dir = tempDir('rubricate-upkeep-')
      const report = join(dir, 'previous.json')
      const page = join(dir, 'report.html')
      await writeFile(report, JSON.stringify(previous))
      const run = await runVitest(
        'reporter',
        ['rubric-pass.test.ts', `--outputFile.rubricate-html=${page}`],
        {
          env: { RUBRICATE_COMPARE_WITH: report },
        },
      )
      expect(run.exitCode, run.stdout + run.stderr).toBe(0)
      expect(existsSync(page)).toBe(true)
      expect(run.stderr).toContain(
        `[rubricate] The report page is written without changes: the previous report "${report}" (compareWith, or RUBRICATE_COMPARE_WITH) could not be read: ${reason}.`,
      )
      expect(run.stderr).not.toContain('writable')
    },
    90_000,
  )
})
