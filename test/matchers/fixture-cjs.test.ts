// Runs Vitest on CommonJS projects (Vite loads their vitest.config.ts as CommonJS, so the
// rubricate entries it imports are required: the ES modules of dist/, as Node >= 20.19 requires
// them) that reach the package through a
// node_modules/rubricate link made here, as an installed copy would be: test/fixtures/matchers-cjs
// (hand-written scorers) and test/fixtures/judged-cjs (a fake judge over HTTP, recorded, replayed).
import { existsSync } from 'node:fs'
import { mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises'
import { join, sep } from 'node:path'
import { beforeAll, expect, test } from 'vitest'
import { failureBlock } from '../support/failure-block'
import { copyFixture, fixturesDir, removeCopy, repoRoot, runVitest } from '../support/run-vitest'

const fixture = join(fixturesDir, 'matchers-cjs')

/** Make `dir/node_modules/rubricate` a link to the repository, unless it exists. */
async function linkRubricate(dir: string): Promise<void> {
  const link = join(dir, 'node_modules/rubricate')
  if (existsSync(link)) return
  await mkdir(join(dir, 'node_modules'), { recursive: true })
  // Several workers may get here at once; a link that appeared meanwhile is as good.
  await symlink(repoRoot, link, 'dir').catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error
  })
}

beforeAll(async () => {
  await linkRubricate(fixture)
})

test('a CommonJS project loads the plugin in its vitest.config.ts and gets the matchers', async () => {
  const run = await runVitest(fixture, [])
  expect(run.stdout).toContain('Tests  1 failed | 4 passed (5)')
  expect(
    failureBlock(run.stderr, 'verdicts.test.ts > fails an unmet rubric'),
  ).toBe(`Error: expect(output).toSatisfyRubric(criteria)

Rubric not satisfied: 1 of 1 required criterion unmet.

  ✗ [required] Mentions refund
      → It does not.

Output: "hello"`)
  expect(run.exitCode).toBe(1)
})

/** The cassette files of a project, by path under __cassettes__, parsed. */
async function cassettes(dir: string): Promise<Record<string, any>> {
  const folder = join(dir, '__cassettes__')
  const files = (await readdir(folder, { recursive: true })).filter(
    (name) => name.endsWith('.json') && !name.split(sep).join('/').startsWith('_shared/schemas/'),
  )
  const out: Record<string, any> = {}
  for (const file of files.sort()) {
    const text = await readFile(join(folder, file), 'utf8')
    // Reviewable: pretty-printed JSON, and no trace of the judge's API key.
    expect(text).toContain('\n  "request": {\n')
    expect(text).not.toContain('sk-fixture')
    out[file] = JSON.parse(text)
  }
  return out
}

test('a CommonJS project records a judged rubric over HTTP, replays it offline under CI, and a changed criterion is a cassette miss', async () => {
  const dir = await copyFixture('judged-cjs')
  try {
    await linkRubricate(dir)
    // The fixture's config starts the fake judge (rubricate/testing, required) when asked to.
    const recorded = await runVitest(dir, [], {
      env: { START_FAKE_JUDGE: '1', RUBRICATE_CASSETTES: 'record' },
    })
    expect(recorded.stdout).toContain('Tests  2 passed (2)')
    expect(recorded.stdout).toContain(
      'Judge  2 calls: 0 replayed, 2 live (all recorded into cassettes)',
    )
    expect(recorded.exitCode).toBe(0)
    const files = await cassettes(dir)
    expect(Object.keys(files)).toHaveLength(2)
    for (const [file, entry] of Object.entries(files)) {
      expect(file.split(sep).join('/')).toMatch(
        new RegExp(`^judged\\.test\\.ts/[a-z0-9-]+\\.${entry.key.slice(0, 12)}\\.json$`),
      )
      expect(entry).toMatchObject({
        promptVersion: 'rubric-v2',
        request: { method: 'POST', endpoint: 'chat/completions', body: { model: 'gpt-judge' } },
        response: { status: 200 },
      })
    }
    expect(
      Object.values(files)
        .map((entry) => entry.recordedBy)
        .sort(),
    ).toEqual([
      'judged.test.ts > .not passes when a required criterion is unmet',
      'judged.test.ts > acknowledges the double charge',
    ])

    // No fake judge this time: nothing listens at the judge's address, so only replay can pass.
    const replayed = await runVitest(dir, [], { ci: true })
    expect(replayed.stdout).toContain('Tests  2 passed (2)')
    expect(replayed.stdout).toContain('Judge  2 calls: 2 replayed, 0 live')
    expect(replayed.exitCode).toBe(0)
    expect(await cassettes(dir)).toEqual(files)

    const testFile = join(dir, 'judged.test.ts')
    const source = await readFile(testFile, 'utf8')
    expect(source).toContain('- Mentions double charge')
    await writeFile(
      testFile,
      source.replace('- Mentions double charge', '- Mentions charged twice'),
    )
    const changed = await runVitest(dir, [], { ci: true })
    expect(changed.stdout).toContain('Tests  1 failed | 1 passed (2)')
    expect(changed.exitCode).toBe(1)
    const nearest = Object.entries(files).find(
      ([, entry]) => entry.recordedBy === 'judged.test.ts > acknowledges the double charge',
    )?.[0]
    expect(failureBlock(changed.stderr, 'judged.test.ts > acknowledges the double charge')).toMatch(
      new RegExp(
        `^${escapeRegExp(`CassetteMissError: expect(output).toSatisfyRubric(criteria)

This assertion could not be decided, so it fails with or without .not (RUBRICATE_CASSETTE_MISS):
[rubricate] Cassette miss: no recorded reply matches this judge call, and cassettes are in replay mode (CI is set), so no network call was made.
  test:     judged.test.ts > acknowledges the double charge
  endpoint: chat/completions
  model:    gpt-judge
  key:      `)}[0-9a-f]{64}\n${escapeRegExp(`  nearest:  __cassettes__/${nearest} (recorded by "judged.test.ts > acknowledges the double charge")
`)}  recorded: at "http://127\\.0\\.0\\.1:\\d+/v1"; this call goes to "http://127\\.0\\.0\\.1:65535/v1" \\(record against the endpoint that served it, with its base URL set\\)\n${escapeRegExp(`  differs:  messages[1].content
`)}  changed:  messages\\[1\\]\\.content was .+\n${escapeRegExp(`Record it with:
`)}  OPENAI_BASE_URL=http://127\\.0\\.0\\.1:\\d+/v1 ${escapeRegExp(`RUBRICATE_CASSETTES=auto npx vitest run judged.test.ts -t "acknowledges the double charge"
then commit the new files in __cassettes__/.
Recording calls the model live: it needs its API key (OPENAI_API_KEY for an "openai/..." model) and its real base URL (OPENAI_BASE_URL, when it is not api.openai.com).
See https://rubricate.github.io/rubricate/errors/cassette-miss`)}$`,
      ),
    )
  } finally {
    await removeCopy(dir)
  }
})

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
