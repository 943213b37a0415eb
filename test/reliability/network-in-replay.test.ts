// Group 17: in replay mode no request leaves the machine, by default and whatever the client
// (issue 35, item 1). A LangChain project with LANGSMITH_TRACING=true, an AI SDK model named by a
// plain string (the AI Gateway), an OpenTelemetry exporter and a client with its own socket used to
// go out under CI=true with the default configuration, and pass. Now each is refused before it
// leaves, by rubricate (the fixture runs under this repository's loopback guard, which logs
// anything that reaches it: nothing does), and fails its test naming the host and the one line
// that allows it, although each swallows its error. A test that reaches a service on purpose stays
// green with that line.
import { mkdtempSync, readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { messages } from '../../src/messages'
import { linked } from '../support/error-page'
import { type FakeGateway, startFakeGateway } from '../support/fake-gateway'
import {
  copyFixture,
  loopbackGuardOption,
  removeCopy,
  runVitest,
  type VitestRun,
} from '../support/run-vitest'

const copies: string[] = []
let service: Server
let servicePort = 0

beforeAll(async () => {
  // The service a test reaches on purpose: `db.ci.test`, an alias of loopback in the fixture.
  service = createServer((socket) => socket.once('data', () => socket.end('pong')))
  await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve))
  servicePort = (service.address() as { port: number }).port
})

afterAll(async () => {
  await new Promise((resolve) => service.close(resolve))
  for (const dir of copies) await removeCopy(dir)
})

/** Run the fixture project under the loopback guard; `dialled` is every host that reached it. */
async function runProject(
  files: string[],
  env: Record<string, string | undefined>,
  dir?: string,
): Promise<{ run: VitestRun; output: string; dialled: string[]; dir: string }> {
  const project = dir ?? (await copyFixture('network-replay'))
  if (!dir) copies.push(project)
  const log = join(mkdtempSync(join(tmpdir(), 'rubricate-dialled-')), 'hosts.log')
  const run = await runVitest(project, files, {
    env: {
      NODE_OPTIONS: loopbackGuardOption,
      LOOPBACK_GUARD_LOG: log,
      LOOPBACK_ALIASES: 'db.ci.test',
      SERVICE_PORT: String(servicePort),
      ...env,
    },
  })
  let dialled: string[] = []
  try {
    dialled = readFileSync(log, 'utf8').split('\n').filter(Boolean)
  } catch {}
  // Vitest prints a failure's message with its lines wrapped in its own frame: joined again.
  const output = `${run.stdout}\n${run.stderr}`
  return { run, output, dialled, dir: project }
}

/** The failure line for `file`'s test as the setup file words it, with rubricate's message. */
function refusedIn(output: string, message: string): boolean {
  return output.replace(/\s+/g, ' ').includes(message.replace(/\s+/g, ' '))
}

describe('17. Network in replay', () => {
  test('with CI=true and the default configuration, LangSmith tracing, an OTLP export, a raw socket and an unnamed service open no connection outside loopback, and each fails its test naming the host and the line that allows it', async () => {
    const { run, output, dialled } = await runProject(
      ['langsmith.test.ts', 'otlp.test.ts', 'raw-socket.test.ts', 'service.test.ts'],
      { CI: 'true', LANGSMITH_TRACING: 'true', LANGSMITH_API_KEY: 'lsv2_pt_fixture_0000' },
    )
    expect(dialled).toEqual([])
    expect(run.exitCode).toBe(1)
    expect(output).toContain('4 failed')
    expect(output).not.toMatch(/Tests may only reach loopback/)
    const langsmith = output.match(
      /tracing export to "(api\.smith\.langchain\.com\/[^"\\]*)"/,
    )?.[1] as string
    expect(langsmith).toBeDefined()
    for (const message of [
      messages.telemetryRefused(
        langsmith,
        'api.smith.langchain.com',
        'langsmith.test.ts > a traced chain',
      ),
      messages.telemetryRefused(
        'otel-collector.example.com:4318/v1/traces',
        'otel-collector.example.com',
        'otlp.test.ts > a span exported to a collector',
      ),
      messages.networkBlocked('192.0.2.1', 'raw-socket.test.ts > a raw socket to a public address'),
      messages.networkBlocked(
        'db.ci.test',
        'service.test.ts > a service container by its host name',
      ),
    ]) {
      expect(refusedIn(output, linked(message, 'network-blocked')), message).toBe(true)
    }
    expect(output).toContain("cassettes: { allowHosts: ['db.ci.test'] }")
    expect(output).toContain('RUBRICATE_NETWORK_BLOCKED')
  })

  test("a project's own msw server, started before rubricate's setup file, still serves its mocks with CI=true, and a request it lets through is refused naming its host", async () => {
    // Without the plugin and with the setup file listed last, msw 3 patches the socket layer first
    // and rubricate's guard sits above it: a host name was refused before msw saw the request.
    const dir = await copyFixture('network-replay-own-msw')
    copies.push(dir)
    const { run, output, dialled } = await runProject(['backend.test.ts'], { CI: 'true' }, dir)
    expect(dialled).toEqual([])
    expect(run.exitCode).toBe(1)
    expect(output).toContain('1 failed | 1 passed')
    expect(output).not.toContain('FAIL  backend.test.ts > a backend call the project mocks')
    expect(
      refusedIn(
        output,
        linked(
          messages.networkBlocked('api.elsewhere.example', 'backend.test.ts > an API nobody mocks'),
          'network-blocked',
        ),
      ),
    ).toBe(true)
  })

  test('cassettes.allowHosts keeps a test that reaches a service on purpose green in replay mode', async () => {
    const { run, dialled } = await runProject(['service.test.ts'], {
      CI: 'true',
      ALLOW_HOSTS: 'db.ci.test',
    })
    expect(run.exitCode, run.stderr).toBe(0)
    expect(dialled).toEqual([])
  })

  test('an AI SDK model named by a plain string is recorded through the gateway, replays offline with CI=true, and with no recording is a miss, never a connection', async () => {
    const gateway: FakeGateway = await startFakeGateway()
    let recorded: Awaited<ReturnType<typeof runProject>>
    try {
      recorded = await runProject(['gateway.test.ts'], {
        FAKE_GATEWAY_URL: gateway.baseURL,
        AI_GATEWAY_API_KEY: 'gw_fixture_0000',
      })
    } finally {
      await gateway.close()
    }
    expect(recorded.run.exitCode, recorded.run.stderr).toBe(0)
    expect(gateway.requests.map((request) => request.model)).toEqual(['openai/gpt-4o'])
    // CI, the gateway stopped and its default public address in use: replayed, nothing dialled.
    const replayed = await runProject(
      ['gateway.test.ts'],
      { CI: 'true', AI_GATEWAY_API_KEY: 'gw_fixture_0000' },
      recorded.dir,
    )
    expect(replayed.run.exitCode, replayed.output).toBe(0)
    expect(replayed.dialled).toEqual([])
    // A fresh project, no recording: a miss naming the gateway's endpoint and model.
    const missed = await runProject(['gateway.test.ts'], {
      CI: 'true',
      AI_GATEWAY_API_KEY: 'gw_fixture_0000',
    })
    expect(missed.run.exitCode).toBe(1)
    expect(missed.dialled).toEqual([])
    expect(missed.output).toContain('RUBRICATE_CASSETTE_MISS')
    expect(missed.output).toContain('ai/language-model/openai/gpt-4o')
  })
})
