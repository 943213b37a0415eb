// Groups 13 and 14, one writer at a time: each place that prints or writes untrusted text goes
// through the output gate (src/output-safety/), and each defect found in issue 27 has its case.
// The whole run, end to end, is output-secrets-e2e.test.ts.
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { rubricFailure, scorerFailure } from '../../matchers/failure-message'
import { plain } from '../../reporters/figures'
import { githubAnnotations } from '../../reporters/github-annotations'
import { renderCassetteDiffMarkdown } from '../../reporters/render-cassette-diff'
import { renderMarkdown } from '../../reporters/render-markdown'
import { renderRecords } from '../../reporters/render-record'
import { summariseRun } from '../../reporters/run-summary'
import { markdownCell } from '../../src/output-safety/markdown-text'
import { ANNOTATION_LINE_BREAK, recordAnnotation } from '../../src/output-safety/record-annotations'
import { redactedValue } from '../../src/output-safety/redacted-value'
import { terminalText } from '../../src/output-safety/terminal-text'
import type { RubricateRecord, Verdict } from '../../src/records/records'

function verdict(criterion: string, satisfied: boolean, reasoning = 'It does.'): Verdict {
  return { id: 'c1', criterion, required: true, satisfied, reasoning }
}

function rubric(verdicts: Verdict[], extra: Partial<RubricateRecord> = {}): RubricateRecord {
  return {
    v: 1,
    kind: 'rubric',
    status: verdicts.every((v) => v.satisfied) ? 'pass' : 'fail',
    negated: false,
    verdicts,
    judgeCalls: [],
    durationMs: 1,
    outputPreview: 'reply',
    ...extra,
  }
}

const TOKEN = 'Qz9-Tok-4417-abc'
const HOSTILE = `Quotes ${TOKEN}.\n::error file=a.ts::owned\n  ::stop-commands::x\u3000\n\u3000::add-mask::y\r::warning::z \u001b[2J\u0007\u0000\u009b31m | <img src=x onerror=alert(1)>`

beforeEach(() => {
  process.env.RUBRICATE_TEST_TOKEN = TOKEN
})
afterEach(() => {
  delete process.env.RUBRICATE_TEST_TOKEN
})

/** Lines as the GitHub runner splits them, with its leading-whitespace trim. */
function runnerCommands(text: string): string[] {
  return text.split(/\r\n|\r|\n/).filter((line) => line.trimStart().startsWith('::'))
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: what a terminal would act on
const TERMINAL_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]|\r(?!\n)/

describe('13. Secrets in output', () => {
  test('a failure message quoting an output and a reasoning holds no known secret', () => {
    const evaluation = {
      satisfied: false,
      verdicts: [verdict(`Never says ${TOKEN}`, false, HOSTILE)],
      judgeCalls: [],
    }
    const texts = [
      rubricFailure(evaluation, false, `The token: ${TOKEN}`),
      scorerFailure(
        { ...evaluation, verdicts: undefined, reason: HOSTILE, metadata: { leak: TOKEN } },
        false,
        TOKEN,
      ),
    ].map(terminalText)
    for (const text of texts) expect(text).not.toContain(TOKEN)
  })

  test('a GitHub annotation names no known secret, in its title or its message', () => {
    const lines = githubAnnotations(
      {
        files: [
          {
            file: 'a.test.ts',
            tests: [
              {
                name: `uses ${TOKEN}`,
                fullName: `uses ${TOKEN}`,
                state: 'fail',
                records: [
                  rubric([verdict(`Hides ${TOKEN}`, false, HOSTILE)], {
                    location: { line: 3, column: 5 },
                  }),
                ],
              },
            ],
          },
        ],
        skippedTests: 0,
      },
      '/project',
    )
    expect(lines).toHaveLength(1)
    expect(lines[0]).not.toContain(TOKEN)
    expect(lines[0]).not.toMatch(TERMINAL_CONTROL)
    // One command, whatever the reasoning held.
    expect(runnerCommands(lines.join('\n'))).toHaveLength(1)
  })

  test('the annotation JUnit writes and other reporters print holds no secret and no control character, and breaks lines only between criteria', () => {
    const annotation = recordAnnotation(
      rubric([verdict(`Hides ${TOKEN}`, false, HOSTILE), verdict(HOSTILE, false, HOSTILE)]),
    )
    const message = annotation?.message ?? ''
    expect(message).not.toContain(TOKEN)
    // One line per criterion, whatever the criterion and the reasoning held: the hostile text's
    // own line breaks are collapsed and its controls escaped, so the only CR LF are rubricate's
    // breaks, and no line of it starts a workflow command or a line of its own.
    const lines = message.split(ANNOTATION_LINE_BREAK)
    expect(lines).toHaveLength(2)
    for (const line of lines) {
      expect(line).not.toMatch(TERMINAL_CONTROL)
      expect(line).not.toMatch(/[\r\n]/)
      expect(line).toMatch(/^unmet \[required\] /)
    }
    expect(runnerCommands(message)).toEqual([])
  })

  test('records kept in task.meta (and so in blob reports) are redacted, keys and values alike', () => {
    const record = rubric([verdict(`Hides ${TOKEN}`, false, HOSTILE)], {
      metadata: { [TOKEN]: [TOKEN] },
    })
    expect(JSON.stringify(redactedValue([record]))).not.toContain(TOKEN)
    const clean = rubric([verdict('Greets', true)])
    expect(redactedValue(clean)).toBe(clean)
  })
})

describe('14. Text that commands CI', () => {
  test('a reasoning holding a newline and "::error" or "::stop-commands::" is no workflow command in a failure message', () => {
    const message = terminalText(
      rubricFailure(
        { satisfied: false, verdicts: [verdict('Greets', false, HOSTILE)], judgeCalls: [] },
        false,
        HOSTILE,
      ),
    )
    expect(runnerCommands(message)).toEqual([])
    expect(message).toContain('\\::error file=a.ts::owned')
    expect(message).toContain('  \\::stop-commands::x')
    // Whitespace the runner trims is not a way around it; a "::" inside a line is left alone.
    expect(message).toContain('\u3000\\::add-mask::y')
    expect(terminalText('a::b')).toBe('a::b')
  })

  test('ESC, BEL, NUL, C1 and a lone CR from a judge are shown escaped in the verdict lines and messages', () => {
    const lines = renderRecords([rubric([verdict('Greets', false, HOSTILE)])], {
      indent: '  ',
      colors: plain,
    })
    for (const text of [...lines, terminalText(HOSTILE)]) expect(text).not.toMatch(TERMINAL_CONTROL)
    expect(terminalText('a\u001b[2Jb\u0007c\u0000d\re\r\nf')).toBe('a\\x1b[2Jb\\x07c\\x00d\\re\nf')
  })

  test('a lone CR, a pipe or raw HTML in a reasoning does not break or escape the job summary table', () => {
    const report = {
      files: [
        {
          file: 'a.test.ts',
          tests: [
            {
              name: 't',
              fullName: 't',
              state: 'fail',
              records: [rubric([verdict('Greets', false, HOSTILE)])],
            },
          ],
        },
      ],
      skippedTests: 0,
    }
    const markdown = renderMarkdown(report, summariseRun(report, {}))
    expect(markdown).not.toMatch(/\r|<img/)
    const row = markdown.split('\n').find((line) => line.startsWith('| t |'))
    expect(row?.replace(/\\\|/g, '').split('|').length).toBe(6)
    expect(markdownCell('a\rb\r\nc|<i>&')).toBe('a<br>b<br>c\\|&lt;i&gt;&amp;')
  })

  test('the re-record diff table in the job summary writes no raw HTML', () => {
    const markdown = renderCassetteDiffMarkdown(
      {
        tests: [
          {
            test: 'a.test.ts > <script>alert(1)</script>',
            changes: [
              {
                change: 'flipped',
                kind: 'verdict',
                criterion: 'Greets <img src=x onerror=alert(1)>\rnext',
                required: true,
                before: true,
                after: false,
                reasoning: HOSTILE,
                models: ['j', 'j'],
              },
            ],
          },
        ],
        requiredFlips: 1,
        judgements: { before: 1, after: 1 },
        unreadable: { before: 0, after: 0 },
      },
      '__cassettes__',
      'HEAD',
    )
    expect(markdown).not.toMatch(/<script|<img|\r/)
    expect(markdown).toContain('&lt;script&gt;')
  })
})
