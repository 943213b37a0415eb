// Verdicts as test annotations, added in the main process (see src/records/record-annotations.ts for why
// not from the worker): JUnit, TAP and verbose read `task.annotations` when they print.
import type { TestCase } from 'vitest/node'
import { experimental_getRunnerTask } from 'vitest/node'
import { redactedValue } from '../src/output-safety/redacted-value'
import { ANNOTATION_TYPE, recordAnnotations } from '../src/records/record-annotations'
import { testRecords } from './collect-run'

/**
 * Redact a finished test's rubricate records and add their annotations to it. A test that already holds
 * rubricate annotations is left alone: a run merged from blobs carries the ones its shard added.
 * @internal
 */
export function annotateTest(testCase: TestCase): void {
  const task = experimental_getRunnerTask(testCase)
  if (task.meta.rubricate) {
    // Redacted in place, once, as the result arrives: Vitest's blob reporter writes task.meta to
    // disk, and every later reader (the verdict lines, the reports) then reads no secret.
    task.meta.rubricate = redactedValue(task.meta.rubricate)
  }
  const records = testRecords(task.meta)
  if (records.length === 0) return
  if (task.annotations.some((annotation) => annotation.type === ANNOTATION_TYPE)) return
  for (const record of records) task.annotations.push(...recordAnnotations(record))
}
