// A reporter that sees only what Vitest's public reporter API gives it: each annotation as
// `onTestCaseAnnotate` hears of it, with the state of its test at that moment, and the test's
// result when it arrives. Written as JSON lines to $ANNOTATION_LOG, for
// test/reporter/e2e-annotations.test.ts.
import { appendFileSync } from 'node:fs'
import type { TestAnnotation } from 'vitest'
import type { Reporter, TestCase } from 'vitest/node'

const log = (event: object): void => {
  appendFileSync(process.env.ANNOTATION_LOG!, `${JSON.stringify(event)}\n`)
}

export default class AnnotationLogReporter implements Reporter {
  onTestCaseAnnotate(test: TestCase, annotation: TestAnnotation): void {
    log({
      event: 'annotate',
      test: test.name,
      state: test.result().state,
      type: annotation.type,
      message: annotation.message,
      line: annotation.location?.line,
    })
  }

  onTestCaseResult(test: TestCase): void {
    log({ event: 'result', test: test.name, state: test.result().state })
  }
}
