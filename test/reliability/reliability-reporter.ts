// `npm run reliability`: prints, for each group of test/reliability (its top-level describe), how
// many cases were tried and how many behaved as specified. Vitest's exit code already fails the
// run when a case fails; the reporter also fails it when a file could not even be collected.
import { stripVTControlCharacters } from 'node:util'
import type { Reporter, TestCase, TestModule, Vitest } from 'vitest/node'
import { type CaseOutcome, renderTable, tallyGroups } from './reliability-table'

export default class ReliabilityReporter implements Reporter {
  #vitest: Vitest | undefined

  onInit(vitest: Vitest): void {
    this.#vitest = vitest
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const cases: CaseOutcome[] = []
    for (const module of modules) {
      const tests = [...module.children.allTests()]
      for (const test of tests) cases.push(outcomeOf(test))
      // A file that fails to load has no cases to count; it must not vanish from the table.
      if (tests.length === 0 || module.errors().length > 0) {
        cases.push({
          group: module.relativeModuleId,
          name: 'the file itself',
          state: module.errors().length > 0 ? 'failed' : 'pending',
          error: firstLine(module.errors()[0]?.message),
        })
      }
    }
    const tallies = tallyGroups(cases)
    const table = renderTable(tallies)
    if (this.#vitest) this.#vitest.logger.log(`\n${table}\n`)
    else process.stdout.write(`\n${table}\n`)
    if (tallies.some((tally) => tally.misbehaved.length > 0)) process.exitCode = 1
  }
}

function outcomeOf(test: TestCase): CaseOutcome {
  let top: TestCase['parent'] = test.parent
  while (top.type === 'suite' && top.parent.type === 'suite') top = top.parent
  const result = test.result()
  return {
    group: top.type === 'suite' ? top.name : test.module.relativeModuleId,
    name: top.type === 'suite' ? test.fullName.slice(top.name.length + 3) : test.fullName,
    state: result.state,
    error: firstLine(result.errors?.[0]?.message),
  }
}

function firstLine(message: string | undefined): string | undefined {
  if (message === undefined) return undefined
  const line = stripVTControlCharacters(message).split('\n')[0] ?? ''
  return line.length > 160 ? `${line.slice(0, 157)}...` : line
}
