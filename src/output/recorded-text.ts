import type { RubricateRecord } from '../records/records'
import { taskText } from './task-text'

/**
 * How many characters of a judged text, and of its task, a record keeps for the report page:
 * enough for most replies whole, while a run of a thousand assertions stays a few megabytes.
 * @internal
 */
export const RECORDED_TEXT_LIMIT = 4000

type TextFields = Pick<
  RubricateRecord,
  'outputPreview' | 'output' | 'outputLength' | 'input' | 'inputLength'
>

/**
 * The text fields of a record (ARCHITECTURE.md §3): the judged text's 200-character preview, the
 * text itself and the task it answers, each cut to `RECORDED_TEXT_LIMIT` with its length kept
 * when cut. An input that reads as no text (or cannot be read: the matcher says so elsewhere)
 * leaves no field.
 * @internal
 */
export function recordedTexts(output: string, input?: unknown): TextFields {
  const fields: TextFields = { outputPreview: cut(output, 200) }
  if (output !== '') {
    fields.output = cut(output, RECORDED_TEXT_LIMIT)
    if (fields.output.length < output.length) fields.outputLength = output.length
  }
  let task: string | undefined
  try {
    task = input === undefined ? undefined : taskText(input)
  } catch {
    task = undefined
  }
  if (task) {
    fields.input = cut(task, RECORDED_TEXT_LIMIT)
    if (fields.input.length < task.length) fields.inputLength = task.length
  }
  return fields
}

// Cut before a surrogate pair rather than through it, so no half character reaches the page.
function cut(text: string, limit: number): string {
  if (text.length <= limit) return text
  const code = text.charCodeAt(limit - 1)
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? limit - 1 : limit)
}
