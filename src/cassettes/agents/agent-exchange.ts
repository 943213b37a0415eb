import { currentCallContext } from '../../call-context'
import type { ResolvedConfig } from '../../config'
import { runExchange } from '../exchange/exchange'
import { prepareRequest } from '../exchange/prepared-request'
import { type AgentCallOutcome, cassetteSession } from '../run/cassette-session'

/**
 * Record or replay one of the agent's model calls (the msw handlers and `createCassetteFetch`
 * alike): the request prepared and keyed, its test taken from the call context, else from the
 * test the session says is running.
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
  const prepared = prepareRequest({
    method: request.method,
    endpoint,
    body: await request.clone().text(),
    url,
    headers: request.headers,
    redact: config.cassettes.redact,
    normalize: config.cassettes.normalize,
  })
  const session = cassetteSession()
  // Each exchange is counted once, as what it turned out to be: a live stream reports when it
  // ends, after this function has returned; one that throws (a replay miss, a failed connection,
  // a refused recording) without having reported is a failed call.
  const { onModelCall } = context
  let counted = false
  const count = (outcome: AgentCallOutcome) => {
    if (counted) return
    counted = true
    session.countAgentCall(outcome)
  }
  try {
    return await runExchange({
      path: 'agent',
      request: prepared,
      url,
      config,
      test: context.test ?? session.currentTest(),
      testIsExact: context.test !== undefined,
      live,
      onExchange: (event) => {
        count(event.source)
        onModelCall?.({ ...event, endpoint, model: prepared.model })
      },
    })
  } catch (error) {
    count('failed')
    throw error
  }
}

/**
 * Tell the call context about a model call that goes live untouched (cassettes `off`): an adapted
 * scorer still counts it as a judge call. Reads the body only when someone listens.
 * @internal
 */
export async function notifyLiveModelCall(request: Request, endpoint: string): Promise<void> {
  const { onModelCall } = currentCallContext()
  if (!onModelCall) return
  let model: string | undefined
  try {
    const body = (await request.clone().json()) as { model?: unknown }
    if (typeof body?.model === 'string') model = body.model
  } catch {
    // Not JSON: the call is counted without a model name.
  }
  onModelCall({ source: 'live', endpoint, model })
}
