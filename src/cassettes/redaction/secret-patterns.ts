import { createHash } from 'node:crypto'

/**
 * What a secret looks like and what replaces it. A redacted value becomes `[REDACTED:<digest>]`,
 * where the digest is the first 8 hex digits of a sha256 of the value: two different keys echoed
 * in an output still key apart (a changed secret is a cassette miss, not the replay of another
 * output's verdict), while the placeholder tells nothing usable about the value itself.
 */

/** The bare placeholder, for text that is not keyed (URLs in messages). @internal */
export const REDACTED = '[REDACTED]'

/** The placeholder of one secret value: `[REDACTED:1a2b3c4d]`. @internal */
export function placeholderOf(value: string): string {
  const digest = createHash('sha256').update(`rubricate-redaction\0${value}`).digest('hex')
  return `[REDACTED:${digest.slice(0, 8)}]`
}

/** Where a key format matched: the whole match, and the secret part inside it. @internal */
export interface KeyMatch {
  start: number
  end: number
  /** The secret part, `[secretStart, secretEnd)`; the whole match when the format has no group. */
  secretStart: number
  secretEnd: number
}

/** A well-known key format: what it is called, the literal text it holds, and how it is found. @internal */
export interface KeyFormat {
  label: string
  /** Literal text every match holds one of: the format is only looked for in text that holds one. */
  marks: readonly string[]
  /**
   * The first match that starts at or after `from`. Linear in the text's length for every input
   * (`test/reliability/regex-time.test.ts`): a regular expression whose matching can run
   * quadratic on hostile text is written out by hand instead.
   */
  find: (text: string, from: number) => KeyMatch | undefined
  /** What stays before the placeholder (`Bearer `), instead of the text before the secret. */
  keep?: string | undefined
}

/**
 * A format found by a global regular expression that is linear on any input (a literal start,
 * then bounded or single-class runs). With `group`, the group is the secret and ends the match.
 */
function byPattern(pattern: RegExp, group?: number): KeyFormat['find'] {
  return (text, from) => {
    pattern.lastIndex = from
    const match = pattern.exec(text)
    if (!match) return undefined
    const end = match.index + match[0].length
    const secret = group === undefined ? match[0] : (match[group] as string)
    return { start: match.index, end, secretStart: end - secret.length, secretEnd: end }
  }
}

/**
 * The key formats a model may echo, after the rule sets of secretlint and gitleaks. The marks
 * keep the replay path from looking for a dozen formats in every string of every request.
 * @internal
 */
export const KEY_FORMATS: readonly KeyFormat[] = [
  {
    label: 'a PEM private key',
    marks: ['-----BEGIN'],
    find: findPem,
  },
  {
    label: 'a GitHub token',
    marks: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_'],
    find: byPattern(/\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})/g),
  },
  {
    label: 'a Stripe key',
    marks: ['sk_', 'rk_'],
    find: byPattern(/\b[sr]k_(?:live|test)_[A-Za-z0-9]{10,}/g),
  },
  {
    label: 'an AWS access key id',
    marks: ['AKIA', 'ASIA'],
    find: byPattern(/\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g),
  },
  {
    label: 'a Google API key',
    marks: ['AIza'],
    find: byPattern(/\bAIza[0-9A-Za-z_-]{35}/g),
  },
  {
    label: 'a Slack token',
    marks: ['xoxa-', 'xoxb-', 'xoxp-', 'xoxo-', 'xoxs-', 'xoxr-'],
    find: byPattern(/\bxox[abposr]-[0-9A-Za-z-]{10,}/g),
  },
  {
    label: 'a Hugging Face token',
    marks: ['hf_'],
    find: byPattern(/\bhf_[A-Za-z0-9]{30,}/g),
  },
  {
    label: 'a Groq key',
    marks: ['gsk_'],
    find: byPattern(/\bgsk_[A-Za-z0-9]{20,}/g),
  },
  {
    label: 'an xAI key',
    marks: ['xai-'],
    find: byPattern(/\bxai-[A-Za-z0-9]{20,}/g),
  },
  {
    label: 'an "sk-..." API key',
    marks: ['sk-'],
    find: byPattern(/sk-[A-Za-z0-9_-]{20,}/g),
  },
  {
    label: 'a "Bearer ..." token',
    marks: ['Bearer'],
    find: byPattern(/Bearer\s+([A-Za-z0-9._~+/=-]{8,})/g, 1),
    keep: 'Bearer ',
  },
  {
    // postgres://user:password@host, redis://:password@host, https://user:password@proxy...
    label: 'a password in a URL',
    marks: ['://'],
    find: findUrlPassword,
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
    if (format.find(text, 0)) return format
  }
  return undefined
}

/** `text` with every well-known key format replaced by the placeholder of the key. @internal */
export function redactKeyFormats(text: string): string {
  if (!ANY_MARK.test(text)) return text
  let out = text
  for (const format of KEY_FORMATS) {
    if (!holdsMark(format, out)) continue
    out = replaceMatches(out, format)
  }
  return out
}

// Every match of one format, left to right, each search starting where the last match ended (as
// a global `replace` does). Only the secret part goes: `postgres://user:[REDACTED:...]@`.
function replaceMatches(text: string, format: KeyFormat): string {
  let out = ''
  let at = 0
  for (let match = format.find(text, 0); match; match = format.find(text, match.end)) {
    const before = format.keep ?? text.slice(match.start, match.secretStart)
    const secret = text.slice(match.secretStart, match.secretEnd)
    out += `${text.slice(at, match.start)}${before}${placeholderOf(secret)}${text.slice(match.secretEnd, match.end)}`
    at = match.end
  }
  return at === 0 ? text : out + text.slice(at)
}

// A PEM private key: a BEGIN line, then the nearest END line after it. Written out rather than as
// one pattern (`BEGIN...[\s\S]*?...END`), which scans to the end of the text from every BEGIN when
// no END follows: quadratic in the number of BEGIN lines. Here a BEGIN without an END after it
// ends the search, as no later BEGIN can have one either.
const PEM_BEGIN = /-----BEGIN[A-Z ]{0,40}PRIVATE KEY-----/g
const PEM_END = /-----END[A-Z ]{0,40}PRIVATE KEY-----/g

function findPem(text: string, from: number): KeyMatch | undefined {
  PEM_BEGIN.lastIndex = from
  const begin = PEM_BEGIN.exec(text)
  if (!begin) return undefined
  PEM_END.lastIndex = begin.index + begin[0].length
  const end = PEM_END.exec(text)
  if (!end) return undefined
  const last = end.index + end[0].length
  return { start: begin.index, end: last, secretStart: begin.index, secretEnd: last }
}

/**
 * A password in a URL (`postgres://user:password@host`, `redis://:password@host`): what
 * `/\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@"'<>]*:(?!\[REDACTED)([^\s@/"'<>]{3,})@/gi` matches, found
 * from each `://` instead. That pattern backtracks over the scheme from every word boundary
 * (`a-a-a-...`), quadratic in the text's length; here each character is looked at a bounded
 * number of times. Each part of a match is fixed once its start is (every run stops at the first
 * character its class excludes), so the leftmost start that passes the checks is the match.
 */
function findUrlPassword(text: string, from: number): KeyMatch | undefined {
  for (let colon = text.indexOf('://', from); colon >= 0; colon = text.indexOf('://', colon + 1)) {
    // The scheme: the leftmost letter of the run before `://` that starts a word.
    let runStart = colon
    while (runStart > from && isSchemeChar(text.charCodeAt(runStart - 1))) runStart--
    let start = -1
    for (let at = runStart; at < colon; at++) {
      if (isLetter(text.charCodeAt(at)) && (at === 0 || !isWordChar(text.charCodeAt(at - 1)))) {
        start = at
        break
      }
    }
    if (start < 0) continue
    // The user, up to the colon before the password.
    let user = colon + 3
    while (user < text.length && !USER_STOP.test(text[user] as string)) user++
    if (text[user] !== ':') continue
    const secretStart = user + 1
    // A placeholder already in its place is not a password.
    if (/^\[REDACTED/i.test(text.slice(secretStart, secretStart + 9))) continue
    let secretEnd = secretStart
    while (secretEnd < text.length && !PASSWORD_STOP.test(text[secretEnd] as string)) secretEnd++
    if (secretEnd - secretStart < 3 || text[secretEnd] !== '@') continue
    return { start, end: secretEnd + 1, secretStart, secretEnd }
  }
  return undefined
}

const USER_STOP = /[\s:/@"'<>]/
const PASSWORD_STOP = /[\s@/"'<>]/

function isLetter(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122)
}

function isWordChar(code: number): boolean {
  return isLetter(code) || (code >= 48 && code <= 57) || code === 95
}

// [a-z0-9+.-], either case.
function isSchemeChar(code: number): boolean {
  return isLetter(code) || (code >= 48 && code <= 57) || code === 43 || code === 46 || code === 45
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
