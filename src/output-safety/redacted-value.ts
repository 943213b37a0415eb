/**
 * The output gate for structured data that leaves rubricate as data rather than text: the records
 * in `task.meta`, which Vitest writes into its blob reports for `--merge-reports` (ARCHITECTURE.md
 * §9.1).
 */
import { outputSecrets, redactOutput, type SecretSet } from '../cassettes/redaction/redaction'

/**
 * A JSON value with every string (and every key) passed through {@link redactOutput}. Returns
 * `value` itself when nothing changed, so a record without secrets costs no copy. The secrets are
 * read once, for every string of the value, unless the caller passes those it read.
 * @internal
 */
export function redactedValue<T>(value: T, secrets: SecretSet = outputSecrets()): T {
  return walk(value, secrets) as T
}

function walk(value: unknown, secrets: SecretSet): unknown {
  if (typeof value === 'string') return redactOutput(value, secrets)
  if (value === null || typeof value !== 'object') return value
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined
    for (let i = 0; i < value.length; i++) {
      const next = walk(value[i], secrets)
      if (next !== value[i]) {
        copy ??= value.slice()
        copy[i] = next
      }
    }
    return copy ?? value
  }
  let copy: Record<string, unknown> | undefined
  const source = value as Record<string, unknown>
  for (const key of Object.keys(source)) {
    const safeKey = redactOutput(key, secrets)
    const next = walk(source[key], secrets)
    if (next !== source[key] || safeKey !== key) {
      copy ??= { ...source }
      if (safeKey !== key) delete copy[key]
      copy[safeKey] = next
    }
  }
  return copy ?? value
}
