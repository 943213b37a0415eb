// The messages of reading agent output: what a value under test is, and what to pass instead.
import { format } from '../messages'

// The shapes rubricate reads tool calls and replies from, for messages that say what is understood.
const UNDERSTOOD_SHAPES =
  'an OpenAI Agents SDK RunResult or StreamedRunResult (after `await result.completed`), its `newItems`, `history` or `output`; an OpenAI chat completion or Responses object, or its `output` items; an AI SDK generateText result, its `steps` or `content`; a Mastra agent result; a LangChain AIMessage, a list of LangChain messages (live or serialized, as a LangGraph checkpoint holds them), or a LangGraph state with `messages`; an Anthropic message or a Gemini response; or a list of chat messages (objects with a `role`)'

/** @internal */
export const outputMessages = {
  toolCallsUnknownShape: (found: string): string =>
    format(
      `No tool calls can be read from ${found}, so rubricate cannot tell which tools were called (reading it as "no calls" would let \`.not.toHaveCalledTool(...)\` pass although a tool was called). Pass ${UNDERSTOOD_SHAPES}. For another framework, map its result to a list of chat messages with \`tool_calls\`.`,
    ),
  textUnknownShape: (found: string): string =>
    format(
      `The value under test is ${found}, which is not a shape rubricate reads a reply from, so the judge would be shown the wrong text. Pass the reply as a string, or ${UNDERSTOOD_SHAPES}.`,
    ),
  agentsStreamRunning: (): string =>
    format(
      'The value under test is an OpenAI Agents SDK StreamedRunResult whose run has not finished, so its items and final output are not known yet. Wait for it first: `await result.completed` (or consume the stream to its end), then pass `result`.',
    ),
  agentsStreamFailed: (error: string): string =>
    format(
      `The value under test is an OpenAI Agents SDK StreamedRunResult whose run failed (${JSON.stringify(error)}), so it has no final output or complete trajectory to judge. Fix the run's error; \`await result.completed\` rethrows it.`,
    ),
  sdkStreamRunning: (name: string): string =>
    format(
      `The value under test is an SDK ${name} (a stream or tool runner of the Anthropic or OpenAI SDK) that has not ended, so its \`messages\` hold only what was sent: its tool calls and reply are not known yet. Wait for it first: \`await stream.finalMessage()\` (Anthropic's \`messages.stream()\`), \`await runner.done()\` (OpenAI's \`chat.completions.stream()\` or \`runTools()\`), then pass it or its final message.`,
    ),
  sdkStreamFailed: (name: string): string =>
    format(
      `The value under test is an SDK ${name} (a stream or tool runner of the Anthropic or OpenAI SDK) that failed or was aborted, so its \`messages\` hold no complete reply to read tool calls or text from. Fix the call's error (awaiting \`finalMessage()\` or \`done()\` rethrows it), then pass the stream once it has ended.`,
    ),
  agentsRunInterrupted: (pending: number): string =>
    format(
      `The value under test is an OpenAI Agents SDK run stopped for the approval of ${pending} tool call${pending === 1 ? '' : 's'} (\`result.interruptions\`), so it has no final output to judge. Approve or reject them and resume the run (\`run(agent, result.state)\`), then pass that result; its tool calls so far can be checked with toHaveCalledTool().`,
    ),
  chunksNotJoinable: (count: number): string =>
    format(
      `The value under test holds ${count} LangChain message chunks of one message that cannot be joined the way LangChain joins them (they are serialized, so they lost their \`concat\`), and read one by one they would show each call with partial arguments and an empty reply. Join them before serializing: \`chunks.reduce((message, chunk) => message.concat(chunk))\` (or \`concat\` from \`@langchain/core/utils/stream\`), then pass the message.`,
    ),
  invalidCallWithoutName: (): string =>
    format(
      'The value under test is a LangChain message with an invalid tool call that has no name (`invalid_tool_calls`), so rubricate cannot tell which tool was called. Pass the whole message the model returned (chunks of a stream joined with `concat`), not a part of it.',
    ),
  langGraphInterrupted: (pending: number): string =>
    format(
      `The value under test is a LangGraph state paused at \`interrupt()\` (its \`__interrupt__\` holds ${pending} interrupt${pending === 1 ? '' : 's'}), so its run has no final reply to judge. Resume it (\`graph.invoke(new Command({ resume: ... }), config)\`) and pass the state it returns; the pause itself can be checked with toHaveBeenInterrupted(), its tool calls so far with toHaveCalledTool().`,
    ),
  asyncIterable: (name: string): string =>
    format(
      `The value under test is an async iterable (${name}: a stream), so its chunks are not a value rubricate can read: before it is consumed they are not known, after it they are gone. Collect them, then pass the list: \`const chunks = []; for await (const chunk of stream) chunks.push(chunk)\` (a LangGraph stream in any \`streamMode\`, its \`streamEvents\` v2 events, a LangChain \`model.stream()\`).`,
    ),
  snapshotUnfinished: (next: readonly string[]): string =>
    format(
      `The value under test is a LangGraph StateSnapshot whose run has not finished (its \`next\` nodes are ${next.map((node) => JSON.stringify(node)).join(', ')}), so it has no final reply to judge. Run the graph to its end (\`graph.invoke(null, config)\`), then pass \`await graph.getState(config)\` or the state it returns.`,
    ),
  eventsUnfinished: (): string =>
    format(
      "The value under test is a list of LangGraph `streamEvents` v2 events without the end of the run they started with (no `on_chain_end` of the first event's `run_id`), so the run's output is not known. Collect every event of the stream to its end, then pass the list.",
    ),
  interruptsUnknownShape: (found: string): string =>
    format(
      `Whether a run is paused cannot be read from ${found}, so rubricate cannot tell whether it was interrupted (reading it as "not paused" would let \`.not.toHaveBeenInterrupted()\` pass by accident). Pass a LangGraph state (what \`invoke()\` returns), its \`getState()\` snapshot or its collected stream chunks, or an OpenAI Agents SDK run result.`,
    ),
  structuredUnknownShape: (found: string): string =>
    format(
      `No structured response can be read from ${found}. Pass a LangGraph agent's state (its \`structuredResponse\`), the \`{ raw, parsed }\` of \`withStructuredOutput(schema, { includeRaw: true })\`, an OpenAI Agents SDK run result with an \`outputType\`, an AI SDK result (\`output\` or \`object\`) or a Mastra result (\`object\`); or the structured value itself to \`expect(value).toEqual(...)\`.`,
    ),
}
