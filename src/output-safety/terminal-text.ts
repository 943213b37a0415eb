/**
 * The gate for text bound for a terminal or a CI log (ARCHITECTURE.md §9.1): every known secret
 * replaced, control characters shown escaped, and no line that could start a GitHub Actions
 * workflow command. Everything rubricate prints passes through here: the reporter's lines, the
 * matchers' failure messages, every `[rubricate]` message and the CLI's output.
 */
import { outputSecrets, redactOutput, type SecretSet } from '../cassettes/redaction/redaction'
import { oneLine } from '../records/one-line'

// C0 controls but tab and line feed, DEL, and C1 controls (U+009B is a one-character CSI on some
// terminals). A CR is matched here only when no LF follows: CR LF is a line break, which the
// caller turns into LF first.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is its job
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g

/**
 * `text` with every control character a terminal or log would act on shown as an escape (`\x1b`,
 * `\x07`, `\x00`, `\r`), so a judge's reply cannot colour, erase, ring or rewrite what the
 * terminal shows; line breaks (LF, CR LF) and tabs are kept. Does not redact.
 * @internal
 */
export function escapeControls(text: string): string {
  const lf = text.includes('\r\n') ? text.replaceAll('\r\n', '\n') : text
  return lf.replace(CONTROL, (char) =>
    char === '\r' ? '\\r' : `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`,
  )
}

/**
 * `text` where no line starts a GitHub Actions workflow command. The runner trims a line's
 * leading whitespace and then acts on one that starts with `::` (`::error ...`,
 * `::stop-commands::`, `::add-mask::`), so indenting is not enough: such a line gets a backslash
 * before its `::` (`\::error ...`), which the runner ignores and a reader still reads. Lines are
 * split at LF and at a lone CR, as the runner splits them. Does not redact.
 * @internal
 */
export function escapeWorkflowCommands(text: string): string {
  if (!text.includes('::')) return text
  return text.replace(
    COMMAND_LINE,
    (_match, start: string, space: string) => `${start}${space}\\::`,
  )
}

// A line start (the text's start, or after LF or CR), then whitespace as the runner trims it
// (String.prototype.trimStart's set, which holds .NET's but for U+0085, a control escaped
// earlier), then `::`. Linear: each branch consumes distinct characters, and a failed match at
// one line start is not retried inside the same run of whitespace (the class is anchored to the
// line start before it).
const COMMAND_LINE =
  /(^|[\n\r])([\t\v\f \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]*)::/g

/**
 * Text fit for a terminal and a CI log: redacted of every known secret ({@link redactOutput}),
 * control characters escaped ({@link escapeControls}) and no line able to start a workflow
 * command ({@link escapeWorkflowCommands}). Line breaks are kept.
 * @internal
 */
export function terminalText(text: string): string {
  return escapeWorkflowCommands(escapeControls(redactOutput(text)))
}

/**
 * One line of untrusted text (a criterion, a reasoning, a reason) for a terminal line: whitespace
 * and line breaks collapsed to single spaces, control characters escaped. Not redacted: the
 * reporter redacts the whole line it prints (a secret may span the pieces a line is built from).
 * @internal
 */
export function terminalLine(text: string): string {
  return escapeControls(oneLine(text))
}

/**
 * A line rubricate built itself, coloured, whose untrusted pieces went through
 * {@link terminalLine}: redacted as a whole and kept from starting a workflow command. Its own
 * colour codes are kept, which is why control characters are escaped in the pieces, not here.
 * A block of lines printed at once reads the secrets once and passes them (`outputSecrets()`).
 * @internal
 */
export function colouredLine(line: string, secrets: SecretSet = outputSecrets()): string {
  return escapeWorkflowCommands(redactOutput(line, secrets))
}
