// Group 12, through Vitest itself: the default cassette mode follows CI as Vitest detects it (a
// provider's variable such as JENKINS_URL, without CI), CI=false opts out, and an explicit -u
// re-records also on CI, saying so.
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type FakeOpenAI, startFakeOpenAI } from '../../src/testing'
import { copyFixture, removeCopy, runVitest, type VitestRun } from '../support/run-vitest'

let server: FakeOpenAI
const copies: string[] = []

const GREETS = {
  criteria: { c1: { reasoning: 'It greets.', satisfied: true } },
  overallAssessment: 'Fine.',
}

beforeAll(async () => {
  server = await startFakeOpenAI({ reply: () => GREETS })
})

afterAll(async () => {
  await server?.close()
  for (const dir of copies) await removeCopy(dir)
})

// A fresh copy of the project, run with `env` (no CI variable unless given), and what it did.
async function runModes(
  env: Record<string, string>,
  args: string[] = [],
): Promise<{ run: VitestRun; requests: number; cassettes: string[] }> {
  const dir = await copyFixture('reliability-modes')
  copies.push(dir)
  server.clearRequests()
  const run = await runVitest(dir, args, { env: { FAKE_OPENAI_URL: server.baseURL, ...env } })
  const folder = join(dir, '__cassettes__')
  const cassettes = readdirSync(dir).includes('__cassettes__')
    ? readdirSync(folder, { recursive: true })
        .map(String)
        // Entries only: the reply schema every judge entry shares is stored once beside them.
        .filter((f) => f.endsWith('.json') && !f.includes('schemas'))
    : []
  return { run, requests: server.requests.length, cassettes }
}

describe('12. CI and modes', () => {
  test.for([
    ['Jenkins', { JENKINS_URL: 'https://jenkins.example/' }, 'jenkins, from JENKINS_URL'],
    [
      'Azure Pipelines',
      { SYSTEM_TEAMFOUNDATIONCOLLECTIONURI: 'https://dev.azure.example/org/' },
      'azure_pipelines, from SYSTEM_TEAMFOUNDATIONCOLLECTIONURI',
    ],
    ['TeamCity', { TEAMCITY_VERSION: '2025.1' }, 'teamcity, from TEAMCITY_VERSION'],
    ['Bamboo', { bamboo_planKey: 'PROJ-PLAN' }, 'bamboo, from bamboo_planKey'],
  ] as const)(
    'on %s, which sets no CI, a miss replays: no live call, no cassette written, the provider named',
    async ([, env, named]) => {
      const { run, requests, cassettes } = await runModes(env)
      expect(requests).toBe(0)
      expect(cassettes).toEqual([])
      expect(run.exitCode).toBe(1)
      expect(run.stderr).toContain(
        `[rubricate] Cassette miss: no recorded reply matches this judge call, and cassettes are in replay mode (CI detected: ${named}), so no network call was made.`,
      )
    },
  )

  test('CI=false on a CI provider opts out: the call goes live and is recorded', async () => {
    const { run, requests, cassettes } = await runModes({
      JENKINS_URL: 'https://jenkins.example/',
      CI: 'false',
    })
    expect(run.exitCode).toBe(0)
    expect(requests).toBe(1)
    expect(cassettes).toHaveLength(1)
  })

  test('CI=true vitest run -u re-records, and says so in one line', async () => {
    const { run, requests, cassettes } = await runModes({ CI: 'true' }, ['-u'])
    expect(run.exitCode).toBe(0)
    expect(requests).toBe(1)
    expect(cassettes).toHaveLength(1)
    const said = `${run.stdout}\n${run.stderr}`
      .split('\n')
      .filter((line) => line.includes('re-recorded'))
    expect(said).toEqual([
      '[rubricate] vitest runs with -u, so cassettes are re-recorded on CI too: every judge and agent call goes live and replaces its recorded reply. Run without -u to replay them, or set RUBRICATE_CASSETTES to choose a mode.',
    ])
    // Live calls get the live test timeout, as in any other run that records.
    expect(run.stdout).toContain('test timeout: 60000')
  })

  test('-u with a test timeout given on the command line keeps that timeout', async () => {
    const { run } = await runModes({ CI: 'true' }, ['-u', '--testTimeout=7000'])
    expect(run.stdout).toContain('test timeout: 7000')
  })

  test('without -u, CI=true replays and says nothing about re-recording', async () => {
    const { run, requests } = await runModes({ CI: 'true' })
    expect(requests).toBe(0)
    expect(run.exitCode).toBe(1)
    expect(`${run.stdout}${run.stderr}`).not.toContain('re-recorded')
    expect(run.stdout).toContain('test timeout: 5000')
  })
})
