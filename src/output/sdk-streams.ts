// The stream helpers and tool runners of the provider SDKs (the Anthropic SDK's
// `messages.stream()`, the OpenAI SDK's `chat.completions.stream()` and `runTools()`), read as
// they are: no import of either SDK. They keep the conversation in `messages`, which holds only
// what was sent until the call ends, so reading one too early would find no calls and let
// `.not.toHaveCalledTool()` pass by accident.
import { UsageError } from '../errors'
import { outputMessages } from './output-messages'

type Loose = Record<string, unknown>

/**
 * Throws `RUBRICATE_USAGE` for an SDK stream or tool runner that has not ended, or that failed
 * or was aborted; any other value, and one that ended, passes (its `messages` are then the whole
 * conversation, replies included).
 * @internal
 */
export function assertSdkStreamEnded(value: object): void {
  // Getters on the SDKs' shared event-stream classes, so `in` sees them without running them.
  if (!('ended' in value && 'errored' in value && 'aborted' in value)) return
  const stream = value as Loose
  if (!Array.isArray(read(stream, 'messages'))) return
  const name = (value as { constructor?: { name?: unknown } }).constructor?.name
  const what = typeof name === 'string' && name !== '' && name !== 'Object' ? name : 'stream'
  if (read(stream, 'errored') === true || read(stream, 'aborted') === true) {
    throw new UsageError(outputMessages.sdkStreamFailed(what))
  }
  if (read(stream, 'ended') !== true) throw new UsageError(outputMessages.sdkStreamRunning(what))
}

function read(object: Loose, key: string): unknown {
  try {
    return object[key]
  } catch {
    return undefined
  }
}
