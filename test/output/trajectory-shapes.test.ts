// The entries of a trajectory that toolCalls and outputText read the same way (issue 29): built-in
// tool items, plain data, and entries of no known shape.
import { expect, test } from 'vitest'
import { outputText, toolCalls } from '../../src'

test("the Responses API's built-in and custom tool items are calls, named by their name or type", () => {
  const output = [
    { type: 'web_search_call', id: 'ws_1', status: 'completed', action: { query: 'refunds' } },
    { type: 'custom_tool_call', call_id: 'call_2', name: 'grep', input: 'refund' },
    { type: 'mcp_call', id: 'mcp_1', name: 'lookup', arguments: '{"id":"T1"}', server_label: 's' },
    { type: 'reasoning', id: 'rs_1', summary: [] },
    { type: 'custom_tool_call_output', call_id: 'call_2', output: 'found' },
  ]
  expect(toolCalls(output)).toEqual([
    { name: 'web_search', args: { query: 'refunds' }, id: 'ws_1' },
    { name: 'grep', args: 'refund', id: 'call_2' },
    { name: 'lookup', args: { id: 'T1' }, id: 'mcp_1' },
  ])
})

test('an empty list holds no calls, and a list of plain data is JSON for the judge', () => {
  expect(toolCalls([])).toEqual([])
  expect(outputText([{ id: 1, total: 10 }])).toBe('[\n  {\n    "id": 1,\n    "total": 10\n  }\n]')
})

test('a list holding anything but trajectory entries is an error for tool calls, naming the entry', () => {
  expect(() => toolCalls([{ role: 'user', content: 'hi' }, 'lookup_ticket'])).toThrowError(
    /^\[rubricate\] No tool calls can be read from a list of 2 entries whose entry 1 is string "lookup_ticket"/,
  )
  expect(() => toolCalls([{ id: 1 }])).toThrowError(
    /from a list of 1 entry whose entry 0 is an object with keys "id"/,
  )
})

test('a message list ending in an entry of unknown type is an error for the judge too, not its JSON', () => {
  const list = [
    { role: 'user', content: 'Refund?' },
    { role: 'assistant', content: 'Looking.' },
    { type: 'agent_reply', text: 'Refunded.' },
  ]
  expect(() => outputText(list)).toThrowError(
    /^\[rubricate\] The value under test is a list of 3 entries whose entry 2 is an object of type "agent_reply" with keys "type", "text", which is not a shape rubricate reads a reply from/,
  )
})

test('Gemini replies and LangChain-style messages give their reply text', () => {
  const gemini = { candidates: [{ content: { role: 'model', parts: [{ text: 'Refunded.' }] } }] }
  expect(outputText(gemini)).toBe('Refunded.')
  expect(
    outputText([{ role: 'user', parts: [{ text: 'Refund?' }] }, gemini.candidates[0]?.content]),
  ).toBe('Refunded.')
  expect(
    outputText({
      messages: [
        { type: 'human', content: 'Refund?' },
        { type: 'ai', content: 'Done.' },
      ],
    }),
  ).toBe('Done.')
})
