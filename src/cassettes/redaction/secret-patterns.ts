import { createHash } from 'node:crypto'

/**
 * What a secret looks like and what replaces it. A redacted value becomes `[REDACTED:<digest>]`,
 * where the digest is the first 8 hex digits of a sha256 of the value: two different keys echoed
 * in an output still key apart (a changed secret is a cassette miss, not the replay of another
 * output's verdict), while the placeholder tells nothing usable about the value itself.
 */

/** The bare placeholder, for text that is not keyed (URLs in messages). @internal */
export const REDACTED = '[REDACTED]'

const placeholders = new Map<string, string>()

/** The placeholder of one secret value: `[REDACTED:1a2b3c4d]`. Cached per value. @internal */
export function placeholderOf(value: string): string {
  let out = placeholders.get(value)
  if (out === undefined) {
    const digest = createHash('sha256').update(`rubricate-redaction\0${value}`).digest('hex')
    out = `[REDACTED:${digest.slice(0, 8)}]`
    if (placeholders.size >= 4096) placeholders.clear()
    placeholders.set(value, out)
  }
  return out
}

/** A well-known key format: what it is called, the literal text it holds, and the pattern. @internal */
export interface KeyFormat {
  label: string
  /** Literal text every match holds one of: the pattern is only tried on text that holds one. */
  marks: readonly string[]
  pattern: RegExp
  /** The capture group that holds the secret part, when not the whole match. */
  group?: number | undefined
  /** What stays before the placeholder (`Bearer `). */
  keep?: string | undefined
}

/**
 * The key formats a model may echo, after the rule sets of secretlint and gitleaks. Each pattern
 * is global; the marks keep the replay path from running a dozen regular expressions over every
 * string of every request.
 * @internal
 */
export const KEY_FORMATS: readonly KeyFormat[] = [
  {
    label: 'a PEM private key',
    marks: ['-----BEGIN'],
    pattern: /-----BEGIN[A-Z ]{0,40}PRIVATE KEY-----[\s\S]*?-----END[A-Z ]{0,40}PRIVATE KEY-----/g,
  },
  {
    label: 'a GitHub token',
    marks: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_'],
    pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})/g,
  },
  {
    label: 'a Stripe key',
    marks: ['sk_', 'rk_'],
    pattern: /\b[sr]k_(?:live|test)_[A-Za-z0-9]{10,}/g,
  },
  {
    label: 'an AWS access key id',
    marks: ['AKIA', 'ASIA'],
    pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g,
  },
  {
    label: 'a Google API key',
    marks: ['AIza'],
    pattern: /\bAIza[0-9A-Za-z_-]{35}/g,
  },
  {
    label: 'a Slack token',
    marks: ['xoxa-', 'xoxb-', 'xoxp-', 'xoxo-', 'xoxs-', 'xoxr-'],
    pattern: /\bxox[abposr]-[0-9A-Za-z-]{10,}/g,
  },
  {
    label: 'a Hugging Face token',
    marks: ['hf_'],
    pattern: /\bhf_[A-Za-z0-9]{30,}/g,
  },
  {
    label: 'a Groq key',
    marks: ['gsk_'],
    pattern: /\bgsk_[A-Za-z0-9]{20,}/g,
  },
  {
    label: 'an xAI key',
    marks: ['xai-'],
    pattern: /\bxai-[A-Za-z0-9]{20,}/g,
  },
  {
    label: 'an "sk-..." API key',
    marks: ['sk-'],
    pattern: /sk-[A-Za-z0-9_-]{20,}/g,
  },
  {
    label: 'a "Bearer ..." token',
    marks: ['Bearer'],
    pattern: /Bearer\s+([A-Za-z0-9._~+/=-]{8,})/g,
    group: 1,
    keep: 'Bearer ',
  },
  {
    // postgres://user:password@host, redis://:password@host, https://user:password@proxy...
    label: 'a password in a URL',
    marks: ['://'],
    // A placeholder already in its place is not a password.
    pattern: /\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@"'<>]*:(?!\[REDACTED)([^\s@/"'<>]{3,})@/gi,
    group: 1,
  },
]

/**
 * Matches text that holds any format's mark, in one scan: most strings hold none, and are then
 * done with. It starts at the marks' rarest character (`_` of `ghp_`, `-` of `xoxb-`, then `A`,
 * `B`, `:`) and looks behind for the rest, so prose that is full of "g" and "s" is scanned
 * quickly. `test/cassettes/secret-patterns.test.ts` holds it to every mark.
 * @internal
 */
export const ANY_MARK: RegExp =
  /_(?<=(?:gh[pousr]|github|[sr]k|hf)_)|-(?<=(?:xox[abposr]|xai|sk)-)|-----BEGIN|A(?:KIA|SIA|Iza)|Bearer|:\/\//

function holdsMark(format: KeyFormat, text: string): boolean {
  for (const mark of format.marks) if (text.includes(mark)) return true
  return false
}

/** The first key format `text` holds, if any. @internal */
export function keyFormatIn(text: string): KeyFormat | undefined {
  if (!ANY_MARK.test(text)) return undefined
  for (const format of KEY_FORMATS) {
    if (!holdsMark(format, text)) continue
    format.pattern.lastIndex = 0
    if (format.pattern.test(text)) return format
  }
  return undefined
}

/** `text` with every well-known key format replaced by the placeholder of the key. @internal */
export function redactKeyFormats(text: string): string {
  if (!ANY_MARK.test(text)) return text
  let out = text
  for (const format of KEY_FORMATS) {
    if (!holdsMark(format, out)) continue
    out = out.replace(format.pattern, (match: string, ...groups: unknown[]) => {
      if (format.group === undefined) return placeholderOf(match)
      const secret = groups[format.group - 1] as string
      if (format.keep !== undefined) return `${format.keep}${placeholderOf(secret)}`
      // Only the secret part of the match goes: `postgres://user:[REDACTED:...]@`.
      return `${match.slice(0, match.length - secret.length - 1)}${placeholderOf(secret)}@`
    })
  }
  return out
}

/**
 * The forms a secret value takes in text besides itself: JSON-escaped, URL-encoded, and base64
 * (standard and URL-safe) at each of the three byte alignments it can have inside a longer encoded
 * string, so `base64("user:" + key)` is caught as well as `base64(key)`. For an alignment, only
 * the characters that depend on the secret's bytes alone are kept.
 * @internal
 */
export function encodedForms(value: string): string[] {
  const forms = new Set<string>()
  forms.add(JSON.stringify(value).slice(1, -1))
  forms.add(encodeURIComponent(value))
  const bytes = Buffer.from(value)
  for (let shift = 0; shift < 3; shift++) {
    const encoded = Buffer.concat([Buffer.alloc(shift), bytes]).toString('base64')
    const end = Math.floor((shift + bytes.length) / 3) * 4
    const inner = encoded.slice(shift === 0 ? 0 : 4, end)
    if (inner.length >= 8) {
      forms.add(inner)
      forms.add(inner.replaceAll('+', '-').replaceAll('/', '_'))
    }
  }
  forms.delete(value)
  return [...forms]
}
