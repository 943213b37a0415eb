// The reference model: a deterministic OpenAI-compatible server that plays every agent of the
// examples and their judge, from the rules written next to each example. The committed cassettes
// were recorded against it (`npm run examples:record`), because no hosted model is reachable from
// the machines this repository is built on. Re-record against a real model to see real verdicts.
import {
  type FakeRequest,
  fakeReply,
  startFakeAnthropic,
  startFakeGemini,
  startFakeOpenAI,
} from 'rubricate/testing'
import agentEvals from '../agent-evals/agent-evals.rules'
import codeWriting from '../code-writing/code-writing.rules'
import customScorer from '../custom-scorer/custom-scorer.rules'
import datasetEval from '../dataset-eval/dataset-eval.rules'
import failing from '../failing/failing.rules'
import frameworks, { type DeskMove, deskMove } from '../frameworks/frameworks.rules'
import helpCenter from '../help-center/help-center.rules'
import orderAgent from '../order-agent/order-agent.rules'
import researchReport from '../research-report/research-report.rules'
import supportAgent from '../support-agent/support-agent.rules'
import { startReferenceGateway } from './gateway'
import { rubricJudge } from './rubric-judge'
import type { ExampleRules, ModelRequest, Rule } from './rules'

const EXAMPLES: Record<string, ExampleRules> = {
  'agent-evals': agentEvals,
  'code-writing': codeWriting,
  'custom-scorer': customScorer,
  'dataset-eval': datasetEval,
  failing,
  frameworks,
  'help-center': helpCenter,
  'order-agent': orderAgent,
  'research-report': researchReport,
  'support-agent': supportAgent,
}

/** The running reference model: one server per protocol, all on 127.0.0.1. */
export interface ReferenceModel {
  /** The OpenAI-compatible server (`http://127.0.0.1:<port>/v1`): the judge and most agents. */
  baseURL: string
  /**
   * The variables that point each client at its server: `OPENAI_BASE_URL`, `ANTHROPIC_BASE_URL`,
   * `GEMINI_BASE_URL` (read by the Gemini example) and `AI_GATEWAY_BASE_URL` (read by the AI SDK
   * example), each with a key the servers accept.
   */
  env: Record<string, string>
  close(): Promise<void>
}

/**
 * Start the reference model on 127.0.0.1 (random ports): the OpenAI-compatible server, and the
 * Anthropic Messages, Gemini and AI Gateway servers the frameworks examples talk to. A request
 * that no rule answers gets an HTTP 400 that says so.
 */
export async function startReferenceModel(): Promise<ReferenceModel> {
  const rules: Rule[] = [
    ...Object.values(EXAMPLES).flatMap((example) => example.rules ?? []),
    rubricJudge(Object.values(EXAMPLES).flatMap((example) => example.criteria ?? [])),
  ]
  const openai = await startFakeOpenAI({
    reply: (raw) => {
      const request = readRequest(raw)
      const rule = rules.find((candidate) => candidate.match(request))
      if (rule) return rule.reply(request)
      return fakeReply.status(400, {
        message: `The reference model has no rule for this request (model "${request.model}", system prompt "${request.system.slice(0, 60)}", user message "${request.user.slice(0, 60)}"). Add one to the rules file of the example that sends it (examples/<case>/<case>.rules.ts).`,
      })
    },
  })
  // Anthropic's and Gemini's wire formats carry a tool call's arguments as an object.
  const provider = (request: FakeRequest) => {
    const move = deskMove(request.body)
    if (move === undefined) return { error: { status: 400, message: noRule(request) } }
    if ('call' in move) return { toolCalls: [{ name: move.call.name, arguments: move.call.args }] }
    return { text: 'text' in move ? move.text : JSON.stringify(move.json) }
  }
  const anthropic = await startFakeAnthropic({ reply: provider })
  const gemini = await startFakeGemini({ reply: provider })
  const gateway = await startReferenceGateway((body) => gatewayMove(deskMove(body)))
  return {
    baseURL: openai.baseURL,
    env: {
      OPENAI_BASE_URL: openai.baseURL,
      OPENAI_API_KEY: 'reference-model-key',
      ANTHROPIC_BASE_URL: anthropic.url,
      ANTHROPIC_API_KEY: 'reference-model-key',
      GEMINI_BASE_URL: gemini.url,
      GEMINI_API_KEY: 'reference-model-key',
      AI_GATEWAY_BASE_URL: gateway.baseURL,
      AI_GATEWAY_API_KEY: 'reference-model-key',
    },
    close: async () => {
      await Promise.all([openai.close(), anthropic.close(), gemini.close(), gateway.close()])
    },
  }
}

function gatewayMove(move: DeskMove | undefined) {
  if (move === undefined || 'call' in move || 'text' in move) return move
  return { text: JSON.stringify(move.json) }
}

function noRule(request: FakeRequest): string {
  return `The reference model has no rule for this request (${request.method} ${request.path}). Add one to the rules file of the example that sends it (examples/<case>/<case>.rules.ts).`
}

function readRequest(raw: FakeRequest): ModelRequest {
  const body = (raw.body ?? {}) as {
    model?: string
    messages?: { role: string; content: unknown }[]
    input?: { role?: string; content?: unknown }[] | string
    instructions?: string
    response_format?: { json_schema?: { name?: string } }
  }
  // Chat Completions sends `messages`; the Responses API `input` items (messages among them,
  // the system prompt as a `system` or `developer` one) and perhaps `instructions`.
  const items =
    typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : body.input
  const messages = (body.messages ?? items ?? [])
    .filter((item): item is { role: string; content: unknown } => typeof item.role === 'string')
    .map((item) => (item.role === 'developer' ? { ...item, role: 'system' } : item))
  if (body.instructions) messages.unshift({ role: 'system', content: body.instructions })
  const text = (role: string) =>
    messages.filter((message) => message.role === role).map((message) => textOf(message.content))
  return {
    model: body.model ?? '',
    system: text('system')[0] ?? '',
    user: text('user').at(-1) ?? '',
    schemaName: body.response_format?.json_schema?.name,
    raw,
  }
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content
  if (Array.isArray(content)) return content.map((part) => part?.text ?? '').join('')
  return ''
}
