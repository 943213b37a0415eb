import type { RunnerTestCase } from 'vitest'
import type { TestIdentity } from '../src/records/records'
import { runAsTest, runningTest } from '../src/runtime/call-context'

// The running test is kept in one place, the call context (src/runtime/call-context.ts), which the setup
// file enters around each test (`aroundEach`). It follows the test's own async work, so it names
// the right test under `test.concurrent` even when the global `expect` is bound to another one,
// and it reaches code that has no `this.task` (loops, msw). These read it as Vitest's task.

/** Run `fn` as part of `test`, with its abort signal. @internal */
export function runInTest<T>(
  test: RunnerTestCase,
  signal: AbortSignal | undefined,
  fn: () => T | Promise<T>,
): Promise<T> {
  return runAsTest({ identity: testIdentity(test), task: test }, signal, fn)
}

/** The test whose code is running, when the setup file is in use. @internal */
export function currentTest(): RunnerTestCase | undefined {
  const test = runningTest()
  return test?.exact ? (test.task as RunnerTestCase | undefined) : undefined
}

/** The test whose code is running, else the only test running in this worker. @internal */
export function currentOrOnlyTest(): RunnerTestCase | undefined {
  return runningTest()?.task as RunnerTestCase | undefined
}

/** The identity of `test`: the one the setup file keeps while it runs, else worked out. @internal */
export function identityOf(test: RunnerTestCase): TestIdentity {
  const running = runningTest()
  return running?.task === test ? running.identity : testIdentity(test)
}

/** File, full name (`suite > test`) and id of a test. @internal */
export function testIdentity(test: RunnerTestCase): TestIdentity {
  const names = [test.name]
  for (let suite = test.suite; suite && suite !== test.file; suite = suite.suite) {
    if (suite.name) names.unshift(suite.name)
  }
  return { file: test.file.filepath, name: names.join(' > '), id: test.id }
}
