// A describeEval suite's gates as a test annotation, so that JUnit carries them. Vitest's JUnit
// reporter writes one `<property>` per annotation of a test, and writes a suite only when it
// failed, so a met gate (and the means behind an unmet one) would be in no JUnit file. The
// annotation goes on the suite's last row that ran; it is added in the main process once the suite's
// record is known, before JUnit writes its file at the end of the run.

import type { TestCase, TestCollection, TestSuite } from 'vitest/node'
import { redactOutput } from '../src/cassettes/redaction/redaction'
import { ANNOTATION_TYPE } from '../src/output-safety/record-annotations'
import { terminalLine } from '../src/output-safety/terminal-text'
import type { EvalSuiteRecord } from '../src/records/eval-records'
import { evalGateAnnotation } from './render-eval'

/**
 * Annotate the last row that ran of every eval suite among `children` with the suite's gates.
 * Once: a run merged from shards whose blobs already carry it adds no second one.
 * @internal
 */
export function annotateEvalGates(children: TestCollection): void {
  for (const child of children) {
    if (child.type !== 'suite') continue
    annotateEvalGates(child.children)
    const record = (child.meta() as { rubricateEval?: EvalSuiteRecord | undefined }).rubricateEval
    if (record) annotateSuite(child, record)
  }
}

function annotateSuite(suite: TestSuite, record: EvalSuiteRecord): void {
  const ran = [...suite.children.allTests()].filter((test) => {
    const state = test.result().state
    return state === 'passed' || state === 'failed'
  })
  const last = ran.at(-1)
  const annotations = last === undefined ? undefined : runnerTask(last)?.annotations
  if (!Array.isArray(annotations)) return
  const message = terminalLine(
    redactOutput(evalGateAnnotation({ ...record, fullName: suite.fullName })),
  )
  const same = (one: { type?: unknown; message?: unknown }) =>
    one.type === ANNOTATION_TYPE && one.message === message
  if (annotations.some(same)) return
  annotations.push({ type: ANNOTATION_TYPE, message })
}

// The runner's task is where Vitest's reporters (JUnit among them) read a test's annotations.
// Vitest's `experimental_getRunnerTask(test)` returns the reported test's `task` field; read here
// without importing `vitest/node` at run time, which would put it in the plugin's module graph. A
// Vitest without the field gives no gate annotation rather than an error.
function runnerTask(test: TestCase): { annotations?: unknown } | undefined {
  const task = (test as unknown as { task?: unknown }).task
  return typeof task === 'object' && task !== null ? (task as { annotations?: unknown }) : undefined
}
