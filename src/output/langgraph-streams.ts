// What LangGraph and LangChain hand back besides a state, read as the value they stand for (no
// import of either): the collected chunks of `graph.stream()` in each `streamMode` (`updates`,
// `values`, `messages`), the events of `streamEvents(..., { version: 'v2' })`, a `getState()`
// `StateSnapshot`, and `withStructuredOutput(..., { includeRaw: true })`'s `{ raw, parsed }`.
// An async iterable that is not collected is refused: what it yielded is gone once consumed, and
// what it will yield is not known before.
import { UsageError } from '../errors'
import { isLangChainMessage } from './item-kinds'
import { isStateSnapshot } from './langgraph'
import { outputMessages } from './output-messages'

type Loose = Record<string, unknown>

const isObject = (value: unknown): value is Loose => typeof value === 'object' && value !== null
const isPlain = (value: unknown): value is Loose =>
  isObject(value) && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype

/**
 * The state a LangGraph value stands for: a snapshot's `values` (with its pending interrupts as
 * `__interrupt__`), the last chunk of a `values` stream, the messages of an `updates` stream (and
 * its interrupts), the message chunks of a `messages` stream, the final output of a
 * `streamEvents` v2 run. `undefined` for a value that is none of these.
 * @internal
 */
export function langGraphState(value: unknown): unknown {
  if (isStateSnapshot(value)) return snapshotState(value)
  if (!Array.isArray(value) || value.length === 0) return undefined
  if (value.every(isMessagesChunk)) return value.map((entry) => (entry as unknown[])[0])
  if (value.every(isStreamEvent)) return eventsOutput(value as Loose[])
  if (value.every(isValuesChunk)) return value.at(-1)
  if (value.every(isUpdatesChunk)) return updatesState(value as Loose[])
  return undefined
}

/**
 * The structured value a LangChain `{ raw, parsed }` pair holds, with its raw message: what
 * `withStructuredOutput(schema, { includeRaw: true })` returns. @internal
 */
export function rawAndParsed(value: unknown): { raw: unknown; parsed: unknown } | undefined {
  if (!isPlain(value) || !('raw' in value) || !('parsed' in value)) return undefined
  const keys = Object.keys(value).filter((key) => key !== 'parsingError')
  return keys.length === 2 && isLangChainMessage(value.raw)
    ? { raw: value.raw, parsed: value.parsed }
    : undefined
}

/**
 * Throws `RUBRICATE_USAGE` for an async iterable that reached a reader (a LangGraph or LangChain
 * stream, an SDK's event stream not read through its own helpers): its chunks are not a value.
 * @internal
 */
export function refuseAsyncIterable(value: unknown): void {
  // An SDK stream helper that has ended (`assertSdkStreamEnded` vetted it) is read by `messages`.
  if (isObject(value) && 'ended' in value && Array.isArray((value as Loose).messages)) return
  if (
    isObject(value) &&
    typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === 'function'
  ) {
    const name = (value as { constructor?: { name?: unknown } }).constructor?.name
    throw new UsageError(
      outputMessages.asyncIterable(typeof name === 'string' && name !== '' ? name : 'object'),
    )
  }
}

function snapshotState(snapshot: Loose): unknown {
  const values = snapshot.values
  const tasks = snapshot.tasks as unknown[]
  const interrupts = tasks.flatMap((task) =>
    isObject(task) && Array.isArray(task.interrupts) ? task.interrupts : [],
  )
  const next = snapshot.next as unknown[]
  if (next.length > 0 && interrupts.length === 0) {
    throw new UsageError(outputMessages.snapshotUnfinished(next.map(String)))
  }
  if (interrupts.length === 0) return values
  return { ...(isObject(values) ? values : {}), __interrupt__: interrupts }
}

// `messages` mode: `[messageChunk, metadata]`, the metadata naming the graph node.
function isMessagesChunk(entry: unknown): boolean {
  return (
    Array.isArray(entry) &&
    entry.length === 2 &&
    isLangChainMessage(entry[0]) &&
    isObject(entry[1]) &&
    'langgraph_node' in entry[1]
  )
}

// `values` mode: each chunk is the whole state, with its `messages`.
function isValuesChunk(entry: unknown): boolean {
  return isPlain(entry) && Array.isArray(entry.messages) && !('role' in entry) && !('type' in entry)
}

// `updates` mode: `{ <node>: { messages: [...] } }` per step (a node that returned nothing:
// `null`), or `{ __interrupt__: [...] }`. A node update without `messages` is not read (it could be
// anything), so a list holding one is not taken for this mode.
function isUpdatesChunk(entry: unknown): boolean {
  if (!isPlain(entry)) return false
  const keys = Object.keys(entry)
  return (
    keys.length > 0 &&
    keys.every((key) => {
      const update = entry[key]
      if (key === '__interrupt__') return Array.isArray(update)
      return update === null || (isPlain(update) && Array.isArray(update.messages))
    })
  )
}

function updatesState(chunks: Loose[]): Loose {
  const messages: unknown[] = []
  const interrupts: unknown[] = []
  for (const chunk of chunks) {
    for (const [key, update] of Object.entries(chunk)) {
      if (key === '__interrupt__') interrupts.push(...(update as unknown[]))
      else if (isObject(update) && Array.isArray(update.messages)) messages.push(...update.messages)
    }
  }
  return interrupts.length > 0 ? { messages, __interrupt__: interrupts } : { messages }
}

// A `streamEvents` v2 event: `{ event: 'on_chain_start', run_id, name, data, ... }`.
function isStreamEvent(entry: unknown): boolean {
  return (
    isPlain(entry) &&
    typeof entry.event === 'string' &&
    entry.event.startsWith('on_') &&
    typeof entry.run_id === 'string' &&
    isObject(entry.data)
  )
}

// The root run (the first event's) ends with the graph's output; without that end, the run had
// not finished when the events were collected.
function eventsOutput(events: Loose[]): unknown {
  const root = (events[0] as Loose).run_id
  const end = events.find((event) => event.run_id === root && event.event === 'on_chain_end')
  if (end === undefined) throw new UsageError(outputMessages.eventsUnfinished())
  return (end.data as Loose).output
}
