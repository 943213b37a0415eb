// The examples as a newcomer runs them: `npm run examples` (replay) and `npm run examples:failing`
// in child processes that cannot reach anything outside loopback and have no API key, and the
// record script against the reference model, which must give back the committed cassettes.
import { existsSync } from 'node:fs'
import { cp, readdir, readFile, rm } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { beforeAll, expect, test } from 'vitest'
import { runChild } from '../support/run-child'
import { loopbackGuardOption, normalise, repoRoot } from '../support/run-vitest'

const examplesDir = join(repoRoot, 'examples')

interface CommandRun {
  exitCode: number | null
  stdout: string
  stderr: string
}

/**
 * Run a command with only PATH, HOME, temp and locale variables from this process (no CI, no
 * OPENAI_* or RUBRICATE_* variable), colours off, and the loopback guard preloaded into every
 * Node process it starts.
 */
async function offline(
  command: string,
  args: string[],
  cwd = repoRoot,
  timeoutMs = 150_000,
): Promise<CommandRun> {
  const env: NodeJS.ProcessEnv = {
    NO_COLOR: '1',
    NODE_OPTIONS: loopbackGuardOption,
    npm_config_update_notifier: 'false',
  }
  for (const name of ['PATH', 'HOME', 'TMPDIR', 'LANG']) {
    if (process.env[name] !== undefined) env[name] = process.env[name]
  }
  const { exitCode, stdout, stderr } = await runChild(command, args, {
    cwd,
    env,
    timeoutMs,
  })
  return { exitCode, stdout: normalise(stdout, examplesDir), stderr: normalise(stderr) }
}

beforeAll(async () => {
  const check = await offline(process.execPath, ['scripts/build-if-needed.mjs', '--check'])
  if (check.exitCode !== 0) throw new Error(`${check.stderr} (npm test builds first.)`)
})

test('a child process with the guard preloaded cannot connect outside loopback', async () => {
  const run = await offline(process.execPath, [
    '-e',
    "fetch('http://192.0.2.1/').catch((error) => console.log(String(error.cause)))",
  ])
  expect(run.stdout.trim()).toBe(
    'Error: A test tried to connect to "192.0.2.1". Tests may only reach loopback addresses.',
  )
})

test('the examples type-check against the types the package ships', async () => {
  const tsc = join(repoRoot, 'node_modules/typescript/bin/tsc')
  const run = await offline(process.execPath, [tsc, '-p', 'examples/tsconfig.json'])
  expect(run.stdout + run.stderr).toBe('')
  expect(run.exitCode).toBe(0)
}, 120_000)

test('npm run examples replays every model call offline with no API key and prints the verdicts', async () => {
  const run = await offline('npm', ['run', 'examples'])
  expect(run.exitCode, run.stdout + run.stderr).toBe(0)
  const lines = run.stdout.split('\n').map((line) => line.trimEnd())
  for (const expected of [
    '     ✓ [required] Acknowledges the double charge',
    '     ✓ [required] Explains how the refund will be processed',
    '     ✓ [optional] Gives a timeframe for the refund',
    '     ○ [optional] Says when the replacement will arrive: The reply says when the replacement ships, not when it will arrive.',
    '     ✓ [required] All tests pass in the test suite',
    '     ✓ [required] The function is named find_duplicates and accepts a single list argument',
    '     ✓ loop: complete after 2 iterations',
    '       2. ✓ rubric-scorer 1',
    '       ✓ [required] The report gives concrete recommendations',
    '     ✓ scorer "plain-language": score 1, threshold 0.75: Plain and kind: warm tone, no blame, 13 words a sentence, no jargon.',
    // The dataset eval: twelve rows, the last one failing and tolerated by the gate of 90%.
    '     ✓ What number can I call for phone support?',
    '       ✗ row failed, tolerated: the eval gates on a pass rate of 90%',
    '         ✗ [required] Answers the question that was asked: The reply says it is not sure instead of answering.',
    '       ✗ scorer "mentionsExpectedFact": score 0, threshold 1: never says "+1 800 555 0142"',
    '       Eval  "FAQ agent answers from the fact sheet" 11 of 12 rows passed (91.7%) · gate 90% ✓ met · mean: rubric 0.92, mentionsExpectedFact 0.92',
    '     ✓ calibration of "gpt-4.1-mini" against "./refund-labels.jsonl": κ 0.61, accuracy 0.81 [0.72, 0.87], false pass 0.14 (5/36) [0.06, 0.29], false fail 0.22 (14/63) [0.14, 0.34], 99 judgements',
    '       all criteria                                 99  0.81 [0.72, 0.87]  0.61  0.14 (5/36) [0.06, 0.29]  0.22 (14/63) [0.14, 0.34]',
    // Per-scorer gates: a lower-is-better scorer with a row threshold and a mean gate, a mean gate
    // on the fact scorer, and the weighted mean gate.
    '       ✗ scorer "hedging": score 1, at most 0.5',
    '       Eval  "FAQ answers under per-scorer gates" 5 of 6 rows passed (83.3%) · gate 80% ✓ met · mean: rubric 0.83, mentionsExpectedFact 0.83 (≥ 0.8 ✓), hedging ↓ ×2 0.17 (≤ 0.2 ✓) · weighted mean 0.83 (≥ 0.75 ✓)',
    // A partially credited trajectory, against expected calls and a reference trajectory, and
    // the trajectory rubric over the transcript.
    '       ✓ scorer "order-path": score 0.5, threshold 0.5: 1 of 2 expected calls matched (strict order); matched lookup_order {"orderId":"LP-1042"}; missing notify_customer: score 0.5',
    '       ✓ scorer "reference-path": score 0.5, threshold 0.5: 1 of 2 reference calls matched (superset); matched lookup_order {"orderId":"LP-1042"}; missing notify_customer {"orderId":"LP-1042"}: score 0.5',
    '         ✓ [required] Quotes the shipping day the lookup returned',
    // A three-turn conversation with a simulated user, verdicts per turn and for the whole.
    '       ✓ turn 1 user: "I was charged twice this month." → "Sorry about that! Could you tell me the date and the amount…"',
    '       ✓ turn 2 simulated user: "It was $4.99, twice, on March 3." → "Thank you. I have refunded the duplicate $4.99 charge from …"',
    '       ✓ turn 3 simulated user: "Thanks. When will I see the money back?" → "The refund reaches your card within 5 business days. Sorry …"',
    '         ✓ [required] Stays polite',
    '       conversation: 3 turns, ended: the simulated user reached its goal',
    '         ✓ [required] Says when the refund arrives',
    // Similarity (embeddings replayed, and edit distance), a budget with its recorded figures,
    // and a preference asked in both orders against a stored baseline.
    '     ✓ scorer "semantic-similarity": score 0.86, threshold 0.6: The cosine similarity is 0.860.',
    '     ✓ scorer "edit-distance": score 1, threshold 0.95: The edit similarity is 1.000.',
    '     ✓ scorer "budget": 1 model call, 94 tokens in, 22 out, slowest 7 ms, 7 ms in all.',
    '     ✓ scorer "pairwise-preference": score 1: The output is preferred in both orders. output shown first: output preferred (Output A gives a figure the customer can act on.); baseline shown first: output preferred (Output B gives a figure the customer can act on.).',
    '       Eval  "help-center answers, grounded and preferred" 3 of 3 rows passed (100%) · gate 100% ✓ met · mean: faithfulness 1 (≥ 1 ✓), answer-relevance 1 (≥ 0.8 ✓), semantic-similarity 0.7 (≥ 0.5 ✓), pairwise-preference 0.83 (≥ 0.6 ✓) · weighted mean 0.88 (≥ 0.7 ✓)',
    // The frameworks guide's examples: a LangGraph run resumed after interrupt(), and an eval per
    // framework, each replayed through that framework's own package.
    '     ✓ [required] Confirms that ticket T1 is closed',
    ...[
      'LangGraph',
      'LangChain',
      'AI SDK',
      'Agents SDK',
      'Mastra',
      'OpenAI SDK',
      'Anthropic',
      'Gemini',
    ].map(
      (name) =>
        `       Eval  "the ${name} desk" 1 of 1 row passed (100%) · gate 100% ✓ met · mean: rubric 1, looksTheTicketUp 1`,
    ),
    ' Assertions  99 assertions (45 rubric, 53 scorer, 1 calibration): 94 passed, 5 failed, 0 errored · 1 loop: 1 complete, 0 incomplete, 0 errored · 87 criteria: 84 met, 2 required unmet, 1 optional unmet',
    '      Judge  101 calls: 101 replayed, 0 live · tokens 0 live, 67,728 replayed · cost $0.00',
    '     Agents  86 calls: 86 replayed, 0 live · tokens 0 live, 14,403 replayed',
    '      Tests  54 passed (54)',
  ]) {
    expect(lines).toContain(expected)
  }
  // The AI SDK agent's tool-call assertions need no judge, so no verdict lines: the file passes.
  expect(run.stdout).toMatch(/ ✓ order-agent\/order-agent\.test\.ts \(1 test\)/)
  // The failing example is not part of the default run.
  expect(run.stdout).not.toContain('failing.test.ts')
}, 180_000)

test('npm run examples:failing fails and shows each criterion with the judge reasoning', async () => {
  const run = await offline('npm', ['run', 'examples:failing'])
  expect(run.exitCode).toBe(1)
  expect(run.stdout).toContain(
    [
      '   × makes up for slow answers with a discount',
      '     ✓ [required] Apologises for the slow answers',
      '     ✗ [required] Offers a discount code to make up for the trouble: The reply apologises and refunds the charge, but offers no discount code.',
      '     ○ [optional] Names the person who will follow up: Nobody is named as following up.',
    ].join('\n'),
  )
  const failure = run.stderr.slice(run.stderr.indexOf(' FAIL '), run.stderr.indexOf(' ❯ '))
  expect(failure.trimEnd()).toBe(
    [
      ' FAIL  failing/failing.test.ts > makes up for slow answers with a discount',
      'Error: expect(output).toSatisfyRubric(criteria)',
      '',
      'Rubric not satisfied: 1 of 2 required criteria unmet.',
      '',
      '  ✓ [required] Apologises for the slow answers',
      '      → The output says "I\'m sorry it took three tries to get an answer".',
      '  ✗ [required] Offers a discount code to make up for the trouble',
      '      → The reply apologises and refunds the charge, but offers no discount code.',
      '  ○ [optional] Names the person who will follow up',
      '      → Nobody is named as following up.',
      '',
      'Output: "I\'m sorry it took three tries to get an answer. I can see the duplicate charge on your card: I\'ve refunded it to the card you paid with, and it will show up within 5 to 7 business days."',
      'Judge: gpt-4.1-mini · replayed · 847 tokens',
    ].join('\n'),
  )
  // A grounding failure names the unsupported claim; a budget failure, the call that went over.
  expect(run.stderr).toContain(
    [
      'Scorer "faithfulness" scored 0.5; expected at least 1.',
      'Reason: 1 of 2 claims hold; 1 not supported by the context: "shipping is free worldwide" (The context never mentions "shipping", "free", "worldwide".)',
    ].join('\n'),
  )
  expect(run.stderr).toContain(
    '  ✗ maxCalls 1: reached 2 at call #2 agent chat/completions "gpt-4.1-mini" (replayed, failing/help-center.test.ts/a-customer-with-two-questions-is-answered-in-one-model-call.f55947a44ddf.json)',
  )
  expect(run.stdout).toContain(
    ' Assertions  3 assertions (1 rubric, 2 scorer): 0 passed, 3 failed, 0 errored · 3 criteria: 1 met, 1 required unmet, 1 optional unmet',
  )
}, 180_000)

test('re-recording against the reference model gives back the committed cassettes', async () => {
  // A copy inside the repository, so that it finds `rubricate` by the package's own name.
  const copy = join(repoRoot, `.tmp-examples-${process.pid}`)
  await rm(copy, { recursive: true, force: true })
  await cp(examplesDir, copy, { recursive: true })
  try {
    // Two Vitest runs (the examples, then the failing one) in one child, each recording every
    // call: a longer bound than a single run's, or a loaded machine cuts a correct recording.
    const run = await offline(
      process.execPath,
      [join(copy, 'reference-model/record.mjs')],
      repoRoot,
      300_000,
    )
    expect(run.exitCode, run.stdout + run.stderr).toBe(0)
    for (const dir of ['__cassettes__', 'failing/__cassettes__']) {
      const committed = await entries(join(examplesDir, dir))
      const recorded = await entries(join(copy, dir))
      expect(Object.keys(recorded).sort()).toEqual(Object.keys(committed).sort())
      expect(recorded).toEqual(committed)
      // No churn: every file is byte for byte the committed one, so `git status` stays clean.
      for (const file of Object.keys(committed)) {
        expect(await readFile(join(copy, dir, file), 'utf8'), file).toBe(
          await readFile(join(examplesDir, dir, file), 'utf8'),
        )
      }
    }
  } finally {
    await rm(copy, { recursive: true, force: true })
  }
}, 330_000)

/**
 * The cassette entries of a folder by relative path, without what differs between two recordings
 * of the same exchanges: the time of recording, the pauses between streamed chunks, and the
 * reference model's reply ids (numbered in order of arrival).
 */
async function entries(dir: string): Promise<Record<string, unknown>> {
  expect(existsSync(dir), `${dir} exists`).toBe(true)
  const out: Record<string, unknown> = {}
  for (const file of await readdir(dir, { recursive: true })) {
    if (!file.endsWith('.json')) continue
    const text = (await readFile(join(dir, file), 'utf8')).replace(/fake-\d+/g, 'fake-N')
    out[relative(dir, join(dir, file))] = JSON.parse(text, (key, value) =>
      key === 'recordedAt' || key === 't' ? undefined : value,
    )
  }
  return out
}
