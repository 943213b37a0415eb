// A tool's own HTTP calls (issue 18, item 5): a `cassettes.match` pattern records and replays a
// GET as it does a model's POST, through rubricate's msw server and through createCassetteFetch.
// Recorded against a weather API on loopback, then replayed with CI set and the API closed.

import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, afterEach, expect, test } from 'vitest'
import { createCassetteFetch } from '../../src/cassettes'
import { startCassetteServer, stopCassetteServer } from '../../src/cassettes/agents/msw-server'
import { entriesUnder, useCassetteFolder } from './support'

const session = startCassetteServer()
const folder = useCassetteFolder({ cassettes: { match: ['/v1/weather'] } })
let api: { server: Server; url: string; requests: string[] } | undefined

afterEach(async () => {
  await session.flush()
  session.takeUsage()
  session.takeErrors()
  await closeApi()
})
afterAll(() => stopCassetteServer())

/** A weather API on loopback: the forecast depends on the query. */
async function startWeatherApi(): Promise<string> {
  const requests: string[] = []
  const server = createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`)
    const city = new URL(request.url ?? '/', 'http://x').searchParams.get('city')
    response.setHeader('content-type', 'application/json')
    response.end(JSON.stringify({ city, forecast: city === 'Paris' ? 'rain' : 'sun' }))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  api = { server, url, requests }
  return url
}

async function closeApi(): Promise<void> {
  const open = api
  api = undefined
  if (open) await new Promise((resolve) => open.server.close(resolve))
}

/** The tool an agent would call: a plain GET with the city in the query. */
async function weatherTool(base: string, city: string, fetcher: typeof fetch = fetch) {
  const response = await fetcher(`${base}/v1/weather?city=${encodeURIComponent(city)}`)
  return (await response.json()) as { city: string; forecast: string }
}

test("a tool's GET matched by cassettes.match is recorded, keyed by its query, and replayed with CI set", async () => {
  const base = await startWeatherApi()
  expect(await weatherTool(base, 'Paris')).toEqual({ city: 'Paris', forecast: 'rain' })
  expect(await weatherTool(base, 'Lyon')).toEqual({ city: 'Lyon', forecast: 'sun' })
  await session.flush()
  expect(api?.requests).toEqual(['GET /v1/weather?city=Paris', 'GET /v1/weather?city=Lyon'])
  const entries = await entriesUnder(folder.dir)
  expect(entries).toHaveLength(2)
  expect(
    entries.map((entry) => entry.request).sort((a, b) => (a.query.city < b.query.city ? -1 : 1)),
  ).toEqual([
    { method: 'GET', endpoint: '127.0.0.1/v1/weather', body: '', query: { city: 'Lyon' } },
    { method: 'GET', endpoint: '127.0.0.1/v1/weather', body: '', query: { city: 'Paris' } },
  ])

  await closeApi()
  process.env.CI = 'true'
  expect(await weatherTool(base, 'Paris')).toEqual({ city: 'Paris', forecast: 'rain' })
  expect(await weatherTool(base, 'Lyon')).toEqual({ city: 'Lyon', forecast: 'sun' })
  // A city never recorded is a miss, not the Paris reply: the query is part of the key.
  const miss = await fetch(`${base}/v1/weather?city=Nice`)
  expect(miss.status).toBe(400)
  expect(((await miss.json()) as any).error.code).toBe('RUBRICATE_CASSETTE_MISS')
  expect(session.misses().map((m) => m.endpoint)).toEqual(['127.0.0.1/v1/weather'])
})

test("createCassetteFetch records and replays a tool's GET too", async () => {
  const base = await startWeatherApi()
  const cassetteFetch = createCassetteFetch()
  expect(await weatherTool(base, 'Oslo', cassetteFetch)).toEqual({ city: 'Oslo', forecast: 'sun' })
  await session.flush()
  expect(api?.requests).toEqual(['GET /v1/weather?city=Oslo'])
  await closeApi()
  process.env.CI = 'true'
  expect(await weatherTool(base, 'Oslo', cassetteFetch)).toEqual({ city: 'Oslo', forecast: 'sun' })
})

test('a request that is not a POST passes untouched when no pattern matches it', async () => {
  const base = await startWeatherApi()
  const response = await fetch(`${base}/v1/other?city=Paris`)
  expect(response.status).toBe(200)
  expect(api?.requests).toEqual(['GET /v1/other?city=Paris'])
  expect(await entriesUnder(folder.dir)).toEqual([])
})

test("a secret-named parameter of a tool's query is left out of the key and the file", async () => {
  const base = await startWeatherApi()
  await fetch(`${base}/v1/weather?city=Paris&api_key=weather-secret-123456`)
  await session.flush()
  const [entry] = await entriesUnder(folder.dir)
  expect(entry.request.query.city).toBe('Paris')
  // Whether the key travels in a header or in the query changes no key (Gemini's `?key=`).
  expect(entry.request.query).toEqual({ city: 'Paris' })
  expect(JSON.stringify(entry)).not.toContain('weather-secret-123456')
})
