import { AsyncLocalStorage } from 'node:async_hooks'
import type { RunnerTestCase } from 'vitest'
import type { TestIdentity } from '../src/records'
import { stateSlot } from '../src/state'

// The running test, set by the setup file around each test (`aroundEach`). It follows the test's
// own async work, so it names the right test under `test.concurrent` even when the global
// `expect` is bound to another one, and it reaches code that has no `this.task` (loops, msw).
const storage = stateSlot('vitest-current-test', () => new AsyncLocalStorage<RunnerTestCase>())

/** Run `fn` as part of `test`. @internal */
export function runInTest<T>(test: RunnerTestCase, fn: () => T): T {
  return storage.run(test, fn)
}

/** The test whose code is running, when the setup file is in use. @internal */
export function currentTest(): RunnerTestCase | undefined {
  return storage.getStore()
}

/** File, full name (`suite > test`) and id of a test. @internal */
export function testIdentity(test: RunnerTestCase): TestIdentity {
  const names = [test.name]
  for (let suite = test.suite; suite && suite !== test.file; suite = suite.suite) {
    if (suite.name) names.unshift(suite.name)
  }
  return { file: test.file.filepath, name: names.join(' > '), id: test.id }
}
