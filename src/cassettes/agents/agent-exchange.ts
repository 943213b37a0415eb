import { currentCallContext } from '../../call-context'
import type { ResolvedConfig } from '../../config'
import { runExchange } from '../exchange/exchange'
import { prepareRequest } from '../exchange/prepared-request'
import { cassetteSession } from '../run/cassette-session'

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
  // A judge model's own request: its judge call is the cassette entry; recording this too would
  // count one judge call as an agent call as well, and replay would need the provider package.
  if (context.judgeTransport) return live()
  const prepared = prepareRequest({
    method: request.method,
    endpoint,
    body: await request.clone().text(),
    url,
    headers: request.headers,
    redact: config.cassettes.redact,
  })
  return runExchange({
    path: 'agent',
    request: prepared,
    url,
    config,
    test: context.test ?? cassetteSession().currentTest(),
    testIsExact: context.test !== undefined,
    live,
  })
}
