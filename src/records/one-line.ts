/**
 * Text as one line: whitespace and line breaks collapsed to single spaces, trimmed. It does not
 * gate: a medium's gate (`terminalLine`, `markdownCell`, `htmlGate`) still escapes what it must.
 * @internal
 */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}
