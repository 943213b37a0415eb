import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { UsageError } from '../errors'
import { messages } from '../messages'
import { taskText } from '../output'
import type { ScorerRun } from '../scorer/types'

/**
 * The stored outputs of an earlier run, as a preference scorer's `baseline`: found by the run's
 * input. Reads a rubricate JSON report (`outputFile.rubricate`, each assertion's recorded `input`
 * and `output`, cut at 4,000 characters), or a `.jsonl`/`.json` list of `{ input, output }`. The
 * path is relative to the working directory (Vitest's root). A run whose input the file does not
 * hold is a usage error, never a comparison with nothing.
 *
 * @example
 * const better = createPreferenceScorer({ criteria: 'More helpful', baseline: baselineFrom('baseline/report.json') })
 */
export function baselineFrom(file: string): (run: ScorerRun) => string {
  const path = resolve(file)
  let outputs: Map<string, string> | undefined
  return (run) => {
    outputs ??= readBaselines(path)
    const key = taskText(run.input) ?? ''
    const found = outputs.get(key)
    if (found === undefined) throw new UsageError(messages.baselineMissing(path, key, outputs.size))
    return found
  }
}

function readBaselines(path: string): Map<string, string> {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    throw new UsageError(messages.baselineUnreadable(path, (error as Error).message), {
      cause: error,
    })
  }
  const outputs = new Map<string, string>()
  const add = (input: unknown, output: unknown) => {
    const key = taskText(input)
    if (key !== undefined && typeof output === 'string' && !outputs.has(key))
      outputs.set(key, output)
  }
  let data: unknown
  try {
    data = path.endsWith('.jsonl')
      ? text
          .split('\n')
          .filter((line) => line.trim() !== '')
          .map((line) => JSON.parse(line))
      : JSON.parse(text)
  } catch (error) {
    throw new UsageError(messages.baselineUnreadable(path, (error as Error).message), {
      cause: error,
    })
  }
  const report = data as {
    v?: unknown
    files?: { tests?: { records?: { input?: unknown; output?: unknown }[] }[] }[]
  }
  if (!Array.isArray(data) && report?.v === 1 && Array.isArray(report.files)) {
    for (const file of report.files) {
      for (const test of file.tests ?? [])
        for (const record of test.records ?? []) add(record.input, record.output)
    }
  } else if (Array.isArray(data)) {
    for (const row of data as { input?: unknown; output?: unknown }[]) add(row?.input, row?.output)
  } else {
    throw new UsageError(
      messages.baselineUnreadable(
        path,
        'it is neither a rubricate JSON report nor a list of { input, output }',
      ),
    )
  }
  return outputs
}
