/**
 * Redaction (ARCHITECTURE.md §7.6). Runs on every request body before it is keyed, at record and at replay
 * time alike, and on every entry before it is written; then a rescan refuses to write an entry
 * that still holds a known secret.
 */
import { runtimeState, type Secret, type SecretRegistry } from '../../runtime/state'
import { setMember } from '../store/canonical-json'
import {
  encodedForms,
  keyFormatIn,
  placeholderOf,
  REDACTED,
  redactKeyFormats,
} from './secret-patterns'

// Declared with the runtime's parts, which hold the process's registry.
export type { Secret, SecretRegistry }
export { REDACTED }

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

// The usual provider keys are read whatever their names would say.
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

/**
 * The values of environment variables named like KEY/TOKEN/SECRET/PASSWORD that look like secrets:
 * 8+ characters, no whitespace, at least two character classes. The last condition keeps a plain
 * word (`SOME_KEY_MODE=production`) from being redacted out of prompts on one machine and not on
 * another, which would change keys between machines. Read from `env` as it is now: nothing is
 * kept between calls (the worker's {@link SecretRegistry} decides when it is read).
 * @internal
 */
export function envSecrets(env: NodeJS.ProcessEnv = process.env): Secret[] {
  const names = secretNames(env)
  if (env === process.env)
    for (const name of WELL_KNOWN_NAMES) if (!names.includes(name)) names.push(name)
  const out: Secret[] = []
  for (const name of names) {
    const value = env[name]
    if (value !== undefined) out.push(...secretsOfValue(name, value))
  }
  return out
}

/** A registry of its own (one per worker runtime; tests make their own). @internal */
export function createSecretRegistry(env: NodeJS.ProcessEnv = process.env): SecretRegistry {
  const learnt = new Map<string, Secret>()
  return {
    refresh: () => [...envSecrets(env), ...learnt.values()],
    learn(secrets) {
      for (const secret of secrets) if (!learnt.has(secret.value)) learnt.set(secret.value, secret)
    },
  }
}

/**
 * The worker's secret registry (the runtime's `secrets`), kept in its process part: the output
 * gate reaches it from below the runtime.
 * @internal
 */
export function secretRegistry(): SecretRegistry {
  const part = runtimeState().process
  part.secrets ??= createSecretRegistry()
  return part.secrets
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

/** A request's body and query, redacted of every secret known once it is learnt. @internal */
export interface RedactedRequest {
  /** The secrets known now, the request's own among them: the reply and the rescan use them too. */
  secrets: SecretSet
  body: unknown
  query: unknown
}

/**
 * Redact a request in one pass: the secrets it carries (its headers, its query string) are learnt
 * by the worker's registry, then its body and query lose every secret known now. The environment
 * is read afresh, so a secret set a moment ago is never keyed in.
 * @internal
 */
export function redactRequest(
  url: URL | undefined,
  headers: [string, string][],
  body: unknown,
  query: unknown,
): RedactedRequest {
  const carried = headers.length || url ? requestSecrets(url, headers) : []
  const registry = secretRegistry()
  // What a request carried is known to the worker from now on: output printed later (a miss,
  // a failure message) is redacted of it too.
  registry.learn(carried)
  const secrets = secretSet(registry.refresh(), carried)
  return {
    secrets,
    body: typeof body === 'string' ? redactText(body, secrets) : redactJson(body, secrets),
    query: query && redactJson(query, secrets),
  }
}

/** Secrets a request carries in its headers and query string. @internal */
export function requestSecrets(
  url: URL | undefined,
  headers: Iterable<[string, string]>,
): Secret[] {
  return headerSecrets(url, [...headers])
}

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

function urlSecrets(url: URL): Secret[] {
  const out: Secret[] = []
  for (const [name, value] of url.searchParams) {
    if (SECRET_QUERY_NAME.test(name) && value.length >= 8) {
      out.push({ value, label: `the "${name}" query parameter` })
    }
  }
  if (url.password.length >= 8)
    out.push({ value: decodeURIComponent(url.password), label: 'the URL' })
  return out
}

// A secret and every encoded form of it, each with the placeholder of the value itself.
function expand(secret: Secret): Secret[] {
  const placeholder = placeholderOf(secret.value)
  const out = [{ value: secret.value, label: secret.label, placeholder }]
  for (const form of encodedForms(secret.value))
    out.push({ value: form, label: secret.label, placeholder })
  return out
}

/**
 * Combine secrets: deduplicated, longest first, each with its JSON-escaped, URL-encoded and
 * base64 forms.
 * @internal
 */
export function secretSet(...lists: readonly Secret[][]): SecretSet {
  // The same secrets as the last call give the same set: the environment is still read at every
  // call, only the encoded forms are not made again. Made afresh, they were most of what reading
  // the secrets cost a replayed rubric assertion, three times per test (the suite figure "every
  // test a replayed rubric assertion, files sharing workers", docs/guide/benchmarks.md).
  let key = ''
  for (const list of lists)
    for (const { value, label, placeholder } of list)
      key += `${value}\u0000${label}\u0000${placeholder ?? ''}\u0001`
  const known = recentSets.get(key)
  if (known) return known
  const set = buildSecretSet(lists)
  recentSets.set(key, set)
  // A few: a request's set (the environment's and what it carries) alternates with the output's.
  if (recentSets.size > RECENT_SETS) recentSets.delete(recentSets.keys().next().value as string)
  return set
}

// The sets made last, by what they were made of.
const recentSets = new Map<string, SecretSet>()
const RECENT_SETS = 4

function buildSecretSet(lists: readonly (readonly Secret[])[]): SecretSet {
  const seen = new Map<string, Secret>()
  for (const list of lists) {
    for (const secret of list) {
      for (const form of expand(secret)) if (!seen.has(form.value)) seen.set(form.value, form)
    }
  }
  const secrets = [...seen.values()].sort((a, b) => b.value.length - a.value.length)
  return Object.freeze({ secrets: Object.freeze(secrets) })
}

/**
 * A string with every known secret and every well-known key format (`sk-...`, `Bearer ...`,
 * `ghp_...`, a password in a URL...) replaced by the placeholder of its value. @internal
 */
export function redactText(text: string, set: SecretSet): string {
  let out = text
  for (const { value, placeholder } of set.secrets)
    if (out.includes(value)) out = out.split(value).join(placeholder ?? placeholderOf(value))
  return redactKeyFormats(out)
}

/** A JSON value with every string redacted. Returns `value` itself when nothing changed. @internal */
export function redactJson(value: unknown, set: SecretSet): unknown {
  return mapJsonStrings(value, (text) => redactText(text, set))
}

/**
 * A JSON value with every string (and with `keys`, every member name) passed through `map`, copied
 * only along a path where something changed: `value` itself when nothing did.
 * @internal
 */
export function mapJsonStrings(
  value: unknown,
  map: (text: string) => string,
  keys = false,
): unknown {
  if (typeof value === 'string') return map(value)
  if (value === null || typeof value !== 'object') return value
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined
    for (let i = 0; i < value.length; i++) {
      const next = mapJsonStrings(value[i], map, keys)
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
    const name = keys ? map(key) : key
    const next = mapJsonStrings(source[key], map, keys)
    if (next === source[key] && name === key) continue
    copy ??= { ...source }
    if (name !== key) delete copy[key]
    setMember(copy, name, next)
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
export function redactOutput(text: string, secrets: SecretSet = outputSecrets()): string {
  const out = redactText(text, secrets)
  return out.includes('=') ? redactQueryParams(out) : out
}

/**
 * The secrets that output is redacted of, read now: the environment's (read afresh, so a secret
 * set a moment ago is redacted like any other) and every one learnt from a request. One output
 * (a record, a report) reads them once for all its strings: read per string, the scan of the
 * environment was most of the reporter's CPU per test (the suite figure "rubricate CPU per
 * replayed rubric assertion", docs/guide/benchmarks.md).
 * @internal
 */
export function outputSecrets(): SecretSet {
  return secretSet(secretRegistry().refresh())
}

/**
 * Secret-looking query parameters (`?api_key=...`, `&token=...`) replaced, as
 * `/([?&][\w.-]*(?:key|token|secret|password|sig|auth)[\w.-]*=)([^&\s"'#<>]+)/gi` would find
 * them, without its backtracking: that pattern tries every split of a long name around the word
 * it looks for, quadratic in the name's length. A name runs from `?`
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
