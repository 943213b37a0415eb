// LangChain message chunks (`AIMessageChunk`, what `model.stream()` yields and a LangGraph
// `messages` stream carries), joined the way LangChain joins them: by the chunk's own `concat`,
// which merges text and joins `tool_call_chunks` by index before parsing each call's arguments.
// Read one by one, a collected stream is a call per opening chunk with `{}` arguments and an
// empty reply, which would let `.not.toHaveCalledTool(name, args)` pass although the call was made.
import { UsageError } from '../errors'
import { messageFields, serializedLangChainClass } from './item-kinds'
import { outputMessages } from './output-messages'

type Loose = Record<string, unknown>

const isObject = (value: unknown): value is Loose => typeof value === 'object' && value !== null

/** True for a LangChain message chunk, live or serialized. @internal */
export function isLangChainChunk(value: unknown): boolean {
  if (!isObject(value)) return false
  const serialized = serializedLangChainClass(value)
  if (serialized !== undefined) return serialized.endsWith('Chunk')
  const fields = messageFields(value)
  return (
    isObject(fields) &&
    typeof fields.type === 'string' &&
    'content' in fields &&
    Array.isArray(fields.tool_call_chunks)
  )
}

/**
 * The list with each stream of chunks joined into the message they make: chunks with the same
 * `id` (a chunk without one belongs to the chunk before it) are concatenated in order, at the
 * place of their first chunk. A list with no more than one chunk per message is returned as it
 * is. Chunks that cannot be joined the framework's way (serialized ones, which lost `concat`) are
 * a usage error: joining them by hand could differ from what LangChain makes of them.
 * @internal
 */
export function joinLangChainChunks(list: readonly unknown[]): readonly unknown[] {
  const groups = new Map<unknown, number[]>()
  let last: unknown
  list.forEach((entry, index) => {
    if (!isLangChainChunk(entry)) {
      last = undefined
      return
    }
    const id = (messageFields(entry) as Loose).id
    const key = typeof id === 'string' && id !== '' ? id : (last ?? Symbol('chunk'))
    last = key
    const indices = groups.get(key) ?? []
    indices.push(index)
    groups.set(key, indices)
  })
  if ([...groups.values()].every((indices) => indices.length === 1)) return list
  const joined = new Map<number, unknown>()
  const absorbed = new Set<number>()
  for (const indices of groups.values()) {
    const [first, ...rest] = indices as [number, ...number[]]
    let message = list[first] as Loose
    for (const index of rest) {
      const next = list[index]
      if (typeof message.concat !== 'function') {
        throw new UsageError(outputMessages.chunksNotJoinable(indices.length))
      }
      message = (message.concat as (chunk: unknown) => Loose)(next)
      absorbed.add(index)
    }
    joined.set(first, message)
  }
  return list.flatMap((entry, index) =>
    absorbed.has(index) ? [] : [joined.has(index) ? joined.get(index) : entry],
  )
}
