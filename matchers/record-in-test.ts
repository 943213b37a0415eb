// A record's way into its test (ARCHITECTURE.md §9): redacted once, kept in `task.meta.rubricate`
// for the reporter and the blob reports, and made into annotations with the test context's public
// `annotate()`, so that every reporter (`onTestCaseAnnotate`), the UI and JUnit get them while the
// test runs (with `annotations: 'failures'`, only the records that did not pass).
import type { RunnerTestCase } from 'vitest'
import { outputSecrets, type SecretSet } from '../src/cassettes/redaction/redaction'
import { recordAnnotation } from '../src/output-safety/record-annotations'
import { redactedValue } from '../src/output-safety/redacted-value'
import type { RubricateRecord } from '../src/records/records'
import { currentRuntime } from '../src/runtime/runtime'

/**
 * Put `record` into `task.meta.rubricate` (replacing the earlier record of the same loop) and
 * annotate the test with it. Returns the annotations on their way, which Vitest awaits before the
 * test passes; a caller about to fail the test awaits them itself (see `runAssertion`).
 * @internal
 */
export function recordInTest(
  task: Readonly<RunnerTestCase>,
  record: RubricateRecord,
): Promise<unknown>[] {
  // Redacted before it is stored: Vitest sends `task.meta` to the main process with each update
  // and its blob reporter writes it to disk, where rubricate could no longer take a secret out.
  // The secrets are read once for the record and its annotation.
  const secrets = outputSecrets()
  const stored = redactedValue(record, secrets)
  const meta = task.meta as { rubricate?: RubricateRecord[] }
  meta.rubricate ??= []
  const records = meta.rubricate
  const index = stored.loopId ? records.findIndex((r) => r.loopId === stored.loopId) : -1
  if (index >= 0) records[index] = stored
  else records.push(stored)
  return annotate(task, stored, secrets)
}

// One annotation per record (`recordAnnotation`), a loop's at each check so the UI follows it. A
// passing assertion does not wait for the round trip: Vitest awaits it before the test passes.
function annotate(
  task: Readonly<RunnerTestCase>,
  record: RubricateRecord,
  secrets: SecretSet,
): Promise<unknown>[] {
  // Vitest refuses an annotation once the test body has ended (a record made in afterEach or
  // onTestFinished, such as the not-awaited guard's): that record still reaches every reporter
  // through `task.meta`, and the test's failure, if any, carries its message.
  if (task.result?.state !== 'run') return []
  // `annotations: 'failures'`: a passing assertion's verdicts stay in `task.meta`. A loop is
  // annotated at each check all the same: its last check's record is not known to be its last.
  if (
    record.status === 'pass' &&
    record.kind !== 'loop' &&
    currentRuntime().config().annotations === 'failures'
  )
    return []
  const annotate = task.context?.annotate
  if (!annotate) return []
  const annotation = recordAnnotation(record, secrets)
  if (!annotation) return []
  // Vitest places an annotation at the test file's frame of the stack it captures in annotate():
  // under the matcher's and the loop's frames, that one is past the default limit of ten.
  const limit = Error.stackTraceLimit
  Error.stackTraceLimit = ANNOTATION_FRAMES
  try {
    return [annotate(annotation.message, annotation.type)]
  } finally {
    Error.stackTraceLimit = limit
  }
}

// Frames for Vitest to find the test file's in: rubricate's (about eight under a matcher, more
// under a loop's scorer), Vitest's expect, and helpers of the user's between the test and the call.
const ANNOTATION_FRAMES = 40
