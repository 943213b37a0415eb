// The patterns rewritten to run in linear time (issue 27) find exactly what the regular
// expressions they replace found: the same matches, the same secret parts, on random texts built
// from the pieces each pattern cares about. A changed match would change what is redacted, and so
// the keys of committed cassettes.
import { expect, test } from 'vitest'
import { redactOutput } from '../../src/cassettes/redaction/redaction'
import { KEY_FORMATS } from '../../src/cassettes/redaction/secret-patterns'
import { parseCriteria } from '../../src/rubric/criteria'

// The patterns as they were before the rewrite.
const OLD_URL_PASSWORD = /\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@"'<>]*:(?!\[REDACTED)([^\s@/"'<>]{3,})@/gi
const OLD_PEM =
  /-----BEGIN[A-Z ]{0,40}PRIVATE KEY-----[\s\S]*?-----END[A-Z ]{0,40}PRIVATE KEY-----/g
const OLD_QUERY = /([?&][\w.-]*(?:key|token|secret|password|sig|auth)[\w.-]*=)([^&\s"'#<>]+)/gi
const OLD_OPTIONAL_START = /^\(optional\)\s*/i
const OLD_OPTIONAL_END = /\s*\(optional\)$/i
const OLD_REQUIRED_START = /^\(required\)\s*/i
const OLD_REQUIRED_END = /\s*\(required\)$/i

// A small deterministic generator, so a failure names a text that can be run again.
function random(seed: number): () => number {
  let state = seed
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648
    return state / 2147483648
  }
}

function texts(pieces: readonly string[], count: number, seed: number): string[] {
  const next = random(seed)
  const out: string[] = []
  for (let i = 0; i < count; i++) {
    let text = ''
    const length = 1 + Math.floor(next() * 24)
    for (let j = 0; j < length; j++) text += pieces[Math.floor(next() * pieces.length)]
    out.push(text)
  }
  return out
}

type Found = [start: number, end: number, secret: string]

function regexMatches(pattern: RegExp, text: string, group?: number): Found[] {
  return [...text.matchAll(pattern)].map((match) => [
    match.index,
    match.index + match[0].length,
    group === undefined ? match[0] : (match[group] as string),
  ])
}

/** Texts where `actual` and `expected` differ, and how many texts `expected` found something in. */
function compare<T>(
  all: readonly string[],
  actual: (text: string) => T,
  expected: (text: string) => T,
  found: (value: T, text: string) => boolean,
): { differ: string[]; found: number } {
  const differ: string[] = []
  let count = 0
  for (const text of all) {
    const want = expected(text)
    if (JSON.stringify(actual(text)) !== JSON.stringify(want)) differ.push(text)
    if (found(want, text)) count++
  }
  return { differ, found: count }
}

function formatMatches(label: string, text: string): Found[] {
  const format = KEY_FORMATS.find((candidate) => candidate.label === label)
  if (!format) throw new Error(`no format "${label}"`)
  const out: Found[] = []
  for (let match = format.find(text, 0); match; match = format.find(text, match.end)) {
    out.push([match.start, match.end, text.slice(match.secretStart, match.secretEnd)])
  }
  return out
}

test('the URL-password format finds what its old pattern found, match for match', () => {
  const pieces = [
    'redis://',
    'https://u',
    ':secret@',
    '://:pw-4@',
    'a.b+c://',
    '_x://',
    ':[REDACTED:12]@',
    'a',
    'Z',
    '1',
    '-',
    '.',
    '+',
    '_',
    ':',
    '/',
    '//',
    '://',
    '@',
    ' ',
    '"',
    '<',
    '\n',
    'pw',
    'user',
    'x:pw@',
    '[REDACTED',
    '[redacted:1]',
    'postgres',
    'é',
    '\t',
  ]
  const result = compare(
    texts(pieces, 20_000, 7),
    (text) => formatMatches('a password in a URL', text),
    (text) => regexMatches(OLD_URL_PASSWORD, text, 1),
    (matches) => matches.length > 0,
  )
  expect(result.differ).toEqual([])
  expect(result.found).toBeGreaterThan(500)
})

test('the PEM format finds what its old pattern found, match for match', () => {
  const pieces = [
    '-----BEGIN PRIVATE KEY-----',
    '-----BEGIN RSA PRIVATE KEY-----',
    '-----END PRIVATE KEY-----',
    '-----END EC PRIVATE KEY-----',
    '-----BEGIN',
    '-----END',
    'PRIVATE KEY-----',
    'MIIE',
    '\n',
    ' ',
    '-----',
    'RSA ',
    'x',
  ]
  const result = compare(
    texts(pieces, 20_000, 11),
    (text) => formatMatches('a PEM private key', text),
    (text) => regexMatches(OLD_PEM, text),
    (matches) => matches.length > 0,
  )
  expect(result.differ).toEqual([])
  expect(result.found).toBeGreaterThan(500)
})

test('the query-secret redaction of output replaces what its old pattern replaced', () => {
  const pieces = [
    '?api_key=',
    '&token=abc',
    '=v',
    'sig=',
    '&x=1',
    '?',
    '&',
    '=',
    'key',
    'Token',
    'sig',
    'AUTH',
    'password',
    'secret',
    'x',
    '.',
    '-',
    '_',
    'v1',
    ' ',
    '"',
    '#',
    '<',
    '[REDACTED',
    '%5BREDACTED',
    'ke',
    'y',
    '\n',
  ]
  const result = compare(
    texts(pieces, 20_000, 13),
    (text) => redactOutput(text),
    (text) =>
      text.replace(OLD_QUERY, (match, name: string, value: string) =>
        value.startsWith('[REDACTED') || value.startsWith('%5BREDACTED')
          ? match
          : `${name}[REDACTED]`,
      ),
    (redacted, text) => redacted !== text,
  )
  expect(result.differ).toEqual([])
  expect(result.found).toBeGreaterThan(500)
})

test('the optional and required markers of a criterion are read as their old patterns read them', () => {
  const pieces = [
    '(optional)',
    '(OPTIONAL)',
    '(required)',
    '(Required)',
    ' ',
    '\t',
    'x',
    'Greets',
    '(',
    ')',
    'optional',
  ]
  const old = (line: string) => {
    let text = line.trim()
    let required = true
    let markedRequired = false
    if (OLD_OPTIONAL_START.test(text) || OLD_OPTIONAL_END.test(text)) {
      required = false
      text = text.replace(OLD_OPTIONAL_START, '').replace(OLD_OPTIONAL_END, '').trim()
    } else if (OLD_REQUIRED_START.test(text) || OLD_REQUIRED_END.test(text)) {
      markedRequired = true
      text = text.replace(OLD_REQUIRED_START, '').replace(OLD_REQUIRED_END, '').trim()
    }
    return { description: text, required, markedRequired }
  }
  const result = compare(
    texts(pieces, 20_000, 17).filter((line) => old(line).description !== ''),
    (line) => {
      const [parsed] = parseCriteria([line], 'test')
      if (!parsed) throw new Error(`no criterion in ${JSON.stringify(line)}`)
      return {
        description: parsed.description,
        required: parsed.required,
        markedRequired: parsed.markedRequired,
      }
    },
    old,
    (read) => !read.required || read.markedRequired === true,
  )
  expect(result.differ).toEqual([])
  expect(result.found).toBeGreaterThan(500)
})
