// End to end (issue 29, item 4): a `cassettes.match` pattern that matched nothing, in a run whose
// model calls were recognised by their provider host alone, is reported at the end of the run; so
// a pattern written for the wrong shape of path (which would otherwise be a silent mistake) is
// named, while the calls are still recorded and replayed by their host.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { runVitest } from '../support/run-vitest'
import { tempDir } from '../support/temp-dir'
import { entriesUnder } from './support'

test('a match pattern that matched nothing while calls went to a provider host is named in the summary, and the calls replay', async () => {
  let calls = 0
  const provider = createServer((request, response) => {
    calls++
    request.resume().on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end('{"ranked":[1,0]}')
    })
  })
  await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve))
  const { port } = provider.address() as AddressInfo
  const dir = join(tempDir('rubricate-unmatched-'), 'cassettes')
  const env = { FAKE_PROVIDER_URL: `http://127.0.0.1:${port}`, FIXTURE_CASSETTES: dir }
  try {
    const recorded = await runVitest('unmatched-pattern', [], { env })
    expect(recorded.exitCode, recorded.stdout + recorded.stderr).toBe(0)
    expect(calls).toBe(1)
    expect(recorded.stdout).toContain(
      `  Cassettes  cassettes.match pattern ":predict" matched no request, while calls to provider hosts matched none (127.0.0.1:${port}/v2/rerank) (a string pattern ends the path after a / or a :; these calls were still recorded by their host)`,
    )
    expect((await entriesUnder(dir)).map((entry) => entry.request.endpoint)).toEqual(['v2/rerank'])
  } finally {
    await new Promise((resolve) => provider.close(resolve))
  }
  const replayed = await runVitest('unmatched-pattern', [], { env, ci: true })
  expect(replayed.exitCode, replayed.stdout + replayed.stderr).toBe(0)
  expect(calls).toBe(1)
  expect(replayed.stdout).toContain('cassettes.match pattern ":predict" matched no request')
}, 120_000)
