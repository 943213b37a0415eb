import { currentCallContext } from '../call-context'
import type { ResolvedConfig } from '../config'
import { cassetteSession } from './cassette-session'
import { runExchange } from './exchange'
import { prepareRequest } from './prepared-request'

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
  })
  const { onModelCall } = context
  return runExchange({
    path: 'agent',
    onExchange: onModelCall
      ? (event) => onModelCall({ ...event, endpoint, model: prepared.model })
      : undefined,
    request: prepared,
    url,
    config,
    test: context.test ?? cassetteSession().currentTest(),
    testIsExact: context.test !== undefined,
    live,
  })
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
