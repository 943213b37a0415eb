// Traces are never model calls, and cassettes.allowHosts takes host names only.
import { afterAll, afterEach, expect, test } from 'vitest'
import { configureRubricate } from '../../src'
import { startCassetteServer, stopCassetteServer } from '../../src/cassettes/agents/msw-server'
import { isTelemetry, modelEndpoint } from '../../src/cassettes/store/model-endpoint'
import { type FakeOpenAI, startFakeOpenAI } from '../../src/testing'
import { filesUnder, useCassetteFolder } from './support'

const session = startCassetteServer()
const folder = useCassetteFolder()
let fake: FakeOpenAI | undefined

afterEach(async () => {
  await session.flush()
  session.takeUsage()
  session.takeErrors()
  await fake?.close()
  fake = undefined
})
afterAll(() => stopCassetteServer())

test('the Agents SDK trace ingest, OTLP exports and LangSmith are telemetry, never model calls, even on a provider host', () => {
  for (const url of [
    'https://api.openai.com/v1/traces/ingest',
    'https://otel.example.com:4318/v1/traces',
    'https://otel.example.com/v1/metrics',
    'https://otel.example.com/v1/logs',
    'https://api.smith.langchain.com/runs/multipart',
    'https://eu.api.smith.langchain.com/info',
  ]) {
    expect(isTelemetry(new URL(url)), url).toBe(true)
    expect(modelEndpoint(new URL(url), [/traces/], ['otel.example.com']), url).toBeUndefined()
  }
  expect(isTelemetry(new URL('https://api.openai.com/v1/responses'))).toBe(false)
  expect(isTelemetry(new URL('https://api.example.com/v1/logs'), 'GET')).toBe(false)
})

test('outside replay mode a trace goes out unrecorded, and cassettes.telemetry "refuse" refuses it without a call', async () => {
  fake = await startFakeOpenAI({ reply: 'ok' })
  configureRubricate({ cassettes: { dir: folder.dir, mode: 'auto' } })
  const post = () => fetch(`${fake?.url}/v1/traces/ingest`, { method: 'POST', body: '{"data":[]}' })
  expect((await post()).status).toBe(404)
  expect(fake.requests).toHaveLength(1)
  configureRubricate({ cassettes: { dir: folder.dir, mode: 'auto', telemetry: 'refuse' } })
  // On loopback a collector gets it still: nothing leaves the machine.
  expect((await post()).status).toBe(404)
  const remote = await fetch('https://otel.example.com/v1/traces', { method: 'POST', body: '{}' })
  expect(remote.status).toBe(400)
  expect(((await remote.json()) as { error: { message: string } }).error.message).toContain(
    "cassettes.telemetry is 'refuse'",
  )
  await session.flush()
  expect(await filesUnder(folder.dir)).toEqual([])
})

test('cassettes.allowHosts refuses an entry with a scheme, a port or a path, and says the form it takes', () => {
  configureRubricate({
    cassettes: { allowHosts: ['postgres', '*.staging.example.com', '10.0.0.5'] },
  })
  for (const entry of [
    'postgres:5432',
    'https://staging.example.com',
    'staging.example.com/api',
    '',
  ]) {
    // One check for every list of hosts (providerHosts too): what is wrong, and the form expected.
    expect(() => configureRubricate({ cassettes: { allowHosts: [entry] } })).toThrowError(
      /cassettes\.allowHosts\[0\] is ".*", which (is|has) .*An entry is a host name alone.*with no scheme, port or path\./,
    )
  }
  expect(() => configureRubricate({ cassettes: { allowHosts: 'postgres' as never } })).toThrowError(
    'cassettes.allowHosts is "postgres", which is not a list of host names.',
  )
  expect(() => configureRubricate({ cassettes: { telemetry: 'drop' as never } })).toThrowError(
    /cassettes.telemetry is "drop", which is not supported/,
  )
})
