/**
 * Redaction (ARCHITECTURE.md §7.6). Runs on every request body before it is keyed, at record and at replay
 * time alike, and on every entry before it is written; then a rescan refuses to write an entry
 * that still holds a known secret.
 */
import { isDeepFrozen } from '../store/deep-frozen'
import { onceForText, REPEATED_TEXT_MIN_LENGTH } from '../store/repeated-texts'
import { setMember } from '../store/set-member'
import {
  encodedForms,
  keyFormatIn,
  placeholderOf,
  REDACTED,
  redactKeyFormats,
} from './secret-patterns'

export { REDACTED }

/** A known secret value and where it came from (an environment variable, a header...). @internal */
export interface Secret {
  value: string
  label: string
  /** What replaces it; set by {@link secretSet} (the placeholder of the value it encodes). */
  placeholder?: string | undefined
}

/** The secrets of one exchange, longest first, with their escaped and encoded forms. @internal */
export interface SecretSet {
  secrets: readonly Secret[]
}

// By name: PAT only as a whole word, or PATH would be a secret.
const SECRET_ENV_NAME = /KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH|(^|_)PAT($|_)/i
const SECRET_HEADER_NAME = /auth|key|token|secret|cookie|signature/i
const SECRET_QUERY_NAME = /key|token|secret|password|sig|auth/i

/** Whether a query parameter's name says it carries a credential (Gemini's `key`). @internal */
export function isSecretQueryName(name: string): boolean {
  return SECRET_QUERY_NAME.test(name)
}

// Reading `process.env` crosses into C++ for every name: listing 80 variables costs about 30 µs,
// a tenth of the replay budget. So the names are listed at most once a second (and afresh before
// every write, see `freshEnvSecrets`), while the values of the listed names and of the usual
// provider keys are read on every call.
const WELL_KNOWN_NAMES = [
  'OPENAI_API_KEY',
  'AZURE_OPENAI_API_KEY',
  'ANTHROPIC_API_KEY',
  'OPENROUTER_API_KEY',
  'GEMINI_API_KEY',
  'GOOGLE_API_KEY',
  'GOOGLE_GENERATIVE_AI_API_KEY',
  'MISTRAL_API_KEY',
  'GROQ_API_KEY',
  'XAI_API_KEY',
  'DEEPSEEK_API_KEY',
  'TOGETHER_API_KEY',
]
let listedNames: string[] = []
let listedAt = Number.NEGATIVE_INFINITY

/**
 * The values of environment variables named like KEY/TOKEN/SECRET/PASSWORD that look like secrets:
 * 8+ characters, no whitespace, at least two character classes. The last condition keeps a plain
 * word (`SOME_KEY_MODE=production`) from being redacted out of prompts on one machine and not on
 * another, which would change keys between machines.
 * @internal
 */
export function envSecrets(env: NodeJS.ProcessEnv = process.env): Secret[] {
  if (env !== process.env) return secretsOf(env, secretNames(env))
  if (performance.now() - listedAt > 1000) {
    listedNames = [...new Set([...secretNames(env), ...WELL_KNOWN_NAMES])]
    listedAt = performance.now()
  }
  return secretsOf(env, listedNames)
}

/** {@link envSecrets} with the names listed again now: used before anything is written. @internal */
export function freshEnvSecrets(): Secret[] {
  listedAt = Number.NEGATIVE_INFINITY
  recent = envSecrets()
  recentAt = listedAt
  return recent
}

let recent: Secret[] = []
let recentAt = Number.NEGATIVE_INFINITY

/**
 * {@link envSecrets} as read at most a second ago, for keying a request that is only looked up:
 * reading the values costs a dozen trips into C++ per call. A secret set since then leaves the
 * request keyed with it, which can only miss (every entry was keyed without it), and the caller
 * keys the request again with {@link freshEnvSecrets} before it reports a miss or writes.
 * @internal
 */
export function recentEnvSecrets(): Secret[] {
  if (performance.now() - recentAt > 1000) {
    recent = envSecrets()
    recentAt = performance.now()
  }
  return recent
}

/**
 * The names whose values may be secrets: named like one, or, whatever the name, holding a
 * well-known key format or a URL with a password (`DATABASE_URL=postgres://app:pw@db/app`).
 */
function secretNames(env: NodeJS.ProcessEnv): string[] {
  const names: string[] = []
  for (const name in env) {
    if (SECRET_ENV_NAME.test(name)) names.push(name)
    else {
      const value = env[name]
      if (value && value.length >= 8 && keyFormatIn(value)) names.push(name)
    }
  }
  return names
}

// What each variable's value yields, by name, for the value it had: a URL is parsed once, not on
// every call, and a call that finds every value as it was builds no string to look it up.
const valueSecrets = new Map<string, { value: string; secrets: Secret[] }>()

function secretsOf(env: NodeJS.ProcessEnv, names: readonly string[]): Secret[] {
  const out: Secret[] = []
  for (const name of names) {
    const value = env[name]
    if (value === undefined) continue
    let known = valueSecrets.get(name)
    if (known?.value !== value) {
      known = { value, secrets: secretsOfValue(name, value) }
      if (valueSecrets.size >= 1024) valueSecrets.clear()
      valueSecrets.set(name, known)
    }
    for (const secret of known.secrets) out.push(secret)
  }
  return out
}

function secretsOfValue(name: string, value: string): Secret[] {
  const out: Secret[] = []
  const password = value.includes('://') && value.includes('@') ? urlPassword(value) : undefined
  if (password) out.push({ value: password, label: `the password in ${name}` })
  if (looksSecret(value) && (SECRET_ENV_NAME.test(name) || keyFormatIn(value) || password))
    out.push({ value, label: name })
  return out
}

function urlPassword(value: string): string | undefined {
  try {
    const password = decodeURIComponent(new URL(value).password)
    return password.length >= 3 ? password : undefined
  } catch {
    return undefined
  }
}

/** Secrets a request carries in its headers and query string. @internal */
export function requestSecrets(
  url: URL | undefined,
  headers: Iterable<[string, string]>,
): Secret[] {
  // A judge sends the same few headers on every call: what they hold is worked out once.
  let cacheKey = url ? url.href : ''
  const pairs: [string, string][] = []
  for (const pair of headers) {
    pairs.push(pair)
    cacheKey += `\0${pair[0]}\0${pair[1]}`
  }
  let out = requestSecretsByKey.get(cacheKey)
  if (!out) {
    out = Object.freeze(headerSecrets(url, pairs)) as Secret[]
    if (requestSecretsByKey.size >= 256) requestSecretsByKey.clear()
    requestSecretsByKey.set(cacheKey, out)
  }
  return out
}

const requestSecretsByKey = new Map<string, Secret[]>()

function headerSecrets(url: URL | undefined, headers: [string, string][]): Secret[] {
  const out: Secret[] = []
  for (const [name, raw] of headers) {
    if (!SECRET_HEADER_NAME.test(name)) continue
    const label = `the "${name.toLowerCase()}" header`
    const value = raw.replace(/^(Bearer|Basic|Token)\s+/i, '').trim()
    if (value.length >= 8) out.push({ value, label })
    // A Basic credential's password, should the reply spell it out decoded.
    if (/^Basic\s/i.test(raw)) {
      const decoded = Buffer.from(value, 'base64').toString('utf8')
      const colon = decoded.indexOf(':')
      if (colon >= 0 && decoded.length - colon > 8)
        out.push({ value: decoded.slice(colon + 1), label })
    }
  }
  if (url) out.push(...urlSecrets(url))
  return out
}

// A judge call's URL is one of a few: what they hold is read once per address, as reading the
// parts of a URL costs a few microseconds on the replay path.
const urlSecretsByHref = new Map<string, Secret[]>()

function urlSecrets(url: URL): Secret[] {
  const href = url.href
  let out = urlSecretsByHref.get(href)
  if (out) return out
  out = []
  for (const [name, value] of url.searchParams) {
    if (SECRET_QUERY_NAME.test(name) && value.length >= 8) {
      out.push({ value, label: `the "${name}" query parameter` })
    }
  }
  if (url.password.length >= 8)
    out.push({ value: decodeURIComponent(url.password), label: 'the URL' })
  if (urlSecretsByHref.size >= 256) urlSecretsByHref.clear()
  urlSecretsByHref.set(href, out)
  return out
}

// A secret and every encoded form of it, each with the placeholder of the value itself: worked
// out once per value, as the environment's secrets are the same on every call.
const expanded = new Map<string, Secret[]>()

function expand(secret: Secret): Secret[] {
  const cacheKey = `${secret.label}\0${secret.value}`
  let out = expanded.get(cacheKey)
  if (!out) {
    const placeholder = placeholderOf(secret.value)
    out = [{ value: secret.value, label: secret.label, placeholder }]
    for (const form of encodedForms(secret.value))
      out.push({ value: form, label: secret.label, placeholder })
    if (expanded.size >= 1024) expanded.clear()
    expanded.set(cacheKey, out)
  }
  return out
}

/**
 * Combine secrets: deduplicated, longest first, each with its JSON-escaped, URL-encoded and
 * base64 forms.
 * @internal
 */
export function secretSet(...lists: readonly Secret[][]): SecretSet {
  // The same secrets come back on every call of a run: the same (frozen) set is handed back for
  // them, so what was worked out for a set (see `signatureOf`) is worked out once.
  let cacheKey = ''
  for (const list of lists) for (const { label, value } of list) cacheKey += `${label}\0${value}\0`
  let set = sets.get(cacheKey)
  if (set) return set
  const seen = new Map<string, Secret>()
  for (const list of lists) {
    for (const secret of list) {
      for (const form of expand(secret)) if (!seen.has(form.value)) seen.set(form.value, form)
    }
  }
  const secrets = [...seen.values()].sort((a, b) => b.value.length - a.value.length)
  set = Object.freeze({ secrets: Object.freeze(secrets) })
  if (sets.size >= 256) sets.clear()
  sets.set(cacheKey, set)
  return set
}

const sets = new Map<string, SecretSet>()

/**
 * A string with every known secret and every well-known key format (`sk-...`, `Bearer ...`,
 * `ghp_...`, a password in a URL...) replaced by the placeholder of its value. @internal
 */
export function redactText(text: string, set: SecretSet): string {
  // A judge's instructions come back in every request, the same text: redacted once per set.
  if (text.length >= REPEATED_TEXT_MIN_LENGTH) {
    let known = redactedTexts.get(set)
    if (!known) {
      known = new Map()
      redactedTexts.set(set, known)
    }
    return onceForText(known, text, (long) => redactNow(long, set))
  }
  return redactNow(text, set)
}

const redactedTexts = new WeakMap<SecretSet, Map<string, string>>()

function redactNow(text: string, set: SecretSet): string {
  let out = text
  for (const { value, placeholder } of set.secrets)
    if (out.includes(value)) out = out.split(value).join(placeholder ?? placeholderOf(value))
  return redactKeyFormats(out)
}

// Values frozen with `deepFreeze` (the judge's reply schema) that redaction left as they were,
// with the secrets they were redacted of: looked through once per set of secrets, not per call.
const cleanFrozen = new WeakMap<object, string>()
const signatures = new WeakMap<SecretSet, string>()

function signatureOf(set: SecretSet): string {
  let signature = signatures.get(set)
  if (signature === undefined) {
    signature = set.secrets.map((secret) => secret.value).join('\0')
    signatures.set(set, signature)
  }
  return signature
}

/** A JSON value with every string redacted. Returns `value` itself when nothing changed. @internal */
export function redactJson(value: unknown, set: SecretSet): unknown {
  if (typeof value === 'string') return redactText(value, set)
  if (value === null || typeof value !== 'object') return value
  if (!isDeepFrozen(value)) return redactObject(value, set)
  const signature = signatureOf(set)
  if (cleanFrozen.get(value) === signature) return value
  const redacted = redactObject(value, set)
  if (redacted === value) cleanFrozen.set(value, signature)
  return redacted
}

function redactObject(value: object, set: SecretSet): unknown {
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined
    for (let i = 0; i < value.length; i++) {
      const next = redactJson(value[i], set)
      if (next !== value[i]) {
        copy ??= value.slice()
        copy[i] = next
      }
    }
    return copy ?? value
  }
  let copy: Record<string, unknown> | undefined
  const source = value as Record<string, unknown>
  for (const key in source) {
    const next = redactJson(source[key], set)
    if (next !== source[key]) {
      copy ??= { ...source }
      setMember(copy, key, next)
    }
  }
  return copy ?? value
}

/** Where a value still holds a secret after redaction, if anywhere: `{ label, path }`. @internal */
export function findSecret(
  value: unknown,
  set: SecretSet,
  path = '',
): { label: string; path: string } | undefined {
  const found = scan(value, set)
  if (!found) return undefined
  // The path is spelled out only for a find: building one for every member of every entry was a
  // good part of what `verify` spent on 10,000 entries.
  let out = path
  for (let i = found.steps.length - 1; i >= 0; i--) {
    const step = found.steps[i] as string | number
    out = typeof step === 'number' ? `${out}[${step}]` : out ? `${out}.${step}` : step
  }
  return { label: found.label, path: out }
}

/** The secret in `value`, with the keys and indexes that lead to it, innermost first. */
function scan(
  value: unknown,
  set: SecretSet,
): { label: string; steps: (string | number)[] } | undefined {
  if (typeof value === 'string') {
    const label = secretIn(value, set)
    return label === undefined ? undefined : { label, steps: [] }
  }
  if (value === null || typeof value !== 'object') return undefined
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = scan(value[i], set)
      if (found) {
        found.steps.push(i)
        return found
      }
    }
    return undefined
  }
  for (const key of Object.keys(value)) {
    const inKey = secretIn(key, set)
    const found =
      inKey === undefined
        ? scan((value as Record<string, unknown>)[key], set)
        : { label: inKey, steps: [] }
    if (found) {
      found.steps.push(key)
      return found
    }
  }
  return undefined
}

function secretIn(text: string, set: SecretSet): string | undefined {
  for (const { value: secret, label } of set.secrets) {
    if (text.includes(secret)) return label
  }
  return keyFormatIn(text)?.label
}

/**
 * Text fit to print or write: every secret of the environment (in any of its encoded forms),
 * every well-known key format, URL credentials and secret-looking query parameters replaced.
 * Messages and the JSON report pass through it, so no known secret is printed or written
 * whichever message or field carries it.
 * @internal
 */
export function redactOutput(text: string): string {
  const out = redactText(text, secretSet(envSecrets()))
  return out.includes('=') ? redactQueryParams(out) : out
}

/**
 * Secret-looking query parameters (`?api_key=...`, `&token=...`) replaced, as
 * `/([?&][\w.-]*(?:key|token|secret|password|sig|auth)[\w.-]*=)([^&\s"'#<>]+)/gi` would find
 * them, without its backtracking: that pattern tries every split of a long name around the word
 * it looks for, quadratic in the name's length (13 s on a 75 KB reasoning). A name runs from `?`
 * or `&` to the first character outside `[\w.-]`, which must be `=`; so each match is fixed by
 * its start, and the names of two starts never overlap.
 */
function redactQueryParams(text: string): string {
  let out = ''
  let at = 0
  let start = nextSeparator(text, 0)
  while (start >= 0) {
    let nameEnd = start + 1
    while (nameEnd < text.length && isNameChar(text.charCodeAt(nameEnd))) nameEnd++
    let valueEnd = nameEnd + 1
    if (text[nameEnd] === '=' && SECRET_QUERY_NAME.test(text.slice(start + 1, nameEnd))) {
      while (valueEnd < text.length && !VALUE_STOP.test(text[valueEnd] as string)) valueEnd++
    }
    if (valueEnd > nameEnd + 1) {
      const value = text.slice(nameEnd + 1, valueEnd)
      if (!value.startsWith('[REDACTED') && !value.startsWith('%5BREDACTED')) {
        out += `${text.slice(at, nameEnd + 1)}${REDACTED}`
        at = valueEnd
      }
      start = nextSeparator(text, valueEnd)
    } else start = nextSeparator(text, start + 1)
  }
  return at === 0 ? text : out + text.slice(at)
}

const VALUE_STOP = /[&\s"'#<>]/

// The next `?` or `&`. One walk, not an indexOf per character: two indexOf calls would each scan
// to a far-off `?` again for every `&` before it.
function nextSeparator(text: string, from: number): number {
  for (let at = from; at < text.length; at++) {
    const code = text.charCodeAt(at)
    if (code === 63 || code === 38) return at
  }
  return -1
}

// [\w.-]: letters, digits, `_`, `.` and `-`.
function isNameChar(code: number): boolean {
  return (
    (code >= 65 && code <= 90) ||
    (code >= 97 && code <= 122) ||
    (code >= 48 && code <= 57) ||
    code === 95 ||
    code === 46 ||
    code === 45
  )
}

/** A URL fit for a message: no userinfo, secret-looking query parameters replaced. @internal */
export function redactUrl(url: string): string {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return url
  }
  parsed.username = ''
  parsed.password = ''
  for (const name of [...parsed.searchParams.keys()]) {
    if (SECRET_QUERY_NAME.test(name)) parsed.searchParams.set(name, REDACTED)
  }
  return parsed.toString()
}

function looksSecret(value: string): boolean {
  if (value.length < 8 || /\s/.test(value)) return false
  let classes = 0
  if (/[a-z]/.test(value)) classes++
  if (/[A-Z]/.test(value)) classes++
  if (/[0-9]/.test(value)) classes++
  if (/[^A-Za-z0-9]/.test(value)) classes++
  return classes >= 2
}
