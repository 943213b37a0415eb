// A Chat Completions stream as OpenAI sends one (not the fake server's one-chunk-per-call stream):
// each tool call opens with its id, name and empty arguments, and its arguments follow in
// fragments that carry only the call's `index`. What the frameworks must join to read a call.
import { type FakeReply, fakeReply } from '../../src/testing'

/** One call of a split stream: its arguments as the raw text the model produced. */
export interface SplitCall {
  id: string
  name: string
  arguments: string
}

/** A streamed reply whose tool calls' arguments arrive in pieces of `size` characters. */
export function splitStream(calls: readonly SplitCall[], text = '', size = 6): FakeReply {
  const chunk = (delta: Record<string, unknown>, finish: string | null = null): string =>
    `data: ${JSON.stringify({
      id: 'chatcmpl-split',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'gpt-agent',
      choices: [{ index: 0, delta, finish_reason: finish }],
    })}\n\n`
  const events = [chunk({ role: 'assistant', content: text === '' ? null : '' })]
  for (const word of text === '' ? [] : text.split(/(?<= )/)) events.push(chunk({ content: word }))
  calls.forEach((call, index) => {
    events.push(
      chunk({
        tool_calls: [
          { index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } },
        ],
      }),
    )
    for (let at = 0; at < call.arguments.length; at += size) {
      const piece = call.arguments.slice(at, at + size)
      events.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }))
    }
  })
  events.push(chunk({}, calls.length > 0 ? 'tool_calls' : 'stop'))
  events.push('data: [DONE]\n\n')
  return fakeReply.status(200, {
    headers: { 'content-type': 'text/event-stream' },
    body: events.join(''),
  })
}
