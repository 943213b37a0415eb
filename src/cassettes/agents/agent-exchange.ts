import { currentCallContext, runningTest } from '../../call-context'
import type { ResolvedConfig } from '../../config'
import { runExchange } from '../exchange/exchange'
import { type PreparedRequest, prepareRequest } from '../exchange/prepared-request'
import { type AgentCallOutcome, cassetteSession } from '../run/cassette-session'

/**
 * Record or replay one of the agent's model calls (the msw handlers and `createCassetteFetch`
 * alike): the request prepared and keyed, its test taken from the call context, else the only
 * test running (`runningTest()`).
 * @internal
 */
export async function runAgentExchange(
  request: Request,
  url: URL,
  endpoint: string,
  config: ResolvedConfig,
  live: () => Promise<Response>,
): Promise<Response> {
  const context = currentCallContext()
  // A judge model's own request: its judge call is the cassette entry; recording this too would
  // count one judge call as an agent call as well, and replay would need the provider package.
  if (context.judgeTransport) return live()
  const body = await request.clone().text()
  let prepared: PreparedRequest | undefined
  const prepare = () => {
    prepared ??= prepareRequest({
      method: request.method,
      endpoint,
      body,
      url,
      headers: request.headers,
      redact: config.cassettes.redact,
      normalize: config.cassettes.normalize,
    })
    return prepared
  }
  const session = cassetteSession()
  const test = runningTest()
  const { onModelCall } = context
  // With cassettes off the request is never prepared: an adapted scorer that counts the call
  // still learns its model.
  const offModel = onModelCall && config.cassettes.mode === 'off' ? modelNamed(body) : undefined
  // Each exchange is counted once, as what it turned out to be: a live stream reports when it
  // ends, after this function has returned; one that throws (a replay miss, a failed connection,
  // a refused recording) without having reported is a failed call.
  let counted = false
  const count = (outcome: AgentCallOutcome) => {
    if (counted) return
    counted = true
    session.countAgentCall(outcome)
  }
  try {
    return await runExchange({
      caller: 'agent',
      prepare,
      url,
      config,
      test: test?.identity,
      testIsExact: test?.exact === true,
      live,
      warnReplayedErrors: true,
      onExchange: (event) => {
        count(event.source)
        onModelCall?.({ ...event, endpoint, model: prepared?.model ?? offModel })
      },
    })
  } catch (error) {
    count('failed')
    throw error
  }
}

function modelNamed(body: string): string | undefined {
  try {
    const model = (JSON.parse(body) as { model?: unknown } | null)?.model
    return typeof model === 'string' ? model : undefined
  } catch {
    // Not JSON: the call is counted without a model name.
    return undefined
  }
}
