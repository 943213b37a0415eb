// The cassette engine's own ways to pass by accident, leak or hang (issues 26 and 27): a secret set
// a moment before a message is printed, hooks that would merge two requests into one key or fail
// in ways that looked like someone else's fault, and a judge that never answers.

import { join } from 'node:path'
import OpenAI from 'openai'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { configureRubricate } from '../../src'
import { createCassetteFetch } from '../../src/cassettes'
import { redactOutput } from '../../src/cassettes/redaction/redaction'
import { UsageError } from '../../src/errors'
import { format } from '../../src/messages'
import { runAsTest } from '../../src/runtime/call-context'
import { fakeReply, startFakeOpenAI } from '../../src/testing'
import { useCassetteFolder } from '../cassettes/support'
import { runVitest } from '../support/run-vitest'
import { tempDir } from '../support/temp-dir'
import { failureOf, judgeRubric, judgeServer, PASSING_VERDICT, SPLIT_VERDICT } from './support'

const folder = useCassetteFolder()

afterEach(() => {
  vi.useRealTimers()
  delete process.env.RUBRICATE_FRESH_TOKEN
})

// One criterion, "Greets the user by name": met for Alice's greeting only.
const GREETS_BY_NAME = {
  criteria: { c1: { reasoning: 'It names Alice.', satisfied: true } },
  overallAssessment: 'Greets by name.',
}
const MISSES_THE_NAME = {
  criteria: { c1: { reasoning: 'It names no one the judge expected.', satisfied: false } },
  overallAssessment: 'Misses the name.',
}

const inTest = <T>(name: string, fn: () => Promise<T>): Promise<T> =>
  runAsTest({ identity: { file: join(folder.dir, '..', 'greet.test.ts'), name } }, undefined, fn)

describe('6. Secrets', () => {
  test('a secret set in the environment just before a message is printed never appears in it', () => {
    // Printed once, so whatever the worker keeps of the environment was read a moment ago.
    redactOutput('warm up')
    process.env.RUBRICATE_FRESH_TOKEN = 'tok-Fresh-9a8b7c6d'
    expect(redactOutput('The reply quoted tok-Fresh-9a8b7c6d.')).not.toContain('tok-Fresh-9a8b7c6d')
    // And a rubricate error made a moment after another secret is set, as it is printed.
    process.env.RUBRICATE_FRESH_TOKEN = 'tok-Fresh-1a2b3c4d'
    const error = new UsageError(format('The reply quoted tok-Fresh-1a2b3c4d.'))
    expect(String(error)).not.toContain('tok-Fresh-1a2b3c4d')
  })
})

describe('8. Accidental passes', () => {
  test('a redact hook that masks a name does not let "greets Bob" pass on "greets Alice"\'s verdict', async () => {
    configureRubricate({
      cassettes: {
        mode: 'auto',
        redact: (entry) => {
          const body = entry.request.body
          for (const message of body.messages) {
            message.content = message.content.replace(/Alice|Bob/g, '<name>')
          }
          return entry
        },
      },
    })
    const { server, judge } = await judgeServer((request) =>
      JSON.stringify(request.body).includes('Alice') ? PASSING_VERDICT : SPLIT_VERDICT,
    )
    const alice = await inTest('greets Alice', () => judgeRubric(judge, 'Hello Alice! It is noon.'))
    expect(alice.score).toBe(1)
    const bob = await inTest('greets Bob', () => judgeRubric(judge, 'Hello Bob! It is noon.'))
    // Bob's request reached the judge and got its own verdict, not Alice's recording.
    expect(server.requests).toHaveLength(2)
    expect(bob.score).toBe(0)
    configureRubricate({ cassettes: { mode: 'replay' } })
    const carol = await failureOf(judgeRubric(judge, 'Hello Carol! It is noon.'))
    expect(carol.root.code).toBe('RUBRICATE_CASSETTE_MISS')
  })

  test("a normalize hook that makes two tests' different requests one key serves each test its own verdict, never the other's", async () => {
    configureRubricate({
      cassettes: { mode: 'auto', normalize: (text) => text.replace(/Alice|Bob/g, '<name>') },
    })
    const { server, judge } = await judgeServer((request) =>
      JSON.stringify(request.body).includes('Alice') ? PASSING_VERDICT : SPLIT_VERDICT,
    )
    const alice = await inTest('greets Alice', () => judgeRubric(judge, 'Hello Alice! It is noon.'))
    const bob = await inTest('greets Bob', () => judgeRubric(judge, 'Hello Bob! It is noon.'))
    // One key, two owners: Bob's request was not served Alice's recording, it went to the judge.
    expect(server.requests).toHaveLength(2)
    expect([alice.score, bob.score]).toEqual([1, 0])
    configureRubricate({
      cassettes: { mode: 'replay', normalize: (text) => text.replace(/Alice|Bob/g, '<name>') },
    })
    const replayed = await inTest('greets Bob', () => judgeRubric(judge, 'Hello Bob! It is noon.'))
    expect(replayed.score).toBe(0)
    expect(server.requests).toHaveLength(2)
  })

  test("a normalize hook that makes the different requests of two test files one key lets neither file pass on the other's verdict", async () => {
    const { server } = await judgeServer((request) =>
      JSON.stringify(request.body).includes('Alice') ? GREETS_BY_NAME : MISSES_THE_NAME,
    )
    const run = await runVitest('reliability-normalize', [], {
      env: { FAKE_OPENAI_URL: server.baseURL, FIXTURE_CASSETTES: tempDir('rubricate-normalize-') },
    })
    // Each file's request reached the judge and got its own verdict: Alice passes, Bob fails.
    expect(run.exitCode).toBe(1)
    expect(server.requests).toHaveLength(2)
    expect(run.stdout).not.toMatch(/✓ (bob\.test\.ts|greets Bob)/)
    expect(run.stderr).toMatch(/greets Bob[^⎯]*It names no one/)
    expect(run.stderr).not.toMatch(/greets Bob\n[^⎯]*It names Alice/)
  }, 90_000)
})

describe('3. Bad user input', () => {
  test('a redact hook that returns something other than an entry is a usage error, with no live request', async () => {
    configureRubricate({ cassettes: { mode: 'auto', redact: () => 'redacted' } })
    const { server, judge } = await judgeServer(PASSING_VERDICT)
    const { root } = await failureOf(judgeRubric(judge))
    expect(root.code).toBe('RUBRICATE_USAGE')
    expect(root.message).toContain(
      'Your cassettes.redact hook returned "redacted", not a cassette entry.',
    )
    expect(server.requests).toHaveLength(0)
  })

  test('a normalize hook that throws is reported as the hook failing, not as a bug in rubricate', async () => {
    configureRubricate({
      cassettes: {
        mode: 'auto',
        normalize: () => {
          throw new Error('no dates here')
        },
      },
    })
    const { server, judge } = await judgeServer(PASSING_VERDICT)
    const { root } = await failureOf(judgeRubric(judge))
    expect(root.code).toBe('RUBRICATE_USAGE')
    expect(root.message).toContain('Your cassettes.normalize hook threw: no dates here.')
    expect(root.message).not.toContain('bug in rubricate')
    expect(server.requests).toHaveLength(0)
  })
})

describe('1. Judge faults', () => {
  // No test signal reaches this call (the scorer runs outside any test's context), so only the
  // judge's own bounds can end it; the test timeout only turns a regression into a failure
  // instead of a ten-minute hang. Through Vitest with --testTimeout=0: judge-faults-e2e.test.ts.
  test('a judge that never answers ends its call within deadlineMs, under fake timers and garbage collection, with no test signal', {
    timeout: 30_000,
  }, async () => {
    configureRubricate({ cassettes: { mode: 'auto' } })
    const { judge } = await judgeServer(fakeReply.delay(600_000, 'never'), {
      timeoutMs: 500,
      deadlineMs: 2000,
      maxRetries: 10,
    })
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'Date'] })
    const started = performance.now()
    const run = failureOf(judgeRubric(judge))
    // Garbage, so that collections run while the requests hang (the timers must hold anyway).
    let junk: unknown[] = []
    for (let i = 0; i < 20; i++) junk = Array.from({ length: 50_000 }, (_, n) => ({ n }))
    const { root } = await run
    const elapsed = performance.now() - started
    vi.useRealTimers()
    expect(junk.length).toBe(50_000)
    expect(root.code).toBe('RUBRICATE_JUDGE_REQUEST')
    expect(root.message).toContain('gave no usable reply within 2000 ms (deadlineMs)')
    expect(elapsed).toBeLessThan(8_000)
  })
})

describe('4. Cassette faults', () => {
  // A request that failed live and was not recorded (a 503, a timeout) is not made at replay, so
  // the retry that was recorded must answer the first identical request replay makes.
  test('a judge call recorded after its first request failed with a 503 replays on CI', async () => {
    configureRubricate({ cassettes: { mode: 'record' } })
    const { server, judge } = await judgeServer([
      fakeReply.status(503, { retryAfter: 0 }),
      PASSING_VERDICT,
    ])
    const recorded = await inTest('greets', () => judgeRubric(judge))
    expect(recorded.score).toBe(1)
    expect(server.requests).toHaveLength(2)
    await server.close()
    configureRubricate({ cassettes: { mode: 'replay' } })
    const replayed = await inTest('greets', () => judgeRubric(judge))
    expect(replayed.score).toBe(1)
    expect(server.requests).toHaveLength(2)
  })

  test("an agent's call that the SDK retried after a 503 while recording replays on CI", async () => {
    const server = await startFakeOpenAI({
      reply: [fakeReply.status(503, { retryAfter: 0 }), fakeReply.text('Hello Alice!')],
    })
    const client = new OpenAI({
      baseURL: server.baseURL,
      apiKey: 'sk-test-0123456789',
      fetch: createCassetteFetch(),
      maxRetries: 1,
    })
    const greet = async () => {
      const completion = await client.chat.completions.create({
        model: 'gpt-test',
        messages: [{ role: 'user', content: 'Greet Alice' }],
      })
      return completion.choices[0]?.message.content
    }
    try {
      configureRubricate({ cassettes: { mode: 'record' } })
      expect(await inTest('greets', greet)).toBe('Hello Alice!')
      expect(server.requests).toHaveLength(2)
    } finally {
      await server.close()
    }
    configureRubricate({ cassettes: { mode: 'replay' } })
    expect(await inTest('greets', greet)).toBe('Hello Alice!')
    expect(server.requests).toHaveLength(2)
  })
})
