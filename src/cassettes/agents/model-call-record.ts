import type { ExchangeEvent } from '../../runtime/call-context'
import type { ModelCallRecord } from '../../runtime/model-call-log'
import { replyUsage } from '../store/reply-formats'

/** One exchange as the test's model-call log keeps it (tokens read from its reply). @internal */
export function modelCallRecord(
  caller: 'agent' | 'judge',
  endpoint: string,
  model: string | undefined,
  event: ExchangeEvent,
): ModelCallRecord {
  const usage = replyUsage(event.reply?.())
  const record: ModelCallRecord = { caller, endpoint, source: event.source }
  if (model !== undefined) record.model = model
  if (usage) {
    record.inputTokens = usage.input
    record.outputTokens = usage.output
  }
  if (event.latencyMs !== undefined) record.latencyMs = Math.round(event.latencyMs)
  if (event.file !== undefined) record.cassetteFile = event.file
  return record
}
