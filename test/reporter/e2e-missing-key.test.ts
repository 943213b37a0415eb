// A new user's first replay: an SDK client built without an API key fails its test with the SDK's
// own "Missing credentials"; the run then says that replay needs no real key, only a dummy one.
import { expect, test } from 'vitest'
import { runVitest } from '../support/run-vitest'

test('tests that failed for a missing API key get a hint to set a dummy one for replay', async () => {
  const run = await runVitest('missing-key', [], {
    ci: true,
    env: { OPENAI_API_KEY: undefined, AI_GATEWAY_API_KEY: undefined, VERCEL_OIDC_TOKEN: undefined },
  })
  expect(run.exitCode).toBe(1)
  expect(run.stderr).toContain('Error: Missing credentials.')
  expect(run.stderr).toContain('GatewayAuthenticationError: Unauthenticated request to AI Gateway.')
  expect(run.stdout).toContain(
    "[rubricate] 2 errors of this run came from a model client built without an API key (AI_GATEWAY_API_KEY, OPENAI_API_KEY). Replaying cassettes needs no real key, but the client refuses to start without one: set a dummy value in the test environment, e.g. AI_GATEWAY_API_KEY=sk-replay OPENAI_API_KEY=sk-replay, or in vitest.config's test.env: { AI_GATEWAY_API_KEY: 'sk-replay', OPENAI_API_KEY: 'sk-replay' }. Replay never sends it; recording needs the real key.",
  )
})
