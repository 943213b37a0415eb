/**
 * The output gate for structured data that leaves rubricate as data rather than text: the records
 * in `task.meta`, which Vitest writes into its blob reports for `--merge-reports` (ARCHITECTURE.md
 * §9.1).
 */
import {
  mapJsonStrings,
  outputSecrets,
  redactOutput,
  type SecretSet,
} from '../cassettes/redaction/redaction'

/**
 * A JSON value with every string (and every key) passed through {@link redactOutput}. Returns
 * `value` itself when nothing changed, so a record without secrets costs no copy. The secrets are
 * read once, for every string of the value, unless the caller passes those it read.
 * @internal
 */
export function redactedValue<T>(value: T, secrets: SecretSet = outputSecrets()): T {
  return mapJsonStrings(value, (text) => redactOutput(text, secrets), true) as T
}
