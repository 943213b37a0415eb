// A test module, read through Vitest's public reporter API (`TestModule`, `TestSuite`,
// `TestCase`), in the plain shape the pure report builder reads (`collect-run.ts`).
import type { TestCase, TestModule, TestSuite } from 'vitest/node'
import type { FileTaskLike, TaskLike } from './collect-run'

// The public result states, in the runner's words that the report and its JSON have always used.
const STATES = { passed: 'pass', failed: 'fail', skipped: 'skip', pending: 'pending' } as const

/** A finished test module as the report builder reads it. @internal */
export function moduleTask(module: TestModule): FileTaskLike {
  return {
    type: 'suite',
    name: module.relativeModuleId,
    filepath: module.moduleId,
    ...(module.project.name ? { projectName: module.project.name } : {}),
    meta: module.meta(),
    tasks: module.children.array().map(childTask),
  }
}

function childTask(child: TestCase | TestSuite): TaskLike {
  if (child.type === 'suite') {
    return {
      type: 'suite',
      name: child.name,
      mode: child.options.mode,
      meta: child.meta(),
      tasks: child.children.array().map(childTask),
    }
  }
  return {
    type: 'test',
    name: child.name,
    mode: child.options.mode,
    meta: child.meta(),
    result: { state: STATES[child.result().state] },
  }
}
