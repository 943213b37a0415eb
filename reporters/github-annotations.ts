// Pure: GitHub Actions workflow commands for unmet required criteria, in the form Vitest's own
// `github-actions` reporter prints (`::error file=...,line=...,column=...,title=...::message`).
import { join } from 'node:path'
import { redactOutput } from '../src/cassettes/redaction/redaction'
import { escapeControls, terminalLine } from '../src/output-safety/terminal-text'
import type { RunReport } from './collect-run'

/**
 * One `::error` command per unmet required criterion of a failed assertion, on the assertion's
 * line: the title names the criterion, the message gives the judge's reasoning. Assertions with
 * no recorded location (older records) are left to Vitest's own annotation of the failure.
 * @internal
 */
export function githubAnnotations(report: RunReport, root: string): string[] {
  const out: string[] = []
  for (const file of report.files) {
    const path = join(root, file.file)
    for (const test of file.tests) {
      for (const record of test.records) {
        if (record.status !== 'fail' || record.negated || !record.location) continue
        const verdicts = [
          ...(record.verdicts ?? []),
          ...(record.scorers ?? []).filter((part) => !part.passed).flatMap((p) => p.verdicts ?? []),
        ]
        for (const verdict of verdicts) {
          if (verdict.satisfied || !verdict.required) continue
          out.push(
            command(
              'error',
              {
                file: path,
                line: String(record.location.line),
                column: String(record.location.column),
                title: `${test.fullName}: unmet "${terminalLine(verdict.criterion)}"`,
              },
              terminalLine(verdict.reasoning) || 'The judge found this required criterion unmet.',
            ),
          )
        }
      }
    }
  }
  return out
}

// The escaping of GitHub's toolkit (and of Vitest's reporter): data escapes %, CR and LF;
// properties also escape ':' and ','. Before that, every value passes the output gate: redacted
// of known secrets (a test name or a reasoning may quote one) and its control characters shown
// escaped (the log shows them as they are).
function command(name: string, properties: Record<string, string>, message: string): string {
  const props = Object.entries(properties)
    .map(([key, value]) => `${key}=${escapeProperty(gated(value))}`)
    .join(',')
  return `::${name} ${props}::${escapeData(gated(message))}`
}

function gated(text: string): string {
  return escapeControls(redactOutput(text))
}

function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A')
}

function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C')
}
