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

/** A well-known key format: what it is called, a cheap literal probe, and the pattern. @internal */
export interface KeyFormat {
  label: string
  /** A cheap test that must pass for the pattern to be tried. */
  probe: (text: string) => boolean
  pattern: RegExp
  /** The capture group that holds the secret part, when not the whole match. */
  group?: number | undefined
  /** What stays before the placeholder (`Bearer `). */
  keep?: string | undefined
}

/**
 * True when `char` occurs in `text` right after one of `prefixes`. Looking for one character is
 * a vectorised scan; `includes('ghp_')` on English text costs ~4 µs per 4 KB, as it stops at
 * every "g".
 */
function before(text: string, char: string, prefixes: readonly string[]): boolean {
  for (let at = text.indexOf(char); at !== -1; at = text.indexOf(char, at + 1)) {
    for (const prefix of prefixes) if (text.startsWith(prefix, at - prefix.length)) return true
  }
  return false
}

/**
 * The key formats a model may echo, after the rule sets of secretlint and gitleaks. Each pattern
 * is global; the probes keep the replay path from running a dozen regular expressions over every
 * string of every request.
 * @internal
 */
export const KEY_FORMATS: readonly KeyFormat[] = [
  {
    label: 'a PEM private key',
    probe: (text) => text.includes('-----BEGIN'),
    pattern: /-----BEGIN[A-Z ]{0,40}PRIVATE KEY-----[\s\S]*?-----END[A-Z ]{0,40}PRIVATE KEY-----/g,
  },
  {
    label: 'a GitHub token',
    probe: (text) => before(text, '_', ['ghp', 'gho', 'ghu', 'ghs', 'ghr', 'github']),
    pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})/g,
  },
  {
    label: 'a Stripe key',
    probe: (text) => before(text, '_', ['sk', 'rk']),
    pattern: /\b[sr]k_(?:live|test)_[A-Za-z0-9]{10,}/g,
  },
  {
    label: 'an AWS access key id',
    probe: (text) => text.includes('AKIA') || text.includes('ASIA'),
    pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g,
  },
  {
    label: 'a Google API key',
    probe: (text) => text.includes('AIza'),
    pattern: /\bAIza[0-9A-Za-z_-]{35}/g,
  },
  {
    label: 'a Slack token',
    probe: (text) => before(text, '-', ['xoxa', 'xoxb', 'xoxp', 'xoxo', 'xoxs', 'xoxr']),
    pattern: /\bxox[abposr]-[0-9A-Za-z-]{10,}/g,
  },
  {
    label: 'a Hugging Face token',
    probe: (text) => before(text, '_', ['hf']),
    pattern: /\bhf_[A-Za-z0-9]{30,}/g,
  },
  {
    label: 'a Groq key',
    probe: (text) => before(text, '_', ['gsk']),
    pattern: /\bgsk_[A-Za-z0-9]{20,}/g,
  },
  {
    label: 'an xAI key',
    probe: (text) => before(text, '-', ['xai']),
    pattern: /\bxai-[A-Za-z0-9]{20,}/g,
  },
  {
    label: 'an "sk-..." API key',
    probe: (text) => before(text, '-', ['sk']),
    pattern: /sk-[A-Za-z0-9_-]{20,}/g,
  },
  {
    label: 'a "Bearer ..." token',
    probe: (text) => text.includes('Bearer'),
    pattern: /Bearer\s+([A-Za-z0-9._~+/=-]{8,})/g,
    group: 1,
    keep: 'Bearer ',
  },
  {
    // postgres://user:password@host, redis://:password@host, https://user:password@proxy...
    label: 'a password in a URL',
    probe: (text) => text.includes('://'),
    // A placeholder already in its place is not a password.
    pattern: /\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@"'<>]*:(?!\[REDACTED)([^\s@/"'<>]{3,})@/gi,
    group: 1,
  },
]

/** The first key format `text` holds, if any. @internal */
export function keyFormatIn(text: string): KeyFormat | undefined {
  for (const format of KEY_FORMATS) {
    if (!format.probe(text)) continue
    format.pattern.lastIndex = 0
    if (format.pattern.test(text)) return format
  }
  return undefined
}

/** `text` with every well-known key format replaced by the placeholder of the key. @internal */
export function redactKeyFormats(text: string): string {
  let out = text
  for (const format of KEY_FORMATS) {
    if (!format.probe(out)) continue
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
