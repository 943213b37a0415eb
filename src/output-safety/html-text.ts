/**
 * The gate for untrusted text in the HTML report page (ARCHITECTURE.md §9.1).
 */
import { outputSecrets, redactOutput } from '../cassettes/redaction/redaction'
import { escapeControls } from './terminal-text'

/**
 * The HTML gate, with the secrets to redact read once, now (build one per file written): each
 * piece of untrusted text it is given comes back safe as an HTML element's content or a quoted
 * attribute's value: redacted of every known secret first (escaping could split a secret that
 * holds `&` or `<`, so a pass over the whole file would not find it), control characters shown
 * escaped (`\x1b`, a lone CR as `\r`; line breaks and tabs kept), then `&`, `<`, `>`, `"` and `'`
 * escaped, so no text can open a tag, end an attribute or start a script.
 * @internal
 */
export function htmlGate(): (text: string) => string {
  const secrets = outputSecrets()
  return (text) =>
    escapeControls(redactOutput(text, secrets))
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      .replace(/'/g, '&#39;')
}
