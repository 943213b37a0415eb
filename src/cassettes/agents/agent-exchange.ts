import { currentCallContext, type ExchangeEvent, runningTest } from '../../runtime/call-context'
import { logModelCall } from '../../runtime/model-call-log'
import type { Runtime } from '../../runtime/runtime'
import { exchange } from '../exchange/exchange'
import { type PreparedRequest, prepareRequest } from '../exchange/prepared-request'
import type { AgentCallOutcome, CassetteSession } from '../run/cassette-session'
import type { ModelEndpoint } from '../store/model-endpoint'
import { replyTokens } from '../store/reply-formats'
import { modelCallRecord } from './model-call-record'

/**
 * Record or replay one of the agent's model calls (the msw handlers and `createCassetteFetch`
 * alike): the request prepared and keyed, its test taken from the call context, else the only
 * test running (`runningTest()`).
 * @internal
 */
export async function runAgentExchange(
  request: Request,
  url: URL,
  { endpoint, queryInKey }: ModelEndpoint,
  runtime: Runtime,
  live: (request: Request) => Promise<Response>,
): Promise<Response> {
  const context = currentCallContext()
  const config = runtime.config()
  // A judge model's own request: its judge call is the cassette entry; recording this too would
  // count one judge call as an agent call as well, and replay would need the provider package.
  if (context.transport === 'judge-model') return live(request)
  const body = await request.clone().text()
  let prepared: PreparedRequest | undefined
  const prepare = (rewrite?: (text: string) => string) => {
    prepared ??= prepareRequest({
      method: request.method,
      endpoint,
      body: rewrite ? rewrite(body) : body,
      url: rewrite ? new URL(rewrite(url.href)) : url,
      queryInKey,
      headers: request.headers,
      redact: config.cassettes.redact,
      normalize: config.cassettes.normalize,
    })
    return prepared
  }
  const session = runtime.session
  const test = runningTest()
  const capture = context.modelCalls
  const asJudge = capture?.asJudge
  // With cassettes off the request is never prepared: a scorer that counts the call still learns
  // its model.
  const offModel = capture && config.cassettes.mode === 'off' ? modelNamed(body) : undefined
  const model = () => prepared?.model ?? offModel
  // Each exchange is counted once, as what it turned out to be: a live stream reports when it
  // ends, after this function has returned; one that throws (a replay miss, a failed connection,
  // a refused recording) without having reported is a failed call.
  // A scorer's model call is its judge's: not counted as the agent's.
  let counted = asJudge !== undefined
  const count = (outcome: AgentCallOutcome) => {
    if (counted) return
    counted = true
    session.countAgentCall(outcome)
  }
  // The listener hears of a reply once it is returned; of a live stream when it ends and is
  // written, after this function returned (the promise handed to onModelCallPending settles then).
  let returned = false
  let heard: ExchangeEvent | undefined
  let settle = () => {}
  const tell = (event: ExchangeEvent) =>
    capture?.onModelCall({ ...event, endpoint, model: model() })
  try {
    const reply = await exchange({
      caller: 'agent',
      prepare,
      url,
      runtime,
      config,
      test: test?.identity,
      testIsExact: test?.exact === true,
      live: (rewrite) => live(rewrite ? rewritten(request, body, rewrite) : request),
      warnReplayedErrors: true,
      ...(asJudge
        ? {
            limit: (send: () => Promise<Response>) => asJudge.limit(config, model(), send),
            onLiveJson: (json: unknown) => asJudge.onLiveJson(config, model(), json),
          }
        : {}),
      onExchange: (event) => {
        // A scorer's model call is its judge's, in the test's log as in the counts.
        logModelCall(modelCallRecord(asJudge ? 'judge' : 'agent', endpoint, model(), event))
        if (!counted) countTokens(session, event)
        count(event.source)
        if (!returned) heard = event
        else {
          tell(event)
          settle()
        }
      },
    })
    returned = true
    if (heard) tell(heard)
    else capture?.onModelCallPending(new Promise<void>((resolve) => (settle = resolve)))
    return reply.response()
  } catch (error) {
    count('failed')
    throw error
  }
}

/** Count an agent call's tokens, from its format's usage fields, into the run's Agents line. */
function countTokens(session: CassetteSession, event: ExchangeEvent): void {
  const tokens = replyTokens(event.reply?.())
  if (tokens !== undefined)
    session.countAgentTokens(event.source === 'replayed' ? 'replayed' : 'live', tokens)
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

/** The request with the live server's ids put in its URL and body (see `id-aliases.ts`). */
function rewritten(request: Request, body: string, rewrite: (text: string) => string): Request {
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD'
  return new Request(rewrite(request.url), {
    method: request.method,
    headers: request.headers,
    ...(hasBody ? { body: rewrite(body) } : {}),
    signal: request.signal,
  })
}
