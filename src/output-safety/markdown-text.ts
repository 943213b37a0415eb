/**
 * The gate for untrusted text in Markdown that rubricate writes (the job summary's tables and the
 * re-record diff table; ARCHITECTURE.md §9.1).
 */
import { redactOutput } from '../cassettes/redaction/redaction'
import { escapeControls } from './terminal-text'

/**
 * Text safe inside one cell of a Markdown table: redacted of every known secret, on one line (LF,
 * CR LF and a lone CR each become `<br>`: a lone CR ends a table row for GitHub's renderer too),
 * pipes escaped, `&`, `<` and `>` escaped so no raw HTML reaches the page, and control characters
 * shown escaped.
 * @internal
 */
export function markdownCell(text: string): string {
  return escapeControls(
    redactOutput(text)
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/\|/g, '\\|')
      .trim()
      .replace(/\r\n|\r|\n/g, '<br>'),
  )
}
