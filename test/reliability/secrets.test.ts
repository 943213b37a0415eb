// Group 6: keys in headers, query strings, URL userinfo, bodies and environment variables, in the
// formats providers use. None reaches a cassette file, replays still find their entries, and
// where redaction cannot remove a secret the entry is refused (RUBRICATE_SECRET_IN_CASSETTE).

// What the setup file does at its top level, for the agent path; the judge bypasses it.
import { readFile } from 'node:fs/promises'
import http from 'node:http'
import { join } from 'node:path'
import OpenAI from 'openai'
import { afterAll, afterEach, describe, expect, test, vi } from 'vitest'
import { configureRubricate, createRubricScorer } from '../../src'
import { startCassetteServer, stopCassetteServer } from '../../src/cassettes/agents/msw-server'
import { computeKey } from '../../src/cassettes/exchange/prepared-request'
import { verifyCassettes } from '../../src/cassettes/maintenance/cassette-verify'
import { placeholderOf } from '../../src/cassettes/redaction/secret-patterns'
import { CassetteStore } from '../../src/cassettes/store/cassette-store'
import type { OpenAICompatibleJudge } from '../../src/records/records'
import { withCallContext } from '../../src/runtime/call-context'
import { type FakeRequest, fakeReply } from '../../src/testing'
import { filesUnder, testIn, useCassetteFolder } from '../cassettes/support'
import { failureOf, judgeServer, RUBRIC, SPLIT_VERDICT } from './support'

const session = startCassetteServer()
const folder = useCassetteFolder()

afterEach(async () => {
  vi.unstubAllEnvs()
  // useCassetteFolder() sets it back to "off" after each test; the stubs must not undo that.
  process.env.RUBRICATE_CASSETTES = 'off'
  await session.flush()
  session.takeUsage()
  session.takeErrors()
})
afterAll(() => stopCassetteServer())

/** A judge that echoes everything it was sent (headers, query, prompt) in its reasoning. */
function echoingVerdict(request: FakeRequest) {
  const seen = JSON.stringify({ headers: request.headers, query: request.query })
  const prompt = request.body.messages.at(-1).content as string
  return {
    criteria: {
      c1: { reasoning: `Seen ${seen}`, satisfied: true },
      c2: { reasoning: `Prompt ${prompt}`, satisfied: false },
    },
    overallAssessment: 'Echoed.',
  }
}

/** Every cassette file's text, after the test's recordings. */
async function cassetteText(): Promise<string> {
  const files = await filesUnder(folder.dir)
  expect(files.length).toBeGreaterThan(0)
  const texts = await Promise.all(files.map((file) => readFile(join(folder.dir, file), 'utf8')))
  return texts.join('\n')
}

function expectNowhere(text: string, secret: string): void {
  for (const form of [
    secret,
    JSON.stringify(secret).slice(1, -1),
    encodeURIComponent(secret),
    Buffer.from(secret).toString('base64'),
  ]) {
    expect(text).not.toContain(form)
  }
}

interface JudgeCase {
  name: string
  secret: string
  env?: Record<string, string>
  judge?: Partial<OpenAICompatibleJudge>
  /** The output under test (the secret in the prompt body). */
  output?: string
  /** Other text that must be in no cassette (an encoded form of the secret). */
  also?: string[]
}

const PEM_KEY = [
  '-----BEGIN RSA PRIVATE KEY-----',
  'MIIBOgIBAAJBAKj34GkxFhD90vcNLYLInFEX6Ppy1tPf9Cnzj4p4WGeKLs1Pt8Qu',
  'KUpRKfFLfRYC9AIKjbJTWit+CqvjWYzvQwECAwEAAQJAIJLixBy2qpFoS4DSmoEm',
  '-----END RSA PRIVATE KEY-----',
].join('\n')

const judgeCases: JudgeCase[] = [
  {
    name: 'an OpenAI project key as the Authorization bearer',
    secret: 'sk-proj-Zx81kQw3Lm5Np7Rt9Vb2Yc4',
    judge: { apiKey: 'sk-proj-Zx81kQw3Lm5Np7Rt9Vb2Yc4' },
  },
  {
    name: 'an OpenAI key from OPENAI_API_KEY',
    secret: 'sk-Ab12Cd34Ef56Gh78Ij90Kl12',
    env: { OPENAI_API_KEY: 'sk-Ab12Cd34Ef56Gh78Ij90Kl12' },
    judge: { apiKey: 'sk-Ab12Cd34Ef56Gh78Ij90Kl12' },
    output: 'My key is sk-Ab12Cd34Ef56Gh78Ij90Kl12.',
  },
  {
    name: 'an Anthropic key in an x-api-key header',
    secret: 'sk-ant-api03-Qw8Er7Ty6Ui5Op4As3Df2Gh1-xyzAA',
    judge: { headers: { 'x-api-key': 'sk-ant-api03-Qw8Er7Ty6Ui5Op4As3Df2Gh1-xyzAA' } },
  },
  {
    name: 'an Azure key (32 hex digits) in an api-key header',
    secret: '3f9a1c7e5b2d4f8a0c6e1b3d5f7a9c2e',
    judge: { headers: { 'api-key': '3f9a1c7e5b2d4f8a0c6e1b3d5f7a9c2e' } },
  },
  {
    name: 'a Google key in the "key" query parameter',
    secret: 'AIzaSyD-1a2B3c4D5e6F7g8H9i0JkLmNoPqRsT',
    judge: { query: { key: 'AIzaSyD-1a2B3c4D5e6F7g8H9i0JkLmNoPqRsT' } },
  },
  {
    name: 'an Azure SAS signature in the "sig" query parameter',
    secret: 'x9Jq%2BbT4kP0sV7mW1nZ3yC5dF8gH6jL2=',
    judge: { query: { sig: 'x9Jq+bT4kP0sV7mW1nZ3yC5dF8gH6jL2=' } },
  },
  {
    name: 'a proxy password in a Proxy-Authorization Basic header',
    secret: 'cHJveHk6czNjcjN0LXBhc3M=',
    judge: { headers: { 'proxy-authorization': 'Basic cHJveHk6czNjcjN0LXBhc3M=' } },
  },
  {
    name: 'a GitHub token from GITHUB_TOKEN in the prompt body',
    secret: 'ghp_R4nd0mT0k3nV4lu3F0rT3st1ng0nly12',
    env: { GITHUB_TOKEN: 'ghp_R4nd0mT0k3nV4lu3F0rT3st1ng0nly12' },
    output: 'Deployed with ghp_R4nd0mT0k3nV4lu3F0rT3st1ng0nly12 today.',
  },
  {
    name: 'a JWT from SERVICE_SECRET in the prompt body',
    secret: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJl',
    env: { SERVICE_SECRET: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJl' },
    output: 'Token: eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJl',
  },
  {
    name: 'an AWS secret key from AWS_SECRET_ACCESS_KEY in the prompt body',
    secret: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
    env: { AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' },
    output: 'aws says wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  },
  {
    name: 'a password with quotes and backslashes from DB_PASSWORD in the prompt body',
    secret: 'p@ss"w\\rd-2026!',
    env: { DB_PASSWORD: 'p@ss"w\\rd-2026!' },
    output: 'The password is p@ss"w\\rd-2026! and nothing else.',
  },
  {
    name: 'a token in an X-Auth header',
    secret: 'xa-9Kq2Lm4Np6Rt8Vb0',
    judge: { headers: { 'x-auth': 'xa-9Kq2Lm4Np6Rt8Vb0' } },
  },
  {
    name: 'a token from GITHUB_PAT in the prompt body',
    secret: 'Zq9x8c7v6b5n4m3l2k1jH',
    env: { GITHUB_PAT: 'Zq9x8c7v6b5n4m3l2k1jH' },
    output: 'Cloned with Zq9x8c7v6b5n4m3l2k1jH.',
  },
  {
    name: 'the password inside DATABASE_URL, alone in the prompt body',
    secret: 'Db-Pa55word-x1',
    env: { DATABASE_URL: 'postgres://app:Db-Pa55word-x1@db.internal:5432/app' },
    output: 'The database password is Db-Pa55word-x1.',
  },
  {
    name: 'the base64 of "user:<OPENAI_API_KEY>" in the prompt body',
    secret: 'sk-Base64Ab12Cd34Ef56Gh78Ij',
    env: { OPENAI_API_KEY: 'sk-Base64Ab12Cd34Ef56Gh78Ij' },
    output: `Basic ${Buffer.from('user:sk-Base64Ab12Cd34Ef56Gh78Ij').toString('base64')}`,
    also: [Buffer.from('user:sk-Base64Ab12Cd34Ef56Gh78Ij').toString('base64')],
  },
  ...(
    [
      ['a GitHub fine-grained token', 'github_pat_11ABCDEFG0aBcDeFgHiJkL_mNoPqRsTuVwXyZ0123456789'],
      ['a GitHub classic token', 'ghp_aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5'],
      ['an AWS access key id', 'AKIAIOSFODNN7EXAMPL3'],
      ['a Google API key', 'AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q'],
      ['a Slack token', 'xoxb-1234567890-0987654321-AbCdEfGhIjKl'],
      ['a Stripe live key', 'sk_live_51AbCdEfGhIjKlMnOpQrStUv'],
      ['a Hugging Face token', 'hf_AbCdEfGhIjKlMnOpQrStUvWxYz01234567'],
      ['a Groq key', 'gsk_AbCdEfGhIjKlMnOpQrStUvWxYz0123'],
      ['an xAI key', 'xai-AbCdEfGhIjKlMnOpQrStUvWxYz0123'],
      ['a PEM private key', PEM_KEY],
      ['a password in a database URL', 'mysql://root:My5ql-R00t-pw@10.0.0.5:3306/shop'],
    ] as const
  ).map(
    ([name, secret]): JudgeCase => ({
      name: `${name} that the model echoes, in no environment variable`,
      secret: secret.includes('://') ? 'My5ql-R00t-pw' : secret,
      output: `Here it is: ${secret} (done).`,
    }),
  ),
]

describe('6. Secrets', () => {
  test.for(judgeCases)(
    'the judge path: $name is in no cassette, and the replay still finds its entry',
    async ({ secret, env, judge: extra, output, also }) => {
      for (const [name, value] of Object.entries(env ?? {})) vi.stubEnv(name, value)
      const { server, judge } = await judgeServer(echoingVerdict, extra)
      const run = () =>
        createRubricScorer({ judge, criteria: RUBRIC }).run({ output: output ?? 'Hello!' })
      process.env.RUBRICATE_CASSETTES = 'auto'
      const live = await run()
      expect(live.judgeCalls[0]?.source).toBe('recorded')
      const text = await cassetteText()
      expectNowhere(text, secret)
      for (const form of also ?? []) expect(text).not.toContain(form)
      await server.close()
      process.env.RUBRICATE_CASSETTES = 'replay'
      const replayed = await run()
      expect(replayed.judgeCalls[0]).toMatchObject({
        source: 'replayed',
        cassetteKey: live.judgeCalls[0]?.cassetteKey,
      })
      expect(replayed.passed).toBe(false)
    },
  )

  test.for([
    {
      name: 'two sk- keys',
      first: 'My key is sk-live-AAAAAAAAAAAAAAAAAAAAAAAA.',
      second: 'My key is sk-live-BBBBBBBBBBBBBBBBBBBBBBBB.',
    },
    {
      name: 'two Bearer tokens',
      first: 'Sent Bearer tokenAAAA.1111.aaaa',
      second: 'Sent Bearer tokenBBBB.2222.bbbb',
    },
    {
      name: 'two values of an env secret',
      env: ['SERVICE_SECRET', 'first-Secret-1111', 'second-Secret-2222'],
      first: 'It says first-Secret-1111.',
      second: 'It says second-Secret-2222.',
    },
  ])(
    'outputs that differ only in a redacted secret ($name) key apart: the second is a miss, not a replay of the first',
    async ({ env, first, second }) => {
      if (env) vi.stubEnv(env[0] as string, env[1] as string)
      const { server, judge } = await judgeServer(fakeReply.json(SPLIT_VERDICT))
      const run = (output: string) =>
        createRubricScorer({ judge, criteria: RUBRIC }).run({ output })
      process.env.RUBRICATE_CASSETTES = 'auto'
      const recorded = await run(first)
      expect(recorded.judgeCalls[0]?.source).toBe('recorded')
      const text = await cassetteText()
      expect(text).toMatch(/\[REDACTED:[0-9a-f]{8}\]/)
      await server.close()
      process.env.RUBRICATE_CASSETTES = 'replay'
      if (env) vi.stubEnv(env[0] as string, env[2] as string)
      const { root } = await failureOf(run(second))
      expect(root.code).toBe('RUBRICATE_CASSETTE_MISS')
      // The first output still replays.
      if (env) vi.stubEnv(env[0] as string, env[1] as string)
      expect((await run(first)).judgeCalls[0]?.source).toBe('replayed')
    },
  )

  test('the agent path: a key as the bearer, in a query string and in the body is in no cassette, and the replay matches', async () => {
    const key = 'sk-proj-Ag3ntK3yV4lu3F0rT3st1ngXYZ'
    vi.stubEnv('OPENAI_API_KEY', key)
    const { server } = await judgeServer(
      (request) =>
        `You sent ${JSON.stringify(request.headers)} ${JSON.stringify(request.query)} ${request.bodyText}`,
    )
    const client = new OpenAI({
      baseURL: server.baseURL,
      apiKey: key,
      defaultQuery: { token: 'tok_9f8e7d6c5b4a3f2e' },
      maxRetries: 0,
    })
    const ask = () =>
      client.chat.completions.create({
        model: 'gpt-agent',
        messages: [{ role: 'user', content: `Use ${key} and tok_9f8e7d6c5b4a3f2e` }],
      })
    process.env.RUBRICATE_CASSETTES = 'auto'
    await ask()
    await session.flush()
    expect(session.takeErrors()).toEqual([])
    const text = await cassetteText()
    expectNowhere(text, key)
    expectNowhere(text, 'tok_9f8e7d6c5b4a3f2e')
    await server.close()
    process.env.RUBRICATE_CASSETTES = 'replay'
    expect((await ask()).choices[0]?.message.content).toContain(placeholderOf(key))
  })

  test('the agent path: a password in the URL userinfo (Basic auth) is in no cassette', async () => {
    const { server } = await judgeServer((request) => `auth was ${request.headers.authorization}`)
    const url = new URL(`${server.baseURL}/chat/completions`)
    url.username = 'admin'
    url.password = 'hunter2-Very-Secret'
    process.env.RUBRICATE_CASSETTES = 'auto'
    const reply = await new Promise<string>((resolve, reject) => {
      const request = http.request(
        url,
        { method: 'POST', headers: { 'content-type': 'application/json' } },
        (response) => {
          let body = ''
          response.on('data', (chunk) => (body += chunk))
          response.on('end', () => resolve(body))
        },
      )
      request.on('error', reject)
      request.end(
        JSON.stringify({ model: 'gpt-agent', messages: [{ role: 'user', content: 'hi' }] }),
      )
    })
    expect(reply).toContain(Buffer.from('admin:hunter2-Very-Secret').toString('base64'))
    await session.flush()
    expect(session.takeErrors()).toEqual([])
    const text = await cassetteText()
    expectNowhere(text, 'hunter2-Very-Secret')
    expectNowhere(text, 'admin:hunter2-Very-Secret')
  })

  test('a secret in an object key of the body cannot be redacted: RUBRICATE_SECRET_IN_CASSETTE, nothing written', async () => {
    const key = 'sk-proj-K3yInAnObj3ctK3yZZZ999'
    vi.stubEnv('OPENAI_API_KEY', key)
    const { server } = await judgeServer(fakeReply.json(SPLIT_VERDICT))
    process.env.RUBRICATE_CASSETTES = 'auto'
    const response = await fetch(`${server.baseURL}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'gpt-agent',
        messages: [{ role: 'user', content: 'hi' }],
        tools: [
          {
            type: 'function',
            function: {
              name: 'f',
              parameters: { type: 'object', properties: { [key]: { type: 'string' } } },
            },
          },
        ],
      }),
    })
    // The agent's call fails with the refusal (an OpenAI-shaped error the SDK does not retry).
    expect(response.status).toBe(400)
    expect(response.headers.get('x-should-retry')).toBe('false')
    const { error } = (await response.json()) as { error: { message: string; code: string } }
    expect(error.code).toBe('RUBRICATE_SECRET_IN_CASSETTE')
    expect(error.message).toMatch(
      /^\[rubricate\] Refused to write the cassette entry [0-9a-f]{64} \(chat\/completions\): after redaction it still holds OPENAI_API_KEY at "request\.body\.tools\[0\]\.function\.parameters\.properties\.\[REDACTED:[0-9a-f]{8}\]"\. Nothing was written\./,
    )
    expect(await filesUnder(folder.dir)).toEqual([])
  })

  test('a redact hook that puts a secret back is refused on the judge path, nothing written', async () => {
    vi.stubEnv('OPENAI_API_KEY', 'sk-proj-H00kPut1tB4ckXXXXXXXX')
    configureRubricate({
      cassettes: {
        dir: folder.dir,
        redact: (entry) => {
          if (entry.response) entry.response.json.note = process.env.OPENAI_API_KEY
          return entry
        },
      },
    })
    const { judge } = await judgeServer(fakeReply.json(SPLIT_VERDICT))
    process.env.RUBRICATE_CASSETTES = 'auto'
    const { root } = await failureOf(
      withCallContext({ test: testIn('hook') }, () =>
        createRubricScorer({ judge, criteria: RUBRIC }).run({ output: 'Hi' }),
      ),
    )
    expect(root.code).toBe('RUBRICATE_SECRET_IN_CASSETTE')
    expect(root.message).toContain(
      'after redaction it still holds OPENAI_API_KEY at "response.json.note". Nothing was written.',
    )
    expect(await filesUnder(folder.dir)).toEqual([])
  })

  test('a streamed reply that echoes a key token by token is refused, and nothing is written', async () => {
    const key = 'sk-proj-Str34mT0k3nByT0k3nQQQ'
    vi.stubEnv('OPENAI_API_KEY', key)
    const chunks = ['Your key: ', ...(key.match(/.{1,4}/g) ?? []), '.']
    const { server } = await judgeServer(fakeReply.text(chunks.join(''), { chunks }))
    const client = new OpenAI({
      baseURL: server.baseURL,
      apiKey: 'sk-other-not-the-key',
      maxRetries: 0,
    })
    process.env.RUBRICATE_CASSETTES = 'auto'
    const stream = await client.chat.completions.create({
      model: 'gpt-agent',
      messages: [{ role: 'user', content: 'Echo my key' }],
      stream: true,
    })
    let text = ''
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? ''
    expect(text).toBe(`Your key: ${key}.`)
    await session.flush()
    const errors = session.takeErrors()
    expect(errors.map((error) => (error as Error & { code: string }).code)).toEqual([
      'RUBRICATE_SECRET_IN_CASSETTE',
    ])
    expect(errors[0]?.message).toContain(
      'its streamed reply spells out OPENAI_API_KEY across several events at "response.sse[*].choices[0].delta.content"',
    )
    expect(await filesUnder(folder.dir)).toEqual([])
  })

  test('"rubricate cassettes verify" finds a key that a stored stream spells out across its events', async () => {
    const key = 'sk-proj-Pl4nt3dStr34mK3yWWW'
    const events = ['Your key: ', ...(key.match(/.{1,5}/g) ?? [])].map((content, t) => ({
      t,
      chunk: `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content } }] })}\n\n`,
    }))
    const body = {
      model: 'gpt-agent',
      messages: [{ role: 'user', content: 'Echo my key' }],
      stream: true,
    }
    // Written straight to the store, as an older version (or a hand edit) might have left it.
    await new CassetteStore(folder.dir).write({
      v: 1,
      key: computeKey('chat/completions', body),
      recordedAt: '2026-01-01T00:00:00.000Z',
      request: { method: 'POST', endpoint: 'chat/completions', body },
      response: { status: 200, headers: { 'content-type': 'text/event-stream' }, sse: events },
    })
    const report = await verifyCassettes(folder.dir, { OPENAI_API_KEY: key })
    expect(report.problems).toEqual([
      {
        // Written outside a test: the entry is in the folder of calls made outside tests.
        file: expect.stringMatching(/_shared\/chat-completions\.[0-9a-f]{12}\.json$/),
        problem:
          'it holds OPENAI_API_KEY at "response.sse[*].choices[0].delta.content"; remove it and rotate the secret',
      },
    ])
  })

  test('"rubricate cassettes verify" finds well-known key formats and encoded env secrets in stored entries', async () => {
    const body = { model: 'gpt-agent', messages: [{ role: 'user', content: 'hi' }] }
    const store = new CassetteStore(folder.dir)
    const plant = (content: string, n: number) => {
      const planted = { ...body, n }
      return store.write({
        v: 1,
        key: computeKey('chat/completions', planted),
        recordedAt: '2026-01-01T00:00:00.000Z',
        request: { method: 'POST', endpoint: 'chat/completions', body: planted },
        response: {
          status: 200,
          headers: { 'content-type': 'application/json' },
          json: { choices: [{ index: 0, message: { role: 'assistant', content } }] },
        },
      })
    }
    await plant('Use ghp_aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5 to push.', 1)
    await plant('Connect to postgres://app:Db-Pa55word-x1@db/app', 2)
    await plant(`Basic ${Buffer.from('me:Zq9x8c7v6b5n4m3l2k1jH').toString('base64')}`, 3)
    const report = await verifyCassettes(folder.dir, { GITHUB_PAT: 'Zq9x8c7v6b5n4m3l2k1jH' })
    expect(report.problems.map((p) => p.problem).sort()).toEqual([
      'it holds GITHUB_PAT at "response.json.choices[0].message.content"; remove it and rotate the secret',
      'it holds a GitHub token at "response.json.choices[0].message.content"; remove it and rotate the secret',
      'it holds a password in a URL at "response.json.choices[0].message.content"; remove it and rotate the secret',
    ])
  })
})
