// Runs Vitest on test/fixtures/judged-esm: text rubrics judged by a fake judge through the real
// rubric scorer, a support agent calling the same fake server, live, then recorded and replayed.
import { readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { FakeOpenAI } from '../../src/testing'
import { failureBlock } from '../support/failure-block'
import { startFixtureOpenAI } from '../support/fixture-openai'
import { copyFixture, removeCopy, runVitest } from '../support/run-vitest'

let server: FakeOpenAI

beforeAll(async () => {
  server = await startFixtureOpenAI()
})

afterAll(async () => {
  await server.close()
})

test('live: passing and failing rubrics, .not, concurrent tests, a loop, and a judge error failing both ways', async () => {
  const run = await runVitest('judged-esm', [], {
    env: { FAKE_OPENAI_URL: server.baseURL, RUBRICATE_CASSETTES: 'off' },
  })
  expect(run.stdout).toContain('Tests  4 failed | 4 passed (8)')
  expect(run.exitCode).toBe(1)
  expect(failureBlock(run.stderr, 'judged.test.ts > misses an apology')).toMatch(
    /^Error: expect\(output\)\.toSatisfyRubric\(criteria\)\n\nRubric not satisfied: 1 of 2 required criteria unmet\.\n\n {2}✓ \[required\] Mentions refund\n {6}→ The output says "refund"\.\n {2}✗ \[required\] Mentions sorry\n {6}→ The output never says "sorry"\.\n {2}○ \[optional\] Mentions days\n {6}→ The output never says "days"\.\n\nOutput: "Echo: where is my refund"\nJudge: gpt-judge · live · [\d,]+ tokens$/,
  )
  const fastFail = failureBlock(run.stderr, 'judged.test.ts > concurrent: a fast fail')
  expect(fastFail).toContain('✗ [required] Mentions refund')
  expect(fastFail).toContain('Output: "sorry about that"')
  for (const name of ['toSatisfyRubric', '.not.toSatisfyRubric']) {
    const block = failureBlock(run.stderr, `judge-error.test.ts > a judge error fails ${name}`)
    expect(block).toMatch(
      /^JudgeRequestError: expect\(output\)(\.not)?\.toSatisfyRubric\(criteria\)\n\nThis assertion could not be decided, so it fails with or without \.not \(RUBRICATE_JUDGE_REQUEST\):\n\[rubricate\] /,
    )
    expect(block).toContain('401')
  }
})

interface MetaReport {
  [file: string]: {
    meta: { rubricateCassettes?: { mode: string; used: string[]; misses: unknown[] } }
    tests: Record<string, { state: string; meta: { rubricate?: { status: string }[] } }>
  }
}

async function runCopy(
  dir: string,
  options: { ci?: boolean; env?: Record<string, string>; args?: string[] },
) {
  const metaFile = join(dir, 'meta.json')
  const run = await runVitest(
    dir,
    [
      'judged.test.ts',
      '--reporter=default',
      '--reporter=./meta-reporter.ts',
      ...(options.args ?? []),
    ],
    {
      ci: options.ci,
      env: { FAKE_OPENAI_URL: server.baseURL, META_OUTPUT: metaFile, ...options.env },
    },
  )
  const report = JSON.parse(await readFile(metaFile, 'utf8')) as MetaReport
  const file = report['judged.test.ts']
  const states = Object.fromEntries(
    Object.entries(file?.tests ?? {}).map(([name, test]) => [
      name,
      [test.state, (test.meta.rubricate ?? []).map((record) => record.status)],
    ]),
  )
  return { run, states, cassettes: file?.meta.rubricateCassettes }
}

const judgeRequests = () => server.requests.filter((request) => request.body?.model === 'gpt-judge')

test('a record run, then an offline replay run with CI=true, give the same verdicts', async () => {
  const dir = await copyFixture('judged-esm')
  try {
    server.clearRequests()
    const recorded = await runCopy(dir, {})
    expect(recorded.cassettes?.mode).toBe('auto')
    const judgedLive = judgeRequests().length
    expect(judgedLive).toBeGreaterThan(0)
    const files = (await readdir(join(dir, '__cassettes__'), { recursive: true })).filter((name) =>
      name.endsWith('.json'),
    )
    expect(files.length).toBeGreaterThanOrEqual(judgedLive)

    const agentFiles = files.length - judgedLive
    expect(agentFiles).toBeGreaterThan(0)

    // Offline: the server is told to refuse everything, and is never asked.
    server.clearRequests()
    const replayed = await runCopy(dir, {
      ci: true,
      env: { FAKE_OPENAI_URL: 'http://127.0.0.1:65535/v1' },
    })
    expect(server.requests).toHaveLength(0)
    expect(replayed.cassettes).toMatchObject({ mode: 'replay', misses: [] })
    expect(replayed.cassettes?.used.length).toBeGreaterThanOrEqual(judgedLive)
    expect(replayed.states).toEqual(recorded.states)
    expect(replayed.states).toEqual({
      'answers a refund question': ['passed', ['pass']],
      'misses an apology': ['failed', ['fail']],
      '.not passes when a required criterion is unmet': ['passed', ['pass']],
      'concurrent: a slow pass': ['passed', ['pass']],
      'concurrent: a fast fail': ['failed', ['fail']],
      'a loop with the rubric scorer completes once the agent takes the feedback': [
        'passed',
        ['pass'],
      ],
    })
    expect(replayed.run.exitCode).toBe(1)
    expect(failureBlock(replayed.run.stderr, 'judged.test.ts > misses an apology')).toMatch(
      /\nJudge: gpt-judge · replayed · [\d,]+ tokens$/,
    )

    // `vitest -u` re-records, like snapshots: every judge call goes live again.
    server.clearRequests()
    const updated = await runCopy(dir, { args: ['-u'] })
    expect(updated.cassettes?.mode).toBe('record')
    expect(judgeRequests()).toHaveLength(judgedLive)
    expect(updated.states).toEqual(recorded.states)
  } finally {
    await removeCopy(dir)
  }
})

test('in replay mode a miss fails its assertion, and a miss the code under test swallowed fails the test that made it, once', async () => {
  const dir = await copyFixture('judged-esm')
  try {
    await writeFile(
      join(dir, 'unrecorded.test.ts'),
      `import { createRubricScorer } from 'rubricate'
import { expect, test } from 'vitest'
import { supportAgent } from './support-agent'

test('a rubric with no cassette', async () => {
  await expect('sorry, refund').toSatisfyRubric('- Mentions refund')
})

test('a scorer whose miss is caught', async () => {
  const scorer = createRubricScorer({ criteria: '- Mentions sorry' })
  await scorer.run({ output: 'sorry' }).catch(() => undefined)
})

test('an agent whose miss is caught', async () => {
  await supportAgent('a question never recorded').catch(() => undefined)
})

test('an agent whose miss fails the test', async () => {
  await supportAgent('another question never recorded')
})
`,
    )
    server.clearRequests()
    const run = await runVitest(dir, ['unrecorded.test.ts'], {
      ci: true,
      env: { FAKE_OPENAI_URL: server.baseURL },
    })
    expect(server.requests).toHaveLength(0)
    expect(run.exitCode).toBe(1)
    const miss = failureBlock(run.stderr, 'unrecorded.test.ts > a rubric with no cassette')
    expect(miss).toMatch(
      /^CassetteMissError: expect\(output\)\.toSatisfyRubric\(criteria\)\n\nThis assertion could not be decided, so it fails with or without \.not \(RUBRICATE_CASSETTE_MISS\):\n\[rubricate\] /,
    )
    expect(miss).toContain('RUBRICATE_CASSETTES=auto npx vitest run')
    // A swallowed miss fails the test that made the call, with the miss and its record command;
    // the file does not fail for it too.
    for (const name of ['a scorer whose miss is caught', 'an agent whose miss is caught']) {
      const swallowed = failureBlock(run.stderr, `unrecorded.test.ts > ${name}`)
      expect(swallowed).toMatch(
        /^Error: \[rubricate\] This test fails: a call made during it could not be decided \(RUBRICATE_CASSETTE_MISS\), and the error was caught /,
      )
      expect(swallowed).toContain(
        `RUBRICATE_CASSETTES=auto npx vitest run unrecorded.test.ts -t "${name}"`,
      )
    }
    expect(run.stderr).not.toContain('This test file fails')
    // A miss that reached the test as the client's error failed that test, and is not repeated.
    const failed = failureBlock(
      run.stderr,
      'unrecorded.test.ts > an agent whose miss fails the test',
    )
    expect(failed).toMatch(/^Error: 400 \[rubricate\] Cassette miss: /)
    expect(failed).not.toContain('This test fails')
  } finally {
    await removeCopy(dir)
  }
})
