// Group 4: the cassette folder is damaged, read-only, missing, or cannot be written. Each fault is
// a clear error naming the file (or a replay that still works), and nothing is lost or left
// half-written.
import { execFile, execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, onTestFinished, test, vi } from 'vitest'
import { configureRubricate } from '../../src'
import { createCassetteFetch } from '../../src/cassettes'
import { verifyCassettes } from '../../src/cassettes/maintenance/cassette-verify'
import { CassetteStore } from '../../src/cassettes/store/cassette-store'
import { withCallContext } from '../../src/runtime/call-context'
import { fakeReply } from '../../src/testing'
import { filesUnder, testIn, useCassetteFolder } from '../cassettes/support'
import { keys as pruneKeys } from '../fixtures/prune/keys'
import { linked, linkedPattern } from '../support/error-page'
import {
  assertDistIsBuilt,
  copyFixture,
  fixturesDir,
  removeCopy,
  repoRoot,
  runVitest,
} from '../support/run-vitest'
import {
  failureOf,
  judgeRubric,
  judgeServer,
  PASSING_VERDICT,
  SPLIT_VERDICT,
  SPLIT_VERDICTS,
} from './support'

const folder = useCassetteFolder()

/** Set the cassette mode for the rest of the test (useCassetteFolder() resets it to "off"). */
function mode(value: 'replay' | 'auto' | 'record'): void {
  process.env.RUBRICATE_CASSETTES = value
}

/** Record one judgment; its file, text and the judge that made it. */
async function recordOne(output = 'Hello! It is noon.') {
  const { server, judge } = await judgeServer(fakeReply.json(SPLIT_VERDICT))
  mode('auto')
  const result = await judgeRubric(judge, output)
  expect(result.judgeCalls[0]?.source).toBe('recorded')
  const key = result.judgeCalls[0]?.cassetteKey as string
  const file = (await new CassetteStore(folder.dir).list()).entries.find(
    (entry) => entry.key === key,
  )?.file as string
  server.clearRequests()
  return {
    server,
    judge,
    file,
    text: await readFile(file, 'utf8'),
    key: result.judgeCalls[0]?.cassetteKey as string,
  }
}

const corrupt = (file: string, reason: string) =>
  linked(
    `[rubricate] The cassette file "${file}" cannot be used: ${reason}. It was left as it was. Restore it from version control, or delete it and record it again with RUBRICATE_CASSETTES=auto; "npx rubricate cassettes verify" checks every file.`,
    'cassette-corrupt',
  )

const writeFailed = (file: string, reason: string) =>
  linked(
    `[rubricate] Could not write the cassette file "${file}": ${reason}. Recording needs a writable cassette folder; on a read-only checkout run with RUBRICATE_CASSETTES=replay.`,
    'cassette-write',
  )

/**
 * Make a folder truly read-only for this process until the test ends. Root ignores permission
 * bits, so as root the folder and everything in it are made immutable (`chattr +i`, ext4 and
 * most Linux file systems); anyone else gets the write bits removed.
 */
function makeReadOnly(dir: string): void {
  const root = process.getuid?.() === 0
  if (root) execFileSync('chattr', ['-R', '+i', dir])
  else execFileSync('chmod', ['-R', 'a-w', dir])
  onTestFinished(() => {
    if (root) execFileSync('chattr', ['-R', '-i', dir])
    else execFileSync('chmod', ['-R', 'u+w', dir])
  })
}

interface Damage {
  name: string
  /** The damaged content, from the good text and the text of another entry. */
  content: (good: string, other: string) => string | Buffer
  /** The reason given; a RegExp where the parser's wording may vary. */
  reason: string | RegExp
}

const damages: Damage[] = [
  {
    name: 'an empty file',
    content: () => '',
    reason: 'it is not valid JSON (Unexpected end of JSON input)',
  },
  {
    name: 'a file of blank lines',
    content: () => '\n\n  \n',
    reason: 'it is not valid JSON (Unexpected end of JSON input)',
  },
  {
    name: 'a file truncated half-way',
    content: (good) => good.slice(0, good.length >> 1),
    reason: /^it is not valid JSON \(.+\)$/,
  },
  {
    name: 'a file cut one byte short',
    content: (good) => good.trimEnd().slice(0, -1),
    reason: /^it is not valid JSON \(.+\)$/,
  },
  {
    name: 'bytes that are not UTF-8',
    content: () => Buffer.from([0xff, 0xfe, 0x00, 0x7b, 0xc3, 0x28]),
    reason: /^it is not valid JSON \(.+\)$/,
  },
  {
    name: 'a file left with merge-conflict markers',
    content: (good, other) => `<<<<<<< HEAD\n${good}=======\n${other}>>>>>>> main\n`,
    reason: /^it is not valid JSON \(.+\)$/,
  },
  { name: 'JSON null', content: () => 'null', reason: 'it is not a JSON object' },
  { name: 'a JSON list', content: (good) => `[${good}]`, reason: 'it is not a JSON object' },
  {
    name: 'a newer format version',
    content: (good) => good.replace('"v": 2', '"v": 3'),
    reason: 'its format version "v" is 3, not 1 or 2',
  },
  {
    name: 'a key that is not a sha256',
    content: (good) => good.replace(/"key": "[0-9a-f]{64}"/, '"key": "abc"'),
    reason: 'its "key" is not a sha256 hex string',
  },
  {
    name: 'a response with no body',
    content: (good) =>
      JSON.stringify({ ...JSON.parse(good), response: { status: 200, headers: {} } }),
    reason: 'its "response" must hold exactly one of "json", "text", "base64", "sse"',
  },
  {
    name: 'a status that is not a number',
    content: (good) => good.replace('"status": 200', '"status": "200"'),
    reason: 'its "response.status" is not an integer',
  },
  {
    name: 'no request',
    content: (good) => JSON.stringify({ ...JSON.parse(good), request: undefined }),
    reason: 'it has no "request" object',
  },
]

describe('4. Cassette faults', () => {
  test.for(damages)(
    '$name is RUBRICATE_CASSETTE_CORRUPT naming the file, left as it was, in replay and auto mode',
    async ({ content, reason }) => {
      const other = await recordOne('Another output.')
      const { server, judge, file, text } = await recordOne()
      const damaged = content(text, other.text)
      await writeFile(file, damaged)
      for (const each of ['replay', 'auto'] as const) {
        mode(each)
        const { root } = await failureOf(judgeRubric(judge))
        expect(root.code).toBe('RUBRICATE_CASSETTE_CORRUPT')
        expect(root.file).toBe(file)
        if (typeof reason === 'string') expect(root.message).toBe(corrupt(file, reason))
        else {
          const [head, tail] = corrupt(file, '\0').split('\0') as [string, string]
          expect(root.message.startsWith(head) && root.message.endsWith(tail)).toBe(true)
          expect(root.message.slice(head.length, -tail.length)).toMatch(reason)
        }
      }
      expect(await readFile(file)).toEqual(Buffer.from(damaged))
      // Never sent live in place of the damaged entry; the other entry still replays.
      expect(server.requests).toHaveLength(0)
      mode('replay')
      expect((await judgeRubric(other.judge, 'Another output.')).judgeCalls[0]?.source).toBe(
        'replayed',
      )
    },
  )

  test('a file saved with a UTF-8 byte order mark replays, and "rubricate cassettes verify" accepts it', async () => {
    const { server, judge, file, text } = await recordOne()
    await writeFile(file, `\uFEFF${text}`)
    mode('replay')
    const result = await judgeRubric(judge)
    expect(result.judgeCalls[0]?.source).toBe('replayed')
    expect(result.verdicts).toEqual(SPLIT_VERDICTS)
    expect(server.requests).toHaveLength(0)
    expect((await verifyCassettes(folder.dir)).problems).toEqual([])
  })

  test.for([
    { name: 'an HTTP 404', reply: fakeReply.status(404), warns: true },
    { name: 'an HTTP 400', reply: fakeReply.status(400), warns: true },
    {
      name: 'a 200 HTML login page',
      reply: fakeReply.raw({
        headers: { 'content-type': 'text/html' },
        body: '<html><body>Sign in</body></html>',
      }),
      warns: false,
    },
  ])(
    're-recording while the judge answers $name fails the call and leaves the good entry as it was',
    async ({ reply, warns }) => {
      const { judge, file, text } = await recordOne()
      const failing = await judgeServer(reply)
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
      onTestFinished(() => warn.mockRestore())
      mode('record')
      await failureOf(judgeRubric(failing.judge))
      expect(failing.server.requests.length).toBeGreaterThan(0)
      expect(await readFile(file, 'utf8')).toBe(text)
      const said = warn.mock.calls.map((args) => String(args[0]))
      if (warns) {
        expect(said).toContainEqual(
          expect.stringMatching(
            /^\[rubricate\] Did not record the HTTP 40[04] reply to this chat\/completions call over ".+", which holds a successful reply to the same request: a failed exchange never replaces a good recording\./,
          ),
        )
      }
      mode('replay')
      const replayed = await judgeRubric(judge)
      expect(replayed.judgeCalls[0]?.source).toBe('replayed')
      expect(replayed.verdicts).toEqual(SPLIT_VERDICTS)
    },
  )

  test('a 200 HTML page from the judge is never recorded, so the next run asks again', async () => {
    const { server, judge } = await judgeServer(
      fakeReply.raw({ headers: { 'content-type': 'text/html' }, body: '<html>Sign in</html>' }),
    )
    mode('auto')
    await failureOf(judgeRubric(judge))
    expect(await filesUnder(folder.dir)).toEqual([])
    const before = server.requests.length
    await failureOf(judgeRubric(judge))
    expect(server.requests.length).toBeGreaterThan(before)
  })

  test('a recorded judge reply that ends in RUBRICATE_JUDGE_OUTPUT names its cassette file and the re-record command on replay', async () => {
    const { judge } = await judgeServer(fakeReply.text('I would rather not say.'))
    mode('auto')
    // Recorded and replayed by the same test: a reply is served to the test that recorded it.
    const live = await failureOf(
      withCallContext({ test: testIn('judged reply') }, () => judgeRubric(judge)),
    )
    expect(live.root.code).toBe('RUBRICATE_JUDGE_OUTPUT')
    expect(live.root.message).not.toContain('replayed from the cassette entry')
    mode('replay')
    const { root } = await failureOf(
      withCallContext({ test: testIn('judged reply') }, () => judgeRubric(judge)),
    )
    expect(root.code).toBe('RUBRICATE_JUDGE_OUTPUT')
    expect(root.message).toMatch(
      linkedPattern(
        /\nThis reply was replayed from the cassette entry ".+\/[a-z0-9-]+\.[0-9a-f]{12}\.json", so it fails the same way on every replay\. Record the judge's answer again with:\n {2}RUBRICATE_CASSETTES=record npx vitest run .+ -t "judged reply"\nor delete the file and run with RUBRICATE_CASSETTES=auto\.$/,
        'judge-output',
      ),
    )
  })

  test("an agent's call recorded as an HTTP 400 says so when it is replayed, once per entry", async () => {
    const { server } = await judgeServer(fakeReply.status(400, { message: 'Unknown model' }))
    const client = createCassetteFetch()
    const call = () =>
      client(`${server.baseURL}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-nope', messages: [{ role: 'user', content: 'hi' }] }),
      })
    mode('auto')
    expect((await call()).status).toBe(400)
    expect(await filesUnder(folder.dir)).toHaveLength(1)
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    onTestFinished(() => warn.mockRestore())
    mode('replay')
    expect((await call()).status).toBe(400)
    expect((await call()).status).toBe(400)
    const said = warn.mock.calls.map((args) => String(args[0]))
    expect(said).toHaveLength(1)
    expect(said[0]).toMatch(
      /^\[rubricate\] A chat\/completions call was answered from ".+\.json", a recording of an HTTP 400 error\. Code that swallows the error can pass its test on a failed call\./,
    )
  })

  test('a file holding another entry (its key does not match its name) is RUBRICATE_CASSETTE_CORRUPT', async () => {
    const other = await recordOne('Another output.')
    const { judge, file, key } = await recordOne()
    await writeFile(file, other.text)
    mode('replay')
    const { root } = await failureOf(judgeRubric(judge))
    expect(root.message).toBe(
      corrupt(file, `its "key" is ${other.key}, but the file is named for ${key}`),
    )
    expect(await readFile(file, 'utf8')).toBe(other.text)
  })

  test('a folder where the entry file should be is RUBRICATE_CASSETTE_CORRUPT naming it, with no retry', async () => {
    const { server, judge, file } = await recordOne()
    await rm(file)
    await mkdir(file)
    mode('replay')
    const { root } = await failureOf(judgeRubric(judge))
    expect(root.message).toBe(
      corrupt(file, 'it cannot be read (EISDIR: illegal operation on a directory, read)'),
    )
    expect(server.requests).toHaveLength(0)
  })

  test('a read-only cassette folder replays every hit, in replay and in auto mode', async () => {
    const { server, judge, text, file } = await recordOne()
    makeReadOnly(folder.dir)
    for (const each of ['replay', 'auto'] as const) {
      mode(each)
      const result = await judgeRubric(judge)
      expect(result.verdicts).toEqual(SPLIT_VERDICTS)
      expect(result.judgeCalls[0]?.source).toBe('replayed')
    }
    expect(server.requests).toHaveLength(0)
    expect(await readFile(file, 'utf8')).toBe(text)
  })

  test('recording into a read-only cassette folder is a clear error naming the file, and changes nothing', async () => {
    const { judge, text, file } = await recordOne()
    makeReadOnly(folder.dir)
    const before = await filesUnder(folder.dir)
    mode('record')
    // The same reply again: there is nothing to write (no churn), so the read-only folder is fine.
    const rerecord = await judgeRubric(judge)
    expect(rerecord.judgeCalls[0]?.source).toBe('recorded')
    expect(await readFile(file, 'utf8')).toBe(text)
    mode('auto')
    const miss = await failureOf(judgeRubric(judge, 'A new output, never recorded.'))
    expect(miss.root.message).toMatch(
      /^\[rubricate\] Could not write the cassette file ".+\.json": (EPERM|EACCES|EROFS): /,
    )
    expect(await filesUnder(folder.dir)).toEqual(before)
    expect(await readFile(file, 'utf8')).toBe(text)
  })

  test('a missing cassette folder is a miss in replay mode (nothing created), and is created by a recording', async () => {
    const { judge } = await judgeServer(fakeReply.json(SPLIT_VERDICT))
    const dir = join(folder.dir, 'not', 'there', 'yet')
    configureRubricate({ cassettes: { dir } })
    mode('replay')
    const { root } = await failureOf(judgeRubric(judge))
    expect(root.code).toBe('RUBRICATE_CASSETTE_MISS')
    expect(existsSync(join(folder.dir, 'not'))).toBe(false)
    mode('auto')
    expect((await judgeRubric(judge)).judgeCalls[0]?.source).toBe('recorded')
    mode('replay')
    expect((await judgeRubric(judge)).verdicts).toEqual(SPLIT_VERDICTS)
  })

  test('a file where the cassette folder should be: a miss on replay, a clear write error on record', async () => {
    const { judge } = await judgeServer(fakeReply.json(SPLIT_VERDICT))
    const dir = join(folder.dir, 'cassettes')
    await writeFile(dir, 'not a folder')
    configureRubricate({ cassettes: { dir } })
    mode('replay')
    expect((await failureOf(judgeRubric(judge))).root.code).toBe('RUBRICATE_CASSETTE_MISS')
    mode('auto')
    const { root } = await failureOf(judgeRubric(judge))
    expect(root.code).toBe('RUBRICATE_CASSETTE_WRITE')
    const entryFile = /"(.+)": ENOTDIR/.exec(root.message)?.[1] ?? ''
    expect(entryFile).toMatch(
      new RegExp(`^${escapeRegExp(dir)}/.+/[a-z0-9-]+\\.[0-9a-f]{12}\\.json$`),
    )
    expect(root.message).toMatch(
      new RegExp(
        `^${escapeRegExp(writeFailed(entryFile, '\0')).replace('\0', "ENOTDIR: not a directory, mkdir '.+'")}$`,
      ),
    )
    expect(await readFile(dir, 'utf8')).toBe('not a folder')
  })

  test('a write that fails half-way (file size limit) leaves no entry and no temp file, and a later recording works', async () => {
    assertDistIsBuilt()
    const { server } = await judgeServer(fakeReply.json(PASSING_VERDICT))
    const run = async (limit: string) => {
      const { stdout } = await promisify(execFile)(
        'bash',
        [
          '-c',
          `ulimit -f ${limit} && exec "$0" "$1"`,
          process.execPath,
          join(fixturesDir, 'reliability-cassettes/record-one.mjs'),
        ],
        {
          cwd: join(fixturesDir, '..', '..'),
          env: {
            PATH: process.env.PATH,
            CASSETTE_DIR: folder.dir,
            FAKE_OPENAI_URL: server.baseURL,
            OUTPUT: `Hello! It is noon. ${'More words. '.repeat(500)}`,
          },
        },
      )
      return JSON.parse(stdout.trim().split('\n').at(-1) as string)
    }
    // 2 KB: the entry (over 6 KB) is cut off mid-write with EFBIG.
    const failed = await run('2')
    expect(failed.code).toBe('RUBRICATE_CASSETTE_WRITE')
    expect(failed.message).toMatch(
      linkedPattern(
        /^\[rubricate\] Could not write the cassette file ".+\/[a-z0-9-]+\.[0-9a-f]{12}\.json": EFBIG: file too large, write\. Recording needs a writable cassette folder; on a read-only checkout run with RUBRICATE_CASSETTES=replay\.$/,
        'cassette-write',
      ),
    )
    expect(await filesUnder(folder.dir)).toEqual([])
    expect(await run('unlimited')).toEqual({ passed: true, source: 'recorded' })
    // The entry, and the reply schema it references.
    const files = (await filesUnder(folder.dir)).filter(
      (file) => !file.startsWith('_shared/schemas/'),
    )
    expect(files).toHaveLength(1)
    expect(files[0]).toMatch(/\/[a-z0-9-]+\.[0-9a-f]{12}\.json$/)
    expect(
      JSON.parse(await readFile(join(folder.dir, files[0] as string), 'utf8')).response.status,
    ).toBe(200)
  })

  test('leftover temp files and stray files in the folder do not disturb a replay', async () => {
    const { judge, file } = await recordOne()
    await writeFile(`${file}.4242.0.abcdefgh.tmp`, '{"v": 1, "key": "half')
    await writeFile(join(folder.dir, 'README.md'), '# cassettes')
    mode('replay')
    expect((await judgeRubric(judge)).verdicts).toEqual(SPLIT_VERDICTS)
  })

  test('a file whose request was edited after recording, and damaged files, are each named by "rubricate cassettes verify"', async () => {
    assertDistIsBuilt()
    const edited = await recordOne('Edited later.')
    const damaged = await recordOne('Damaged later.')
    const { file } = await recordOne()
    await writeFile(edited.file, edited.text.replace('Edited later.', 'Edited by hand.'))
    await writeFile(damaged.file, damaged.text.slice(0, 100))
    await writeFile(`${file}.999.0.zzzzzzzz.tmp`, '{')
    const verify = await promisify(execFile)(
      process.execPath,
      [join(repoRoot, 'dist/cli.js'), 'cassettes', 'verify', '--dir', folder.dir],
      { cwd: folder.dir },
    ).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number; stderr: string }) => error,
    )
    expect(verify.code).toBe(1)
    const lines = verify.stderr.trim().split('\n')
    expect(lines[0]).toBe('[rubricate] 3 problems in ./ (3 entries):')
    const named = (path: string) =>
      lines.find((line) => line.startsWith(`  ${relative(folder.dir, path)}: `))
    expect(named(edited.file)).toMatch(
      /: its request keys to [0-9a-f]{64}, not [0-9a-f]{64}: the request was edited after recording, so replay will never find it; record it again$/,
    )
    expect(named(damaged.file)).toMatch(/: it is not valid JSON \(.+\)$/)
    expect(named(`${file}.999.0.zzzzzzzz.tmp`)).toMatch(
      /: a temporary file left by an interrupted write; delete it$/,
    )
    // The untouched entry still replays; the edited one still answers its original request.
    mode('replay')
    expect((await judgeRubric(edited.judge, 'Edited later.')).judgeCalls[0]?.source).toBe(
      'replayed',
    )
  })

  test('prune refuses after "vitest run --exclude <file>", and deletes nothing', async () => {
    const root = await copyFixture('prune')
    onTestFinished(() => removeCopy(root))
    expect((await runVitest(root, ['--exclude', 'angry.test.ts'])).exitCode).toBe(0)
    const refused = await pruneIn(root)
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain(
      'was not complete: it left out files matching "angry.test.ts" (--exclude).',
    )
    expect(await entriesIn(root)).toHaveLength(3)
  }, 60_000)

  test("prune keeps what another config sharing the cassette folder recorded or used, and deletes only the run's own unused entries", async () => {
    const root = await copyFixture('prune')
    onTestFinished(() => removeCopy(root))
    const other = 'e'.repeat(64)
    const shared = 'f'.repeat(64)
    const plant = async (key: string, recordedBy: string) => {
      await mkdir(join(root, '__cassettes__', key.slice(0, 2)), { recursive: true })
      await writeFile(
        join(root, '__cassettes__', key.slice(0, 2), `${key}.json`),
        `${JSON.stringify({
          v: 1,
          key,
          recordedAt: '2026-01-01T00:00:00.000Z',
          recordedBy,
          request: { method: 'POST', endpoint: 'chat/completions', body: {} },
          response: { status: 200, headers: {}, json: {} },
        })}\n`,
      )
    }
    // Recorded by the other config's test; and one recorded by this suite's file but used by the
    // other config only.
    await plant(other, 'other.spec.ts > uses the shared folder')
    await plant(shared, 'refund.test.ts > a test since renamed')
    await writeFile(
      join(root, 'other.spec.ts'),
      `import { test } from 'vitest'\nimport { usage } from '../records'\n\ntest('uses the shared folder', ({ task }) => {\n  task.file.meta.rubricateCassettes = usage({ used: ['${shared}'] })\n})\n`,
    )
    await writeFile(
      join(root, 'vitest.other.config.ts'),
      `import { defineConfig } from 'vitest/config'\n\nexport default defineConfig({\n  test: { include: ['*.spec.ts'], reporters: ['default', 'rubricate/reporter'] },\n})\n`,
    )
    expect((await runVitest(root, ['--config', 'vitest.other.config.ts'])).exitCode).toBe(0)
    expect((await runVitest(root)).exitCode).toBe(0)
    const pruned = await pruneIn(root)
    expect(pruned.code).toBe(0)
    expect(pruned.stdout).toContain(`__cassettes__/5b/${pruneKeys.retired}.json`)
    expect(pruned.stdout).toContain(
      '[rubricate] Kept 1 unused entry in "__cassettes__" recorded by test files that the last complete run does not include (another Vitest config sharing the folder?).',
    )
    expect(await entriesIn(root)).toEqual(
      [pruneKeys.angry, pruneKeys.refund, other, shared]
        .map((k) => `${k.slice(0, 2)}/${k}.json`)
        .sort(),
    )
  }, 60_000)
})

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

async function entriesIn(root: string): Promise<string[]> {
  return (await filesUnder(join(root, '__cassettes__'))).sort()
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
