// Group 6, through Vitest itself: a fixture project whose judge URLs hold credentials and whose
// judge echoes secrets of the environment. No known secret appears in what the run prints, in
// the JSON report or in the job summary, whichever message or field would carry it.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type FakeOpenAI, fakeReply, startFakeOpenAI } from '../../src/testing'
import { userMessage } from '../support/rubric-judge'
import { runVitest, type VitestRun } from '../support/run-vitest'

const PROXY_KEY = 'Qk-Proxy-Key-98765abc'
const PROXY_PASSWORD = 'pw-Proxy-4444xyz'
const SERVICE_TOKEN = 'Tok-Service-55555qrs'

let server: FakeOpenAI
let run: VitestRun
let dir = ''

beforeAll(async () => {
  server = await startFakeOpenAI({
    reply: (request) => {
      const prompt = userMessage(request)
      if (prompt.includes('\nNOT_FOUND\n')) return fakeReply.status(404)
      if (prompt.includes('\nECHO\n')) return fakeReply.text(`I cannot. ${SERVICE_TOKEN}`)
      return {
        criteria: { c1: { reasoning: `It quotes ${SERVICE_TOKEN}.`, satisfied: false } },
        overallAssessment: `Leaks ${SERVICE_TOKEN}.`,
      }
    },
  })
  dir = await mkdtemp(join(tmpdir(), 'rubricate-secrets-'))
  await writeFile(join(dir, 'summary.md'), '')
  run = await runVitest(
    'reliability-secrets',
    [
      '--reporter=default',
      '--reporter=rubricate/reporter',
      `--outputFile.rubricate=${join(dir, 'report.json')}`,
    ],
    {
      env: {
        FAKE_OPENAI_URL: server.baseURL,
        PROXY_KEY,
        PROXY_PASSWORD,
        SERVICE_TOKEN,
        GITHUB_STEP_SUMMARY: join(dir, 'summary.md'),
      },
    },
  )
}, 120_000)

afterAll(async () => {
  await server?.close()
  await rm(dir, { recursive: true, force: true })
})

describe('6. Secrets', () => {
  test('a judge URL holding an api-key or user:password@, and a reply echoing an env secret, are in no printed line, no report and no job summary', async () => {
    expect(run.exitCode).toBe(1)
    const report = await readFile(join(dir, 'report.json'), 'utf8')
    const summary = await readFile(join(dir, 'summary.md'), 'utf8')
    for (const text of [run.raw.stdout, run.raw.stderr, report, summary]) {
      for (const secret of [PROXY_KEY, PROXY_PASSWORD, SERVICE_TOKEN]) {
        expect(text).not.toContain(secret)
      }
    }
    // Each of them was about to be shown: the failures name the judge's URL, and the raw reply.
    expect(run.stderr).toContain('/v1?api-key=%5BREDACTED%5D"')
    expect(run.stderr).toContain('Raw reply: "I cannot. [REDACTED:')
    expect(report).toContain('It quotes [REDACTED:')
  })

  test('a judge baseURL holding user:password@ or a query string is a usage error that says so, not a rate limit', () => {
    expect(run.stderr).toContain(
      '[rubricate] The judge "gpt-judge" has the base URL "http://127.0.0.1:9/v1" (baseURL in the judge object), which holds credentials (user:password@). Requests cannot carry credentials in their URL (fetch refuses them), so no request was made.',
    )
    expect(run.stderr).toMatch(
      /\[rubricate\] The judge "gpt-judge" has the base URL "http:\/\/127\.0\.0\.1:\d+\/v1\?api-key=%5BREDACTED%5D" \(baseURL in the judge object\), which holds a query string\./,
    )
    expect(run.stderr).not.toMatch(/rate limiting/)
  })
})
