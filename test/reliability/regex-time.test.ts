// Group 15: the patterns that run on untrusted text (a judge's reply, an agent's output, a
// criterion, a label set) on every request, record and replay take time in proportion to the
// text. Each is timed on an adversarial text and on one eight times as long: a linear pattern
// takes about eight times as long, a quadratic one sixty-four. The bound is a ratio, not a
// wall-clock limit, so a slow or busy machine does not fail it and a fast one does not hide a
// quadratic.
import { describe, expect, test } from 'vitest'
import { redactOutput } from '../../src/cassettes/redaction/redaction'
import {
  KEY_FORMATS,
  keyFormatIn,
  redactKeyFormats,
} from '../../src/cassettes/redaction/secret-patterns'
import { extractJson } from '../../src/judge/extract-json'
import { markdownCell } from '../../src/output-safety/markdown-text'
import { terminalLine, terminalText } from '../../src/output-safety/terminal-text'
import { parseCriteria } from '../../src/rubric/criteria'

// The longer text is eight times the shorter: linear gives 8, quadratic 64. The bound sits
// between them on a log scale, with room for caches and a busy machine. Measured on 2 December
// 2026: every case 4.2 to 9.3; the four patterns issue 27 named, before their rewrite, 41 to 69.
const FACTOR = 8
const MAX_GROWTH = 24

/** The CPU time of the fastest of five runs: other processes on the machine do not count. */
function fastest(run: () => void): number {
  let best = Number.POSITIVE_INFINITY
  for (let i = 0; i < 5; i++) {
    const start = process.cpuUsage()
    run()
    const used = process.cpuUsage(start)
    best = Math.min(best, (used.user + used.system) / 1000)
  }
  return best
}

// The longest text timed, in characters. Past about a megabyte V8 changes how it allocates a
// string and its copies, and a chain of plain `replace` calls on one grows about tenfold for
// twice the text: a cliff of the engine's, not the pattern's (it failed the Markdown cell case
// once its runs were warm enough to reach that size).
const MAX_TEXT = 1 << 19

/**
 * time(8n) / time(n) for `work` on `make(n)`, with n grown until one run takes 4 ms (so the
 * timer's resolution does not decide) or the longer text would pass {@link MAX_TEXT}, each time
 * the fastest of five runs.
 */
function growth(work: (text: string) => unknown, make: (n: number) => string): number {
  let n = 256
  const fits = (size: number) => make(FACTOR * size).length <= MAX_TEXT
  while (n < 1 << 17 && fits(2 * n) && fastest(() => work(make(n))) < 4) n *= 2
  const small = make(n)
  const large = make(FACTOR * n)
  work(small)
  work(large)
  return fastest(() => work(large)) / fastest(() => work(small))
}

const cases: [name: string, work: (text: string) => unknown, make: (n: number) => string][] = [
  // The four of issue 27.
  [
    'a password in a URL, behind a long scheme-like run',
    redactKeyFormats,
    (n) => `${'a-'.repeat(n)}://x`,
  ],
  ['a password in a URL, after many "://"', redactKeyFormats, (n) => 'a://b:'.repeat(n)],
  ['a password in a URL with no "@"', redactKeyFormats, (n) => `x://u:${'p'.repeat(n)}`],
  [
    'PEM BEGIN lines with no END',
    redactKeyFormats,
    (n) => '-----BEGIN PRIVATE KEY-----\n'.repeat(n),
  ],
  ['a query parameter with a long secret-like name', redactOutput, (n) => `?${'key'.repeat(n)}!=`],
  ['many query parameters with no value', redactOutput, (n) => `${'&token'.repeat(n)}=`],
  [
    'a criterion with a long run of spaces',
    (text) => parseCriteria(text, 'test'),
    (n) => `x${' '.repeat(n)}y`,
  ],
  [
    'a criterion marked optional, then spaces',
    (text) => parseCriteria(text, 'test'),
    (n) => `(optional)${' '.repeat(n)}x${' '.repeat(n)}(required`,
  ],
  // The output gate itself.
  [
    'the terminal gate on many indented lines',
    terminalText,
    (n) => `\n${' '.repeat(40)}:`.repeat(n),
  ],
  ['the terminal gate on control characters', terminalText, (n) => '\u001b[2J\r\u0007'.repeat(n)],
  ['a terminal line of whitespace', terminalLine, (n) => ' \t\n'.repeat(n)],
  ['a Markdown cell of breaks and pipes', markdownCell, (n) => '\r|<\n'.repeat(n)],
  // The code fences of a judge reply that is not whole JSON (cubic as a regular expression:
  // 2.8 s for 1,000 backticks).
  ['a judge reply of backticks', extractJson, (n) => '`'.repeat(n)],
  ['a judge reply of fences that never close', extractJson, (n) => '```\n'.repeat(n)],
  [
    'a judge reply of fences growing by one',
    extractJson,
    (n) => Array.from({ length: Math.sqrt(n) | 0 }, (_, i) => `${'~'.repeat(i + 3)}\n`).join(''),
  ],
  // Every other key format, on its mark repeated and on its mark before a long run.
  ...KEY_FORMATS.flatMap((format) =>
    format.marks.flatMap((mark): typeof cases => [
      [`${format.label}: "${mark}" repeated`, redactKeyFormats, (n) => mark.repeat(n)],
      [
        `${format.label}: "${mark}" before a long run`,
        keyFormatIn,
        (n) => `${mark}${'A1'.repeat(n)}!`,
      ],
    ]),
  ),
]

describe('15. Regular expressions on hostile text', () => {
  test.each(cases)(
    '%s grows linearly with the text',
    (_name, work, make) => {
      // One retry: a single unlucky measurement on a shared machine is not a quadratic pattern.
      const ratio = Math.min(growth(work, make), growth(work, make))
      expect(ratio).toBeLessThan(MAX_GROWTH)
      // A case takes about 1 s alone and up to 13 s when CI's lanes share two cores: the bound is
      // the ratio above, never the wall clock.
    },
    90_000,
  )
})
