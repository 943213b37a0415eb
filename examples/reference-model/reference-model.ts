// The reference model: a deterministic OpenAI-compatible server that plays every agent of the
// examples and their judge, from the rules written next to each example. The committed cassettes
// were recorded against it (`npm run examples:record`), because no hosted model is reachable from
// the machines this repository is built on. Re-record against a real model to see real verdicts.
import { type FakeOpenAI, type FakeRequest, fakeReply, startFakeOpenAI } from 'rubricate/testing'
import agentEvals from '../agent-evals/agent-evals.rules'
import codeWriting from '../code-writing/code-writing.rules'
import customScorer from '../custom-scorer/custom-scorer.rules'
import datasetEval from '../dataset-eval/dataset-eval.rules'
import failing from '../failing/failing.rules'
import helpCenter from '../help-center/help-center.rules'
import orderAgent from '../order-agent/order-agent.rules'
import researchReport from '../research-report/research-report.rules'
import supportAgent from '../support-agent/support-agent.rules'
import { rubricJudge } from './rubric-judge'
import type { ExampleRules, ModelRequest, Rule } from './rules'

const EXAMPLES: Record<string, ExampleRules> = {
  'agent-evals': agentEvals,
  'code-writing': codeWriting,
  'custom-scorer': customScorer,
  'dataset-eval': datasetEval,
  failing,
  'help-center': helpCenter,
  'order-agent': orderAgent,
  'research-report': researchReport,
  'support-agent': supportAgent,
}

/**
 * Start the reference model on 127.0.0.1 (a random port). Point `OPENAI_BASE_URL` at its
 * `baseURL`. A request that no rule answers gets an HTTP 400 that says so.
 */
export async function startReferenceModel(): Promise<FakeOpenAI> {
  const rules: Rule[] = [
    ...Object.values(EXAMPLES).flatMap((example) => example.rules ?? []),
    rubricJudge(Object.values(EXAMPLES).flatMap((example) => example.criteria ?? [])),
  ]
  return startFakeOpenAI({
    reply: (raw) => {
      const request = readRequest(raw)
      const rule = rules.find((candidate) => candidate.match(request))
      if (rule) return rule.reply(request)
      return fakeReply.status(400, {
        message: `The reference model has no rule for this request (model "${request.model}", system prompt "${request.system.slice(0, 60)}", user message "${request.user.slice(0, 60)}"). Add one to the rules file of the example that sends it (examples/<case>/<case>.rules.ts).`,
      })
    },
  })
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
