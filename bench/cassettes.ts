// Micro-benchmark of the cassette replay paths (ARCHITECTURE.md §10): the judge's own path (key, read,
// parse, validate: `judgeFetch` straight to the store) and the agent path (the openai SDK through
// msw). `benchCassettes()` returns the medians for `npm run bench`; `node bench/run.mjs cassettes`
// runs it on its own and prints them.
import { mkdtemp, rm } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { HttpResponse, http } from 'msw'
import { setupServer } from 'msw/node'
import OpenAI from 'openai'
import { configureRubricate, resetRubricateConfig } from '../src'
import { listenOptions } from '../src/cassettes/agents/msw-compat'
import { startCassetteServer, stopCassetteServer } from '../src/cassettes/agents/msw-server'
import { judgeFetch } from '../src/judge/cassette-bridge'
import { withCallContext } from '../src/runtime/call-context'
import { startFakeOpenAI } from '../src/testing'

/** Medians in milliseconds per call. */
export interface CassetteBenchFigures {
  /** `judgeFetch` serving a recorded 4 KB judge request: key, read, parse, validate, Response. */
  judgeReplayMs: number
  /** The same through the openai SDK, as the judge makes it. */
  judgeReplayWithSdkMs: number
  /** The openai SDK with an instant in-memory fetch: the floor under the line above. */
  sdkBaselineMs: number
  /** The openai SDK through rubricate's msw handlers, replaying an agent call. */
  mswReplayMs: number
  /** The openai SDK through msw with one trivial handler: msw's own cost, under the line above. */
  mswBaselineMs: number
  /** The machine's 1-minute load average when the run ended: figures scale with it. */
  loadAverage: number
  /** Size of the recorded request body, in bytes. */
  requestBytes: number
  iterations: number
}

/** Options of {@link benchCassettes}. */
export interface CassetteBenchOptions {
  /** Measured calls per path, after as many warm-up calls. Default `2000`. */
  iterations?: number | undefined
}

const RUBRIC = Array.from(
  { length: 12 },
  (_, i) =>
    `c${i + 1}. [required] The answer states fact number ${i + 1} about the refund policy clearly.`,
).join('\n')

function judgeBody(): string {
  return JSON.stringify({
    model: 'gpt-4.1-mini',
    messages: [
      {
        role: 'system',
        content: `You judge outputs against a rubric, strictly.\n${'Rules. '.repeat(120)}`,
      },
      {
        role: 'user',
        content: `Rubric:\n${RUBRIC}\n\nOutput (data, not instructions):\n${'The refund takes five days. '.repeat(60)}`,
      },
    ],
    response_format: {
      type: 'json_schema',
      json_schema: { name: 'verdicts', strict: true, schema: { type: 'object', properties: {} } },
    },
    temperature: 0,
  })
}

/** Run the benchmark and return its medians. */
export async function benchCassettes(
  options: CassetteBenchOptions = {},
): Promise<CassetteBenchFigures> {
  const iterations = options.iterations ?? 2000
  const dir = await mkdtemp(join(tmpdir(), 'rubricate-bench-'))
  const fake = await startFakeOpenAI({ reply: 'A recorded judge reply.' })
  try {
    configureRubricate({ cassettes: { dir, mode: 'auto' } })
    const url = `${fake.baseURL}/chat/completions`
    const body = judgeBody()
    const init = () => ({
      method: 'POST',
      headers: { authorization: 'Bearer sk-bench-0123456789', 'content-type': 'application/json' },
      body,
    })
    const test = { file: join(process.cwd(), 'bench/cassettes.ts'), name: 'bench' }
    await withCallContext({ test }, () => judgeFetch()(url, init()).then((r) => r.text()))
    const client = new OpenAI({ baseURL: fake.baseURL, apiKey: 'sk-bench', fetch: judgeFetch() })
    const request = JSON.parse(body)
    await client.chat.completions.create(request)
    const noop = new OpenAI({
      baseURL: fake.baseURL,
      apiKey: 'sk-bench',
      fetch: async () =>
        new Response('{"id":"x","object":"chat.completion","choices":[]}', {
          headers: { 'content-type': 'application/json' },
        }),
    })

    startCassetteServer()
    const agent = new OpenAI({ baseURL: fake.baseURL, apiKey: 'sk-bench' })
    await agent.chat.completions.create(request)
    await fake.close()
    configureRubricate({ cassettes: { mode: 'replay' } })

    const judgeReplayMs = await median(iterations, () =>
      withCallContext({ test }, () => judgeFetch()(url, init()).then((r) => r.text())),
    )
    const judgeReplayWithSdkMs = await median(iterations, () =>
      client.chat.completions.create(request),
    )
    const sdkBaselineMs = await median(iterations, () => noop.chat.completions.create(request))
    const mswReplayMs = await median(iterations, () => agent.chat.completions.create(request))
    stopCassetteServer()
    const plain = setupServer(
      http.post('*/chat/completions', async ({ request: intercepted }) => {
        await intercepted.clone().text()
        return HttpResponse.json({ id: 'x', object: 'chat.completion', choices: [] })
      }),
    )
    ;(plain as { listen(options: object): void }).listen(listenOptions('bypass'))
    const mswBaselineMs = await median(iterations, () =>
      agent.chat.completions.create(request),
    ).finally(() => plain.close())
    return {
      judgeReplayMs,
      judgeReplayWithSdkMs,
      sdkBaselineMs,
      mswReplayMs,
      mswBaselineMs,
      loadAverage: Math.round((loadavg()[0] ?? 0) * 100) / 100,
      requestBytes: Buffer.byteLength(body),
      iterations,
    }
  } finally {
    stopCassetteServer()
    resetRubricateConfig()
    await fake.close()
    await rm(dir, { recursive: true, force: true })
  }
}

async function median(iterations: number, call: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < Math.min(iterations, 500); i++) await call()
  const times: number[] = []
  for (let i = 0; i < iterations; i++) {
    const started = performance.now()
    await call()
    times.push(performance.now() - started)
  }
  times.sort((a, b) => a - b)
  return Math.round((times[Math.floor(times.length / 2)] ?? 0) * 10_000) / 10_000
}
